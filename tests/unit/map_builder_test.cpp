// MapBuilder and buildMap(): exact bytes of small maps worked out by hand
// from FORMAT.md §1, the errors, and the canonical layout's invariance under
// shuffling, renaming, inlining and sharing.
#include <doctest/doctest.h>

#include <gdmap/schema/hex.hpp>
#include <gdmap/writer/map_builder.hpp>
#include <gdmap/writer/type_encoder.hpp>
#include "writer/map/map_layout.hpp"

#include "tests/support/random_type.hpp"

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace gdmap {
namespace {

Bytes finishOk(MapBuilder& builder) {
  Expected<Bytes> map = builder.finish();
  REQUIRE_MESSAGE(map.ok(), (map.ok() ? "" : map.error().message));
  return *map;
}

Bytes bytes(std::initializer_list<std::uint8_t> b) { return Bytes(b); }

const Type kInt32 = Type::primitive(ElementType::I4);
const Type kString = Type::primitive(ElementType::String);
const Type kObject = Type::primitive(ElementType::Object);

}  // namespace

TEST_CASE("builder: an empty map is its header") {
  MapBuilder sorted;
  CHECK(toHex(finishOk(sorted)) == "00000080");
  MapBuilder unsorted(false);
  CHECK(toHex(finishOk(unsorted)) == "00000000");
}

TEST_CASE("builder: sorted map, directory by RVA, heap by first reference") {
  MapBuilder b;
  const Type a[] = {kInt32};
  const Type c[] = {kString, kObject};
  REQUIRE(b.add(0x2000, a).ok());
  REQUIRE(b.add(0x1000, c).ok());
  CHECK(b.size() == 2);
  // 2 entries, bit 31 set; 0x1000 -> its item at heap 0 (03 02 0e 1c:
  // L = 3, T = 2, string, object); 0x2000 -> heap 4 (02 01 08).
  CHECK(toHex(finishOk(b)) ==
        "02000080"
        "00100000"
        "00000000"
        "00200000"
        "04000000"
        "03020e1c"
        "020108");
}

TEST_CASE("builder: unsorted map keeps insertion order and clears bit 31") {
  MapBuilder b(false);
  const Type a[] = {kInt32};
  const Type c[] = {kString, kObject};
  REQUIRE(b.add(0x2000, a).ok());
  REQUIRE(b.add(0x1000, c).ok());
  CHECK(toHex(finishOk(b)) ==
        "02000000"
        "00200000"
        "00000000"
        "00100000"
        "03000000"
        "020108"
        "03020e1c");
}

TEST_CASE("builder: identical items are stored once, whatever API adds them") {
  MapBuilder b;
  const Type i4[] = {kInt32};
  const Type str[] = {kString};
  REQUIRE(b.add(0x30, i4).ok());
  REQUIRE(b.add(0x10, str).ok());
  const std::uint8_t int32Byte[] = {0x08};
  REQUIRE(b.addEncoded(0x20, 1, int32Byte).ok());
  REQUIRE(b.addRaw(0x40, bytes({0x02, 0x01, 0x08})).ok());
  // 0x10 string (02 01 0e) at 0; 0x20, 0x30, 0x40 all share 020108 at 3.
  CHECK(toHex(finishOk(b)) ==
        "04000080"
        "10000000"
        "00000000"
        "20000000"
        "03000000"
        "30000000"
        "03000000"
        "40000000"
        "03000000"
        "02010e"
        "020108");
}

TEST_CASE("builder: heap items follow the final directory's first references") {
  MapBuilder b;
  const std::uint8_t a[] = {0x08}, bb[] = {0x0e}, c[] = {0x1c};
  REQUIRE(b.addEncoded(0x300, 1, a).ok());
  REQUIRE(b.addEncoded(0x100, 1, bb).ok());
  REQUIRE(b.addEncoded(0x200, 1, a).ok());
  REQUIRE(b.addEncoded(0x050, 1, c).ok());
  // Sorted: 0x50 (object) first, then 0x100 (string), then 0x200/0x300
  // sharing int32.
  CHECK(toHex(finishOk(b)) ==
        "04000080"
        "50000000"
        "00000000"
        "00010000"
        "03000000"
        "00020000"
        "06000000"
        "00030000"
        "06000000"
        "02011c"
        "02010e"
        "020108");
}

TEST_CASE("builder: raw items are written verbatim, malformed or not") {
  MapBuilder b(false);
  REQUIRE(b.addRaw(0x5, bytes({0x05, 0xAA})).ok());  // claims 5 bytes, holds 1
  REQUIRE(b.addRaw(0x6, bytes({0xC0})).ok());        // a truncated prefix: one byte is enough
  REQUIRE(b.addRaw(0x7, bytes({0x05, 0xAA})).ok());  // the same bytes: shared
  CHECK(toHex(finishOk(b)) ==
        "03000000"
        "05000000"
        "00000000"
        "06000000"
        "02000000"
        "07000000"
        "00000000"
        "05aa"
        "c0");
}

TEST_CASE("builder: an empty raw item is refused, adding nothing (issue 7 defect 6)") {
  // Before, "raw": "" gave the dictionary the next item's offset: 0x6 read
  // as 0x7's int32 and check called the map valid and canonical.
  MapBuilder b(false);
  REQUIRE(b.addRaw(0x5, bytes({0x02, 0x01, 0x0e})).ok());
  const gdmap::Status empty = b.addRaw(0x6, bytes({}));
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.error().rule == "empty-raw-item");
  CHECK(empty.error().message.find("at least one byte") != std::string::npos);
  CHECK(b.size() == 1);
  REQUIRE(b.addRaw(0x7, bytes({0x02, 0x01, 0x08})).ok());
  CHECK(toHex(finishOk(b)) ==
        "02000000"
        "05000000"
        "00000000"
        "07000000"
        "03000000"
        "02010e"
        "020108");
}

TEST_CASE("builder: buildMap refuses an empty raw instantiation, naming it") {
  gdmap::MapDescription d;
  gdmap::InstantiationDescription typed, raw;
  typed.types = {kInt32};
  raw.raw = Bytes{};
  d.sorted = false;
  d.instantiations = {raw, typed};
  d.dictionaries = {{0x10, 0}, {0x20, 1}};
  const auto map = gdmap::buildMap(d);
  REQUIRE_FALSE(map.ok());
  CHECK(map.error().rule == "empty-raw-item");
  CHECK(map.error().path == "instantiations[0]");
  CHECK(map.error().index == 0u);
  CHECK(mapPartPath(mapPartOf(map.error())) == "instantiations[0]");
  CHECK(map.error().message.starts_with("a raw item needs at least one byte"));
}

TEST_CASE("builder: lengths and counts take their shortest compressed form") {
  MapBuilder b;
  // T = 1, 127 type bytes: L = 128 = 0x80, the first 2-byte length.
  const Bytes t127(127, 0x08);
  REQUIRE(b.addEncoded(0x1, 1, t127).ok());
  // T = 200 (80 c8), 200 type bytes: L = 202 (80 ca).
  const Bytes t200(200, 0x08);
  REQUIRE(b.addEncoded(0x2, 200, t200).ok());
  const Bytes map = finishOk(b);
  const std::string hex = toHex(map);
  CHECK(hex.substr(0, 40) ==
        "02000080"
        "01000000"
        "00000000"
        "02000000"
        "82000000");  // first item: 2 + 1 + 127 = 130 = 0x82 bytes
  CHECK(hex.substr(40, 6) == "808001");
  CHECK(hex.substr(40 + 2 * 130, 8) == "80ca80c8");
  CHECK(map.size() == 4 + 16 + 130 + 4 + 200);
}

TEST_CASE("builder: a shared RVA is an error at the repeat, naming the first") {
  for (bool sorted : {true, false}) {
    MapBuilder b(sorted);
    const std::uint8_t t[] = {0x08};
    REQUIRE(b.addEncoded(0x1000, 1, t).ok());  // 0
    REQUIRE(b.addEncoded(0x2000, 1, t).ok());  // 1
    REQUIRE(b.addEncoded(0x3000, 1, t).ok());  // 2
    REQUIRE(b.addEncoded(0x2000, 1, t).ok());  // 3: repeats 1
    REQUIRE(b.addEncoded(0x2000, 1, t).ok());  // 4
    REQUIRE(b.addEncoded(0x1000, 1, t).ok());  // 5: repeats 0, but later
    Expected<Bytes> map = b.finish();
    REQUIRE_FALSE(map.ok());
    CHECK(map.error().message == "duplicate RVA 0x00002000, also at dictionaries[1]");
    CHECK(map.error().path == "dictionaries[3]");
    CHECK(map.error().index == 3u);
    CHECK(map.error().rule == "duplicate-rva");
    // The caller names the other dictionary its own way.
    map = b.finish([](const MapPart& p) { return "entry #" + std::to_string(p.index); });
    REQUIRE_FALSE(map.ok());
    CHECK(map.error().message == "duplicate RVA 0x00002000, also at entry #1");
  }
}

TEST_CASE("builder: add() fails whole on a type that does not encode, naming it") {
  MapBuilder b;
  const Type bad[] = {kInt32, Type::genericInstance(false, Token{0x02000001}, {})};
  Status s = b.add(0x10, bad);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().path == "types[1]");
  CHECK(s.error().index == 1u);
  CHECK(s.error().message.find("types[1]") == std::string::npos);
  CHECK(b.size() == 0);
  CHECK_FALSE(b.add(0x10, std::span<const Type>{}).ok());
  CHECK_FALSE(b.addEncoded(0x10, 0, bytes({})).ok());
  CHECK(b.size() == 0);
  CHECK(toHex(finishOk(b)) == "00000080");
}

TEST_CASE("builder: the format's limits are errors, not wrapped numbers") {
  using namespace detail;
  CHECK(checkEntryCount(0x7FFFFFFF).ok());
  const Status tooMany = checkEntryCount(0x80000000);
  REQUIRE_FALSE(tooMany.ok());
  CHECK(tooMany.error().rule == "too-many-dictionaries");
  CHECK(checkHeapOffset(0xFFFFFFFF).ok());
  const Status tooLarge = checkHeapOffset(0x100000000);
  REQUIRE_FALSE(tooLarge.ok());
  CHECK(tooLarge.error().rule == "heap-too-large");
  Expected<std::uint32_t> l = itemLength(1, 0x1FFFFFFE);
  REQUIRE(l.ok());
  CHECK(*l == 0x1FFFFFFF);
  REQUIRE_FALSE(itemLength(1, 0x1FFFFFFF).ok());
  CHECK(itemLength(1, 0x1FFFFFFF).error().rule == "item-too-large");
  REQUIRE_FALSE(itemLength(0x20000000, 0).ok());
  CHECK(itemLength(0x20000000, 0).error().rule == "item-too-large");
  CHECK(*itemLength(0x1FFFFFFF, 0) == 4);  // T itself takes 4 bytes
  CHECK(*itemLength(128, 10) == 12);
  REQUIRE_FALSE(itemLength(0, 5).ok());
  CHECK(itemLength(0, 5).error().rule == "empty-types");
}

TEST_CASE("builder: interning by content survives table growth and hash tails") {
  detail::ItemStore store;
  std::vector<Bytes> items;
  for (std::uint32_t i = 0; i < 5000; ++i) {
    Bytes item(1 + i % 23);  // a raw item is at least one byte
    for (std::size_t k = 0; k < item.size(); ++k) item[k] = static_cast<std::uint8_t>(i >> (k % 3 * 8));
    items.push_back(item);
  }
  std::vector<std::uint32_t> first;
  for (const Bytes& item : items) first.push_back(store.internRaw(item));
  for (std::size_t i = 0; i < items.size(); ++i) {
    CHECK(store.internRaw(items[i]) == first[i]);
    const ByteSpan stored = store.item(first[i]);
    CHECK(Bytes(stored.begin(), stored.end()) == items[i]);
  }
  // Distinct items counted through their hex text: g++ 12 warns falsely
  // (-Wstringop-overread) on std::set<std::vector<std::uint8_t>> at -O2.
  std::set<std::string> distinct;
  for (const Bytes& item : items) distinct.insert(toHex(item));
  CHECK(store.size() == distinct.size());
}

// ---- buildMap ----

namespace {

MapDescription smallDescription() {
  MapDescription d;
  InstantiationDescription listOfInt;
  listOfInt.name = "ListOfInt";
  listOfInt.types = {Type::genericInstance(false, Token{0x01000012}, {kInt32})};
  InstantiationDescription inlineTypes;
  inlineTypes.types = {kString, Type::szArray(kInt32)};
  InstantiationDescription raw;
  raw.raw = bytes({0x02, 0x01, 0x08});
  d.instantiations = {listOfInt, inlineTypes, raw};
  d.dictionaries = {{0x1000, 0}, {0x1010, 1}, {0x1020, 2}};
  return d;
}

}  // namespace

TEST_CASE("builder: buildMap writes the issue's example") {
  // class 0x01000012<int32>: 15 12 49 01 08 (TypeRef row 0x12: 0x12<<2|1 =
  // 0x49); item 06 01 + those 5 bytes. string, int32[]: 04 02 0e 1d 08.
  Expected<Bytes> map = buildMap(smallDescription());
  REQUIRE(map.ok());
  CHECK(toHex(*map) ==
        "03000080"
        "00100000"
        "00000000"
        "10100000"
        "07000000"
        "20100000"
        "0c000000"
        "06011512490108"
        "04020e1d08"
        "020108");
}

TEST_CASE("builder: buildMap errors name the description's part in their fields") {
  MapDescription d = smallDescription();
  CHECK(instantiationPointer(d, 0) == "/instantiations/ListOfInt");
  CHECK(instantiationPointer(d, 1) == "/dictionaries/1/types");
  CHECK(instantiationPointer(d, 2) == "/dictionaries/2/raw");
  d.dictionaries.push_back({0x1010, 0});
  Expected<Bytes> map = buildMap(d);
  REQUIRE_FALSE(map.ok());
  CHECK(map.error().message == "duplicate RVA 0x00001010, also at dictionaries[1]");
  CHECK(map.error().path == "dictionaries[3]");
  CHECK(map.error().index == 3u);

  d = smallDescription();
  d.instantiations[0].types.push_back(Type::genericInstance(false, Token{0x02000001}, {}));
  map = buildMap(d);
  REQUIRE_FALSE(map.ok());
  CHECK(map.error().path == "instantiations[0].types[1]");
  CHECK(map.error().index == 0u);
  const MapPart type = mapPartOf(map.error());
  CHECK((type.kind == MapPart::Kind::Type && type.index == 0 && type.type == 1));
  CHECK(mapPartPath(type) == map.error().path);
  CHECK(map.error().message.starts_with("instantiations") == false);

  d = smallDescription();
  d.instantiations[1].types.insert(d.instantiations[1].types.begin(),
                                   Type::genericInstance(false, Token{0x02000001}, {}));
  map = buildMap(d);
  REQUIRE_FALSE(map.ok());
  CHECK(map.error().path == "instantiations[1].types[0]");
  CHECK(map.error().index == 1u);

  d = smallDescription();
  d.instantiations[1].types.clear();
  map = buildMap(d);
  REQUIRE_FALSE(map.ok());
  CHECK(map.error().path == "instantiations[1]");
  CHECK(map.error().index == 1u);
  CHECK(map.error().rule == "empty-types");

  // An unnamed instantiation no dictionary uses is named by its index.
  d = smallDescription();
  InstantiationDescription unused;
  unused.types = {Type::genericInstance(false, Token{0x02000001}, {})};
  d.instantiations.push_back(unused);
  map = buildMap(d);
  REQUIRE_FALSE(map.ok());
  CHECK(map.error().path == "instantiations[3].types[0]");
  CHECK(map.error().index == 3u);

  d = smallDescription();
  d.dictionaries[1].instantiation = 7;
  map = buildMap(d);
  REQUIRE_FALSE(map.ok());
  CHECK(map.error().message == "instantiation index 7 is out of range");
  CHECK(map.error().path == "dictionaries[1]");
  CHECK(map.error().index == 1u);

  d = smallDescription();
  d.layout.offsets = {{9, 0}};
  map = buildMap(d);
  REQUIRE_FALSE(map.ok());
  CHECK(map.error().path == "layout.offsets[0]");
  CHECK(map.error().index == 0u);
  CHECK(map.error().rule == "undefined-instantiation");
}

TEST_CASE("builder: a MapPart's path reads back as the part") {
  using Kind = MapPart::Kind;
  for (const MapPart part : {MapPart{Kind::Dictionary, 12}, MapPart{Kind::Instantiation, 3}, MapPart{Kind::Type, 4, 10},
                             MapPart{Kind::Offset, 2}, MapPart{Kind::Fill, 7}, MapPart{Kind::Truncate}}) {
    Error e{0, "m", "r"};
    e.path = mapPartPath(part);
    if (part.kind != Kind::Truncate) e.index = part.index;
    const MapPart back = mapPartOf(e);
    CHECK(back.kind == part.kind);
    CHECK(back.index == part.index);
    CHECK(back.type == part.type);
  }
  CHECK(mapPartPath({Kind::Type, 4, 10}) == "instantiations[4].types[10]");
  CHECK(mapPartPath({Kind::Fill, 7}) == "layout.fill[7]");
  CHECK(mapPartPath({Kind::Truncate}) == "layout.truncate");
  CHECK(mapPartPath({Kind::Map}).empty());
  CHECK(mapPartOf(Error{0, "too many", "too-many-dictionaries"}).kind == Kind::Map);
}

namespace {

// A random description: distinct RVAs, a pool of instantiations (some
// reused by several dictionaries, some identical under different names).
MapDescription randomDescription(std::uint64_t seed, bool sorted) {
  std::mt19937_64 rng(seed);
  testing::RandomTypeGenerator types(seed ^ 0x5eed);
  MapDescription d;
  d.sorted = sorted;
  const std::size_t pool = 1 + rng() % 12;
  for (std::size_t j = 0; j < pool; ++j) {
    InstantiationDescription inst;
    inst.name.push_back('n');  // not "n" + ...: g++ 12 warns falsely (-Wrestrict) at -O2
    inst.name += std::to_string(j);
    if (j > 0 && rng() % 4 == 0) {
      inst.types = d.instantiations[rng() % j].types;  // same content, other name
      if (inst.types.empty()) inst.types = {kInt32};
    } else {
      const std::size_t count = 1 + rng() % 3;
      for (std::size_t k = 0; k < count; ++k) inst.types.push_back(types.next());
    }
    d.instantiations.push_back(std::move(inst));
  }
  std::set<std::uint32_t> rvas;
  const std::size_t n = rng() % 40;
  while (rvas.size() < n) rvas.insert(static_cast<std::uint32_t>(rng() % 4 == 0 ? rng() : rng() % 0x400));
  std::vector<std::uint32_t> order(rvas.begin(), rvas.end());
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
  for (std::uint32_t rva : order) d.dictionaries.push_back({rva, static_cast<std::size_t>(rng() % pool)});
  return d;
}

MapDescription shuffled(MapDescription d, std::mt19937_64& rng) {
  for (std::size_t i = d.dictionaries.size(); i > 1; --i) std::swap(d.dictionaries[i - 1], d.dictionaries[rng() % i]);
  return d;
}

// Instantiations renamed and stored in another order.
MapDescription renamed(MapDescription d, std::mt19937_64& rng) {
  const std::size_t m = d.instantiations.size();
  std::vector<std::size_t> perm(m);
  for (std::size_t j = 0; j < m; ++j) perm[j] = j;
  for (std::size_t i = m; i > 1; --i) std::swap(perm[i - 1], perm[rng() % i]);
  std::vector<InstantiationDescription> moved(m);
  for (std::size_t j = 0; j < m; ++j) {
    moved[perm[j]] = d.instantiations[j];
    moved[perm[j]].name = "renamed" + std::to_string(rng() % 1000) + "_" + std::to_string(j);
  }
  d.instantiations = std::move(moved);
  for (DictionaryDescription& dict : d.dictionaries) dict.instantiation = perm[dict.instantiation];
  return d;
}

// Every dictionary with its own unnamed copy; some as raw encoded bytes.
MapDescription inlined(const MapDescription& d, std::mt19937_64& rng) {
  MapDescription out;
  out.sorted = d.sorted;
  for (const DictionaryDescription& dict : d.dictionaries) {
    InstantiationDescription inst = d.instantiations[dict.instantiation];
    inst.name.clear();
    if (rng() % 3 == 0) {
      Bytes typeBytes;
      for (const Type& t : inst.types) REQUIRE(encodeType(t, typeBytes).ok());
      MapBuilder one;
      REQUIRE(one.addEncoded(0, static_cast<std::uint32_t>(inst.types.size()), typeBytes).ok());
      const Bytes single = *one.finish();
      inst.raw = Bytes(single.begin() + 12, single.end());  // the one item after header + entry
      inst.types.clear();
    }
    out.dictionaries.push_back({dict.rva, out.instantiations.size()});
    out.instantiations.push_back(std::move(inst));
  }
  return out;
}

// Identical contents merged into one named instantiation.
MapDescription shared(const MapDescription& d) {
  MapDescription out;
  out.sorted = d.sorted;
  std::vector<std::size_t> canonical(d.instantiations.size());
  for (std::size_t j = 0; j < d.instantiations.size(); ++j) {
    canonical[j] = out.instantiations.size();
    for (std::size_t k = 0; k < out.instantiations.size(); ++k)
      if (out.instantiations[k].types == d.instantiations[j].types &&
          out.instantiations[k].raw == d.instantiations[j].raw)
        canonical[j] = k;
    if (canonical[j] == out.instantiations.size()) {
      out.instantiations.push_back(d.instantiations[j]);
      out.instantiations.back().name = "s" + std::to_string(j);
    }
  }
  for (const DictionaryDescription& dict : d.dictionaries)
    out.dictionaries.push_back({dict.rva, canonical[dict.instantiation]});
  return out;
}

}  // namespace

TEST_CASE("builder: output depends only on the (RVA, item) pairs") {
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    CAPTURE(seed);
    std::mt19937_64 rng(seed * 7919);
    const MapDescription d = randomDescription(seed, true);
    Expected<Bytes> base = buildMap(d);
    REQUIRE_MESSAGE(base.ok(), (base.ok() ? "" : base.error().message));
    CHECK(*buildMap(shuffled(d, rng)) == *base);
    CHECK(*buildMap(renamed(d, rng)) == *base);
    CHECK(*buildMap(inlined(d, rng)) == *base);
    CHECK(*buildMap(shared(d)) == *base);
    CHECK(*buildMap(shared(inlined(shuffled(renamed(d, rng), rng), rng))) == *base);

    // Unsorted: the order is part of the content, names and sharing are not.
    MapDescription u = d;
    u.sorted = false;
    Expected<Bytes> unsorted = buildMap(u);
    REQUIRE(unsorted.ok());
    CHECK(*buildMap(renamed(u, rng)) == *unsorted);
    CHECK(*buildMap(inlined(u, rng)) == *unsorted);
    CHECK(*buildMap(shared(u)) == *unsorted);
    CHECK((*unsorted)[3] == ((*base)[3] & 0x7F));
  }
}

TEST_CASE("builder: MapBuilder and buildMap agree") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const MapDescription d = randomDescription(seed, seed % 2 == 0);
    MapBuilder b(d.sorted);
    for (const DictionaryDescription& dict : d.dictionaries)
      REQUIRE(b.add(dict.rva, d.instantiations[dict.instantiation].types).ok());
    CHECK(finishOk(b) == *buildMap(d));
  }
}

TEST_CASE("builder: staged items, interned ids, late items and reads in between agree with buildMap") {
  // addEncoded() stages its item a few dictionaries; setItem(), itemAt(),
  // entries() and the interning calls come between, in every order.
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const MapDescription d = randomDescription(seed, seed % 2 == 0);
    std::mt19937_64 random(seed);
    MapBuilder b(d.sorted);
    std::vector<std::size_t> later;
    const auto giveItem = [&](std::size_t k) {
      const std::vector<Type>& lateTypes = d.instantiations[d.dictionaries[k].instantiation].types;
      Bytes lateBytes;
      for (const Type& t : lateTypes) REQUIRE(encodeType(t, lateBytes).ok());
      const Expected<MapBuilder::ItemId> id = b.internEncoded(static_cast<std::uint32_t>(lateTypes.size()), lateBytes);
      REQUIRE(id.ok());
      b.setItem(k, *id);
    };
    for (std::size_t i = 0; i < d.dictionaries.size(); ++i) {
      const DictionaryDescription& dict = d.dictionaries[i];
      const std::vector<Type>& types = d.instantiations[dict.instantiation].types;
      Bytes encoded;
      for (const Type& t : types) REQUIRE(encodeType(t, encoded).ok());
      const auto count = static_cast<std::uint32_t>(types.size());
      switch (random() % 4) {
        case 0: REQUIRE(b.addEncoded(dict.rva, count, encoded).ok()); break;
        case 1: {
          const Expected<MapBuilder::ItemId> id = b.internEncoded(count, encoded);
          REQUIRE(id.ok());
          b.addItem(dict.rva, *id);
          break;
        }
        case 2:
          b.addItem(dict.rva, MapBuilder::kItemLater);
          later.push_back(i);
          break;
        default:
          REQUIRE(b.addEncoded(dict.rva, count, encoded).ok());
          // A staged item read back at once: its prefix, then the types.
          REQUIRE(b.itemAt(i).size() > encoded.size());
          CHECK(std::ranges::equal(b.itemAt(i).last(encoded.size()), encoded));
          break;
      }
      // Now and then a late item is given, while others are staged.
      if (!later.empty() && random() % 3 == 0) {
        giveItem(later.back());
        later.pop_back();
      }
    }
    for (std::size_t k : later) giveItem(k);
    // Every entry has its item, and ids are below the count.
    for (const MapBuilder::Entry& e : b.entries()) CHECK(e.item < b.itemCount());
    CHECK(finishOk(b) == *buildMap(d));
  }
}

}  // namespace gdmap
