// The IL-to-native map's binary forms both ways: FORMAT.md §3.3's vectors
// (nibble varints, the worked example in every form), the writer's errors,
// and seeded random round trips (fixed seed: the same bounds every run).
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/schema/bounds_to_api.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/il_map.hpp>
#include <gdmap/writer/bounds_encoder.hpp>

#include <gdmap/internal/nibble_cursor.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

using gdmap::Bytes;
using gdmap::ByteSpan;
using gdmap::il::ApiEntry;
using gdmap::il::Bound;
using gdmap::il::BoundsForm;
using gdmap::il::kEpilog;
using gdmap::il::kNoMapping;
using gdmap::il::kProlog;
namespace source = gdmap::il::source;

namespace {

Bytes hex(const char* text) { return *gdmap::parseHex(text); }

const std::vector<Bound>& workedExample() {
  static const std::vector<Bound> bounds = {
      {0, kProlog, source::kStackEmpty},   {4, 0x0, source::kStackEmpty},  {10, 0x5, 0},
      {12, 0x5, source::kCallInstruction}, {17, 0x9, source::kStackEmpty}, {30, kEpilog, 0}};
  return bounds;
}

Bytes encodeOk(const std::vector<Bound>& bounds, BoundsForm form) {
  auto bytes = gdmap::il::encodeCompressedBounds(bounds, form);
  REQUIRE_MESSAGE(bytes.ok(), bytes.error().message);
  return *bytes;
}

std::vector<Bound> decodeOk(ByteSpan blob, BoundsForm form) {
  const auto opened = gdmap::il::openBounds(blob, form);
  REQUIRE_MESSAGE(opened, opened.error().message);
  return opened->toVector();
}

// mt19937's output is fixed by the standard (distributions are not), so
// values come from it directly.
struct Random {
  std::mt19937 engine{20261123u};
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(engine() % n); }
  std::uint32_t any() { return static_cast<std::uint32_t>(engine()); }
};

std::vector<Bound> randomBounds(Random& r, std::uint32_t storable) {
  const std::uint32_t n = 1 + r.below(40);
  std::vector<Bound> bounds;
  std::uint32_t native = r.below(3) == 0 ? 0 : r.below(100);
  for (std::uint32_t i = 0; i < n; ++i) {
    // Small deltas mostly, now and then a huge one (but no u32 overflow).
    const std::uint32_t room = 0xFFFFFFFFu - native;
    std::uint32_t delta = r.below(4) == 0 ? 0 : r.below(64);
    if (r.below(20) == 0) delta = r.any() % (room / 2 + 1);
    if (delta > room) delta = room;
    native += delta;
    std::uint32_t il;
    switch (r.below(8)) {
      case 0: il = kProlog; break;
      case 1: il = kEpilog; break;
      case 2: il = kNoMapping; break;
      case 3: il = r.any(); break;
      default: il = r.below(2000); break;
    }
    bounds.push_back(Bound{native, il, r.any() & storable});
  }
  return bounds;
}

}  // namespace

TEST_CASE("il codec: nibble varint vectors of FORMAT.md") {
  const struct {
    std::uint32_t value;
    const char* bytes;
  } vectors[] = {{8, "09"},    {9, "19"},       {0x3F, "7f"},
                 {64, "8900"}, {0x1FF, "ff07"}, {0x200, "8908"},
                 {0, "00"},    {7, "07"},       {0xFFFFFFFF, "fbffffffff07"}};
  for (const auto& v : vectors) {
    CAPTURE(v.value);
    CHECK(gdmap::toHex(gdmap::il::encodeNibbleU32(v.value)) == gdmap::toHex(hex(v.bytes)));
    const Bytes bytes = hex(v.bytes);
    gdmap::NibbleCursor r(bytes);
    const auto decoded = r.varint();
    CHECK(r.ok());
    CHECK(decoded.value == v.value);
    CHECK(decoded.minimal);
  }
  // A leading zero chunk decodes but is not minimal: 8 then 1 is 1.
  const Bytes padded = hex("18");
  gdmap::NibbleCursor r(padded);
  const auto v = r.varint();
  CHECK(v.value == 1);
  CHECK_FALSE(v.minimal);
}

TEST_CASE("il codec: the worked example in the nibble form") {
  const Bytes expected = hex("06 21 34 62 09 20 09 0a 95 24 59 00");
  CHECK(gdmap::toHex(encodeOk(workedExample(), BoundsForm::Nibble)) == gdmap::toHex(expected));
  CHECK(decodeOk(expected, BoundsForm::Nibble) == workedExample());
  CHECK(gdmap::il::checkBoundsCanonical(expected, BoundsForm::Nibble).canonical);
}

TEST_CASE("il codec: the worked example in the packed2 form") {
  const Bytes expected = hex("36 03 42 48 83 61 82 16 d3 00");
  CHECK(gdmap::toHex(encodeOk(workedExample(), BoundsForm::Packed2)) == gdmap::toHex(expected));
  const auto opened = gdmap::il::openBounds(expected, BoundsForm::Packed2);
  REQUIRE(opened);
  CHECK(opened->count() == 6);
  CHECK(opened->nativeBits() == 4);
  CHECK(opened->ilBits() == 4);
  CHECK(opened->toVector() == workedExample());
  CHECK(gdmap::il::checkBoundsCanonical(expected, BoundsForm::Packed2).canonical);
  // The cursor, by hand: one bound per next(), then false for good.
  auto cursor = opened->cursor();
  Bound b;
  std::size_t n = 0;
  while (cursor.next(b)) {
    REQUIRE(n < workedExample().size());
    CHECK(b == workedExample()[n++]);
  }
  CHECK(n == 6);
  CHECK_FALSE(cursor.next(b));
}

TEST_CASE("il codec: the worked example in the packed3 form") {
  const Bytes expected = hex("36 03 82 10 0d 0c 23 a8 62 34 00");
  CHECK(gdmap::toHex(encodeOk(workedExample(), BoundsForm::Packed3)) == gdmap::toHex(expected));
  CHECK(decodeOk(expected, BoundsForm::Packed3) == workedExample());
}

TEST_CASE("il codec: the worked example in the api form") {
  const auto bytes = gdmap::il::encodeBounds(workedExample(), BoundsForm::Api, 40);
  REQUIRE(bytes.ok());
  const Bytes expected =
      hex("feffffff 00000000 04000000"
          "00000000 04000000 0a000000"
          "05000000 0a000000 11000000"
          "09000000 11000000 1e000000"
          "fdffffff 1e000000 28000000");
  CHECK(gdmap::toHex(*bytes) == gdmap::toHex(expected));
  const auto api = gdmap::il::openApiMap(expected);
  REQUIRE(api);
  CHECK(api->count() == 5);
  CHECK(api->entry(4) == ApiEntry{kEpilog, 30, 40});
  CHECK(api->toVector() == gdmap::il::boundsToApi(workedExample(), 40));
  CHECK(gdmap::il::checkBoundsCanonical(expected, BoundsForm::Api).canonical);
}

TEST_CASE("il codec: the api form may be empty") {
  CHECK(gdmap::il::encodeApiEntries({}).empty());
  const auto api = gdmap::il::openApiMap({});
  REQUIRE(api);
  CHECK(api->count() == 0);
  const std::vector<Bound> onlyCall = {{0, 0, source::kCallInstruction}};
  const auto bytes = gdmap::il::encodeBounds(onlyCall, BoundsForm::Api, 8);
  REQUIRE(bytes.ok());
  CHECK(bytes->empty());
}

TEST_CASE("il writer: a flag the form cannot store is an error naming bound and flag") {
  const std::vector<Bound> seqPoint = {{0, 1, 0}, {2, 3, source::kSequencePoint | source::kStackEmpty}};
  auto packed = gdmap::il::encodeCompressedBounds(seqPoint, BoundsForm::Packed2);
  REQUIRE_FALSE(packed.ok());
  CHECK(packed.error().rule == "il-flag-not-storable");
  CHECK(packed.error().index == 1u);
  CHECK(packed.error().path == "bounds[1].source");
  CHECK(packed.error().message.find("sequence_point") != std::string::npos);

  const std::vector<Bound> async = {{0, 1, source::kAsync}};
  CHECK(gdmap::il::encodeCompressedBounds(async, BoundsForm::Packed3).ok());
  const auto packed2 = gdmap::il::encodeCompressedBounds(async, BoundsForm::Packed2);
  REQUIRE_FALSE(packed2.ok());
  CHECK(packed2.error().message.find("async") != std::string::npos);
  const auto nibble = gdmap::il::encodeCompressedBounds(async, BoundsForm::Nibble);
  REQUIRE_FALSE(nibble.ok());
  CHECK(nibble.error().rule == "il-flag-not-storable");

  const std::vector<Bound> callSite = {{0, 1, source::kCallSite}};
  CHECK(gdmap::il::encodeCompressedBounds(callSite, BoundsForm::Nibble).ok());
  CHECK_FALSE(gdmap::il::encodeCompressedBounds(callSite, BoundsForm::Packed3).ok());
}

TEST_CASE("il writer: bounds must ascend, exist, and the api form needs a code size") {
  const std::vector<Bound> descending = {{0, 1, 0}, {8, 2, 0}, {4, 3, 0}};
  for (BoundsForm form : {BoundsForm::Nibble, BoundsForm::Packed2, BoundsForm::Packed3}) {
    const auto bytes = gdmap::il::encodeCompressedBounds(descending, form);
    REQUIRE_FALSE(bytes.ok());
    CHECK(bytes.error().rule == "il-bounds-not-ascending");
    CHECK(bytes.error().index == 2u);
    CHECK(bytes.error().path == "bounds[2].native");
    CHECK(bytes.error().message.starts_with("native offset 4 is below bounds[1]'s 8"));

    const auto empty = gdmap::il::encodeCompressedBounds({}, form);
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.error().rule == "il-empty-bounds");
  }
  const auto api = gdmap::il::encodeBounds(descending, BoundsForm::Api, 20);
  REQUIRE_FALSE(api.ok());
  CHECK(api.error().rule == "il-bounds-not-ascending");

  const auto noSize = gdmap::il::encodeBounds(workedExample(), BoundsForm::Api);
  REQUIRE_FALSE(noSize.ok());
  CHECK(noSize.error().rule == "il-code-size-required");
  CHECK(gdmap::il::encodeCompressedBounds(workedExample(), BoundsForm::Api).error().rule == "il-code-size-required");
}

TEST_CASE("il codec: seeded random round trips in every form") {
  Random r;
  for (BoundsForm form : {BoundsForm::Nibble, BoundsForm::Packed2, BoundsForm::Packed3}) {
    CAPTURE(gdmap::il::formName(form));
    for (int round = 0; round < 300; ++round) {
      const std::vector<Bound> bounds = randomBounds(r, gdmap::il::storableSource(form));
      const Bytes bytes = encodeOk(bounds, form);
      const auto opened = gdmap::il::openBounds(bytes, form);
      REQUIRE_MESSAGE(opened, opened.error().message);
      REQUIRE(opened->toVector() == bounds);
      const auto canonical = gdmap::il::checkBoundsCanonical(bytes, form);
      REQUIRE(canonical.canonical);
      REQUIRE(encodeOk(opened->toVector(), form) == bytes);
    }
  }
  // The api form: random entries (any order, overlaps, specials) verbatim.
  for (int round = 0; round < 100; ++round) {
    std::vector<ApiEntry> entries(r.below(30));
    for (ApiEntry& e : entries) e = ApiEntry{r.below(3) == 0 ? kProlog - r.below(2) : r.any(), r.any(), r.any()};
    const Bytes bytes = gdmap::il::encodeApiEntries(entries);
    REQUIRE(bytes.size() == entries.size() * 12);
    const auto api = gdmap::il::openApiMap(bytes);
    REQUIRE(api);
    REQUIRE(api->toVector() == entries);
  }
}

TEST_CASE("il codec: a million bounds round trip in every compressed form") {
  std::vector<Bound> bounds;
  bounds.reserve(1000000);
  for (std::uint32_t i = 0; i < 1000000; ++i)
    bounds.push_back(Bound{i * 3, i % 4096, (i % 3 == 0) ? source::kStackEmpty : source::kCallInstruction});
  for (BoundsForm form : {BoundsForm::Nibble, BoundsForm::Packed2, BoundsForm::Packed3}) {
    const Bytes bytes = encodeOk(bounds, form);
    const auto opened = gdmap::il::openBounds(bytes, form);
    REQUIRE(opened);
    CHECK(opened->count() == 1000000);
    CHECK(opened->toVector() == bounds);
  }
}
