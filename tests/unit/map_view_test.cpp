// MapView (the zero-copy reader), decodeItemTypes() and MappedFile.
#include <gdmap/io/mapped_file.hpp>
#include <gdmap/reader/map_view.hpp>
#include <gdmap/schema/type.hpp>

#include "tests/support/map_bytes.hpp"

#include <doctest/doctest.h>

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <string>

using gdmap::Bytes;
using gdmap::ByteSpan;
using gdmap::ElementType;
using gdmap::MapView;
using gdmap::Type;
using gdmap::test::MapBytes;

namespace {

// find() that must succeed: its index, or nullopt for "no such RVA".
std::optional<std::uint32_t> findOk(const MapView& view, std::uint32_t rva) {
  const auto found = view.find(rva);
  REQUIRE_MESSAGE(found.ok(), found.error().message);
  return *found;
}

// class 0x01000012<int32>: GENERICINST CLASS (rid 0x12 << 2 | TypeRef) 1 arg int32.
constexpr std::uint8_t kListOfInt[] = {0x15, 0x12, 0x49, 0x01, 0x08};

}  // namespace

TEST_CASE("map view: open rejects fewer than 4 bytes") {
  for (std::size_t n = 0; n < 4; ++n) {
    const Bytes bytes(n, 0);
    const auto view = MapView::open(bytes);
    REQUIRE_FALSE(view.ok());
    CHECK(view.error().offset == 0);
    CHECK(view.error().rule == "stream-too-short");
  }
}

TEST_CASE("map view: a 4-byte map claiming 2^31-1 entries fails at once") {
  for (const std::uint32_t header : {0x7FFFFFFFu, 0xFFFFFFFFu}) {
    Bytes bytes;
    gdmap::test::appendU32(bytes, header);
    // open() compares the count with the bytes left and reads nothing
    // else: O(1), whatever the count claims.
    const auto view = MapView::open(bytes);
    REQUIRE_FALSE(view.ok());
    CHECK(view.error().rule == "directory-truncated");
    CHECK(view.error().message.find("2147483647") != std::string::npos);
  }
}

TEST_CASE("map view: a huge count with a few bytes is an error") {
  Bytes bytes;
  gdmap::test::appendU32(bytes, 0x80001000u);  // 4096 entries, sorted
  bytes.resize(4 + 8 * 4095 + 7, 0);           // one byte short of the directory
  CHECK_FALSE(MapView::open(bytes).ok());
  bytes.push_back(0);  // exactly the directory, empty heap
  const auto view = MapView::open(bytes);
  REQUIRE(view.ok());
  CHECK(view->size() == 4096);
  CHECK(view->heap().empty());
}

TEST_CASE("map view: header, entries and heap are read little-endian") {
  Bytes bytes = {0x02, 0x00, 0x00, 0x80,                          // 2 entries, sorted
                 0x78, 0x56, 0x34, 0x12, 0x00, 0x00, 0x00, 0x00,  // rva 0x12345678, offset 0
                 0x00, 0x00, 0x00, 0xF0, 0x03, 0x00, 0x00, 0x00,  // rva 0xF0000000, offset 3
                 0x02, 0x01, 0x08, 0x02, 0x01, 0x0E};
  const auto view = MapView::open(bytes);
  REQUIRE(view.ok());
  CHECK(view->sorted());
  CHECK(view->size() == 2);
  CHECK(view->heapStart() == 20);
  CHECK(view->heap().size() == 6);
  CHECK(view->entry(0).rva == 0x12345678u);
  CHECK(view->entry(0).offset == 0u);
  CHECK(view->entry(1).rva == 0xF0000000u);
  CHECK(view->entry(1).offset == 3u);

  bytes[3] = 0x00;  // bit 31 clear
  const auto unsorted = MapView::open(bytes);
  REQUIRE(unsorted.ok());
  CHECK_FALSE(unsorted->sorted());
  CHECK(unsorted->size() == 2);
}

TEST_CASE("map view: an empty map") {
  const Bytes bytes = {0x00, 0x00, 0x00, 0x80};
  const auto view = MapView::open(bytes);
  REQUIRE(view.ok());
  CHECK(view->size() == 0);
  CHECK(view->heap().empty());
  CHECK_FALSE(findOk(*view, 0).has_value());
}

TEST_CASE("map view: item reads the length prefix and type count") {
  MapBytes m;
  m.add(0x1000, 1, {0x08});
  m.entry(0x1010, m.item(2, {0x0E, 0x15, 0x12, 0x49, 0x01, 0x08}));
  const Bytes bytes = m.bytes();  // heap starts at 20
  const auto view = MapView::open(bytes);
  REQUIRE(view.ok());

  const auto first = view->item(0);
  REQUIRE(first.ok());
  CHECK(first->heapOffset == 0);
  CHECK(first->start == 20);
  CHECK(first->bytes.size() == 3);
  CHECK(first->typeCount == 1);
  CHECK(first->typesStart == 22);
  CHECK(first->types.size() == 1);

  const auto second = view->item(3);
  REQUIRE(second.ok());
  CHECK(second->start == 23);
  CHECK(second->typeCount == 2);
  CHECK(second->types.size() == 6);
  const auto types = gdmap::decodeItemTypes(*second);
  REQUIRE(types.ok());
  REQUIRE(types->size() == 2);
  CHECK((*types)[0] == Type::primitive(ElementType::String));
  CHECK((*types)[1] == Type::genericInstance(false, gdmap::Token{0x01000012}, {Type::primitive(ElementType::I4)}));
}

TEST_CASE("map view: item errors carry the byte offset") {
  SUBCASE("offset outside the heap") {
    const Bytes bytes = MapBytes().entry(0x1000, 0).heap({0x02, 0x01, 0x08}).bytes();
    const auto view = MapView::open(bytes);
    REQUIRE(view.ok());
    REQUIRE_FALSE(view->item(3).ok());
    CHECK(view->item(3).error().rule == "offset-outside-heap");
    CHECK_FALSE(view->item(0xFFFFFFFFu).ok());
  }
  SUBCASE("invalid length prefix") {
    const Bytes bytes = MapBytes().entry(0x1000, 0).heap({0xE0, 0x01, 0x08}).bytes();
    const auto item = MapView::open(bytes)->item(0);
    REQUIRE_FALSE(item.ok());
    CHECK(item.error().offset == 12);
    CHECK(item.error().rule == "invalid-compressed-int");
  }
  SUBCASE("truncated length prefix") {
    const Bytes bytes = MapBytes().entry(0x1000, 0).heap({0xC0, 0x00}).bytes();
    const auto item = MapView::open(bytes)->item(0);
    REQUIRE_FALSE(item.ok());
    CHECK(item.error().offset == 12);
  }
  SUBCASE("length past the heap") {
    const Bytes bytes = MapBytes().entry(0x1000, 0).heap({0x03, 0x01, 0x08}).bytes();
    const auto item = MapView::open(bytes)->item(0);
    REQUIRE_FALSE(item.ok());
    CHECK(item.error().offset == 12);
    CHECK(item.error().rule == "item-length-outside-heap");
  }
  SUBCASE("type count read inside the item only") {
    // L = 1 and the count's lead byte 0x80 needs two bytes; the byte after
    // the item must not be borrowed.
    const Bytes bytes = MapBytes().entry(0x1000, 0).heap({0x01, 0x80, 0x01}).bytes();
    const auto item = MapView::open(bytes)->item(0);
    REQUIRE_FALSE(item.ok());
    CHECK(item.error().offset == 13);
    CHECK(item.error().rule == "invalid-compressed-int");
  }
  SUBCASE("empty item has no count") {
    const Bytes bytes = MapBytes().entry(0x1000, 0).heap({0x00, 0x01, 0x08}).bytes();
    const auto item = MapView::open(bytes)->item(0);
    REQUIRE_FALSE(item.ok());
    CHECK(item.error().offset == 13);
  }
}

TEST_CASE("map view: decodeItemTypes rejects counts and lengths that do not fit") {
  const auto decode = [](std::initializer_list<std::uint8_t> heap) {
    const Bytes bytes = MapBytes().entry(0x1000, 0).heap(heap).bytes();
    const auto view = MapView::open(bytes);
    REQUIRE(view.ok());
    const auto item = view->item(0);
    REQUIRE(item.ok());
    return gdmap::decodeItemTypes(*item);
  };
  SUBCASE("zero types") {
    const auto r = decode({0x01, 0x00});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().offset == 13);
    CHECK(r.error().rule == "zero-type-count");
  }
  SUBCASE("more types than bytes") {
    const auto r = decode({0x02, 0x7F, 0x08});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().offset == 13);
    CHECK(r.error().rule == "type-count-exceeds-item");
  }
  SUBCASE("a 4-byte count of 2^29-1 with one byte left fails before reserving") {
    const auto r = decode({0x05, 0xDF, 0xFF, 0xFF, 0xFF, 0x08});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().offset == 13);
  }
  SUBCASE("bytes left after the types") {
    const auto r = decode({0x03, 0x01, 0x08, 0x08});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().offset == 15);
    CHECK(r.error().rule == "item-length-mismatch");
  }
  SUBCASE("a type cut off by the item's end") {
    const auto r = decode({0x02, 0x01, 0x1D, 0x08});
    REQUIRE_FALSE(r.ok());
  }
  SUBCASE("an invalid type, offset absolute") {
    const auto r = decode({0x03, 0x02, 0x08, 0xFF});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().offset == 15);
    CHECK(r.error().message.find("type[1]") != std::string::npos);
    CHECK_FALSE(r.error().rule.empty());  // the decoder's rule, or invalid-type
  }
  SUBCASE("several types") {
    const auto r = decode({0x07, 0x02, 0x15, 0x12, 0x49, 0x01, 0x08, 0x1C});
    REQUIRE(r.ok());
    REQUIRE(r->size() == 2);
    CHECK((*r)[1] == Type::primitive(ElementType::Object));
  }
}

TEST_CASE("map view: find by binary search when sorted") {
  MapBytes m;
  const std::uint32_t a = m.item(1, {0x08});
  const std::uint32_t b = m.item(1, {0x0E});
  for (std::uint32_t i = 0; i < 100; ++i) m.entry(0x1000 + 0x10 * i, i % 2 ? b : a);
  const Bytes bytes = m.bytes();
  const auto view = MapView::open(bytes);
  REQUIRE(view.ok());
  for (std::uint32_t i = 0; i < 100; ++i) {
    const auto found = findOk(*view, 0x1000 + 0x10 * i);
    REQUIRE(found.has_value());
    CHECK(*found == i);
    CHECK_FALSE(findOk(*view, 0x1000 + 0x10 * i + 1).has_value());
  }
  CHECK_FALSE(findOk(*view, 0).has_value());
  CHECK_FALSE(findOk(*view, 0xFFFFFFFFu).has_value());
  CHECK(view->checkOrder().ok());
}

TEST_CASE("map view: find by linear scan when unsorted") {
  MapBytes m(false);
  const std::uint32_t a = m.item(1, {0x08});
  m.entry(0x3000, a).entry(0x1000, a).entry(0x2000, a).entry(0xFFFFFFFFu, a);
  const Bytes bytes = m.bytes();
  const auto view = MapView::open(bytes);
  REQUIRE(view.ok());
  CHECK(findOk(*view, 0x3000) == 0u);
  CHECK(findOk(*view, 0x1000) == 1u);
  CHECK(findOk(*view, 0x2000) == 2u);
  CHECK(findOk(*view, 0xFFFFFFFFu) == 3u);
  CHECK_FALSE(findOk(*view, 0x1500).has_value());
  CHECK(view->checkOrder().ok());  // nothing to check: no order is claimed
}

TEST_CASE("map view: find refuses a map whose bit 31 lies, for every RVA (issue 7 defect 2)") {
  // Bit 31 set, RVAs 0x3000, 0x1000, 0x2000: a binary search for 0x3000
  // looks at 0x1000, then 0x2000, and would say "not found".
  MapBytes m(true);
  const std::uint32_t a = m.item(1, {0x08});
  m.entry(0x3000, a).entry(0x1000, a).entry(0x2000, a);
  const Bytes bytes = m.bytes();
  const auto view = MapView::open(bytes);
  REQUIRE(view.ok());
  for (const std::uint32_t rva : {0x1000u, 0x2000u, 0x3000u, 0x1800u}) {
    CAPTURE(rva);
    const auto found = view->find(rva);
    REQUIRE_FALSE(found.ok());
    CHECK(found.error().rule == "rva-not-ascending");
    CHECK(found.error().offset == 12);  // directory[1].rva
    CHECK(found.error().message.find("of directory[1] is not above directory[0]'s") != std::string::npos);
  }
  const gdmap::Status order = view->checkOrder();
  REQUIRE_FALSE(order.ok());
  CHECK(order.error().rule == "rva-not-ascending");
  // A copy of the view keeps the verdict, and says the same.
  const MapView copy = *view;
  REQUIRE_FALSE(copy.find(0x1000).ok());
  CHECK(copy.find(0x1000).error().offset == 12);
}

TEST_CASE("map view: a sorted map with an RVA twice is not ascending either") {
  MapBytes m(true);
  const std::uint32_t a = m.item(1, {0x08});
  m.entry(0x1000, a).entry(0x2000, a).entry(0x3000, a).entry(0x3000, a);
  const Bytes bytes = m.bytes();
  const auto view = MapView::open(bytes);
  REQUIRE(view.ok());
  const auto found = view->find(0x1000);
  REQUIRE_FALSE(found.ok());
  CHECK(found.error().rule == "rva-not-ascending");
  CHECK(found.error().offset == 4 + 8 * 3);
  CHECK(found.error().message.find("of directory[3] is not above directory[2]'s") != std::string::npos);
}

TEST_CASE("map view: an unsorted map with the RVA twice is a duplicate-rva error") {
  MapBytes m(false);
  const std::uint32_t a = m.item(1, {0x08});
  const std::uint32_t b = m.item(1, {0x0E});
  m.entry(0x2000, a).entry(0x1000, a).entry(0x3000, b).entry(0x1000, b);
  const Bytes bytes = m.bytes();
  const auto view = MapView::open(bytes);
  REQUIRE(view.ok());
  const auto found = view->find(0x1000);
  REQUIRE_FALSE(found.ok());
  CHECK(found.error().rule == "duplicate-rva");
  CHECK(found.error().offset == 4 + 8 * 3);  // directory[3].rva, the second one
  CHECK(found.error().message.find("of directory[3] is already directory[1]'s") != std::string::npos);
  // The other RVAs are unambiguous.
  CHECK(findOk(*view, 0x2000) == 0u);
  CHECK(findOk(*view, 0x3000) == 2u);
  CHECK_FALSE(findOk(*view, 0x4000).has_value());
}

namespace {

std::string tempPath(const char* name) { return "/tmp/gdmap_map_view_test_" + std::to_string(::getpid()) + "_" + name; }

}  // namespace

TEST_CASE("map view: MappedFile maps a file read-only") {
  const std::string path = tempPath("map");
  const Bytes bytes = MapBytes().add(0x1000, 1, {0x08}).bytes();
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  auto file = gdmap::MappedFile::open(path);
  REQUIRE(file.ok());
  const ByteSpan span = file->bytes();
  CHECK(Bytes(span.begin(), span.end()) == bytes);
  const auto view = MapView::open(span);
  REQUIRE(view.ok());
  CHECK(findOk(*view, 0x1000) == 0u);

  // Moving hands the mapping over; the moved-from file is empty.
  gdmap::MappedFile moved = std::move(*file);
  CHECK(moved.bytes().size() == bytes.size());
  CHECK(file->bytes().empty());
  auto other = gdmap::MappedFile::open(path);
  REQUIRE(other.ok());
  moved = std::move(*other);
  CHECK(moved.bytes().size() == bytes.size());
  std::remove(path.c_str());
}

TEST_CASE("map view: MappedFile of an empty file is an empty span") {
  const std::string path = tempPath("empty");
  { std::ofstream out(path, std::ios::binary); }
  const auto file = gdmap::MappedFile::open(path);
  REQUIRE(file.ok());
  CHECK(file->bytes().empty());
  std::remove(path.c_str());
}

TEST_CASE("map view: MappedFile errors name the path and the reason") {
  const std::string path = tempPath("missing");
  const auto file = gdmap::MappedFile::open(path);
  REQUIRE_FALSE(file.ok());
  CHECK(file.error().message.find(path) != std::string::npos);
  CHECK(file.error().message.find("No such file") != std::string::npos);

  const auto dir = gdmap::MappedFile::open("/tmp");
  REQUIRE_FALSE(dir.ok());
  CHECK(dir.error().message.find("/tmp") != std::string::npos);
}
