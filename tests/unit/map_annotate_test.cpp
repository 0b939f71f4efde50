// annotateMap(): the ranges tile every map exactly (valid, broken, random,
// mutated, truncated, empty), name the fields docs/format.md names, and
// carry the checker's rule where a byte breaks one.
#include <gdmap/reader/map_annotate.hpp>
#include <gdmap/reader/map_check.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/writer/map_builder.hpp>

#include "tests/support/map_bytes.hpp"

#include "tests/support/type_pool.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

using gdmap::AnnotatedRange;
using gdmap::Bytes;
using gdmap::RangeStatus;
using gdmap::test::MapBytes;

namespace {

Bytes readExample(const std::string& relative) {
  std::ifstream in(std::string(GDMAP_SOURCE_DIR) + "/" + relative, std::ios::binary);
  REQUIRE(in);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Contiguous, in order, none empty, none unnamed, exactly [0, size).
void requireTiling(const std::vector<AnnotatedRange>& ranges, std::size_t size) {
  std::size_t at = 0;
  for (const AnnotatedRange& r : ranges) {
    REQUIRE(r.offset == at);
    REQUIRE(r.length > 0);
    REQUIRE_FALSE(r.path.empty());
    at += r.length;
  }
  REQUIRE(at == size);
}

const AnnotatedRange& rangeAt(const std::vector<AnnotatedRange>& ranges, std::size_t offset) {
  for (const AnnotatedRange& r : ranges)
    if (offset >= r.offset && offset < r.offset + r.length) return r;
  FAIL("no range holds byte " << offset);
  return ranges.front();
}

using gdmap::testing::below;
using gdmap::testing::typePool;

Bytes randomMap(std::mt19937_64& rng) {
  gdmap::MapBuilder builder(below(rng, 3) != 0);
  const std::size_t n = below(rng, 8);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t count = 1 + static_cast<std::uint32_t>(below(rng, 3));
    Bytes types;
    for (std::uint32_t k = 0; k < count; ++k) {
      const Bytes& t = typePool()[below(rng, typePool().size())];
      types.insert(types.end(), t.begin(), t.end());
    }
    REQUIRE(builder.addEncoded(0x1000 + 0x10 * static_cast<std::uint32_t>(i), count, types).ok());
  }
  auto bytes = builder.finish();
  REQUIRE(bytes.ok());
  return std::move(bytes).value();
}

}  // namespace

TEST_CASE("annotate: basic.gdmap, field by field as docs/format.md annotates it") {
  const Bytes map = readExample("examples/maps/basic.gdmap");
  const auto a = gdmap::annotateMap(map);
  CHECK(a.check.valid);
  requireTiling(a.ranges, map.size());
  struct Expected {
    std::size_t offset, length;
    const char* path;
    const char* meaning;
  };
  const std::vector<Expected> expected = {
      {0x00, 4, "header.count", "count 3, sorted (bit 31 set)"},
      {0x04, 4, "directory[0].rva", "RVA 0x00001000"},
      {0x08, 4, "directory[0].offset", "-> heap@0x0"},
      {0x0c, 4, "directory[1].rva", "RVA 0x00001010"},
      {0x10, 4, "directory[1].offset", "-> heap@0x7"},
      {0x14, 4, "directory[2].rva", "RVA 0x00001020"},
      {0x18, 4, "directory[2].offset", "-> heap@0x0 (shared with directory[0])"},
      {0x1c, 1, "heap@0x0.length", "length 6"},
      {0x1d, 1, "heap@0x0.count", "1 type"},
      {0x1e, 5, "heap@0x0.type[0]", "class 0x01000012<int32>"},
      {0x23, 1, "heap@0x7.length", "length 4"},
      {0x24, 1, "heap@0x7.count", "2 types"},
      {0x25, 1, "heap@0x7.type[0]", "string"},
      {0x26, 2, "heap@0x7.type[1]", "int32[]"},
  };
  REQUIRE(a.ranges.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(a.ranges[i].offset == expected[i].offset);
    CHECK(a.ranges[i].length == expected[i].length);
    CHECK(a.ranges[i].path == expected[i].path);
    CHECK(a.ranges[i].meaning == expected[i].meaning);
    CHECK(a.ranges[i].status == RangeStatus::Ok);
    CHECK(a.ranges[i].rule.empty());
  }
}

TEST_CASE("annotate: malformed-raw.gdmap marks the zero count and the truncated type with their rules") {
  const Bytes map = readExample("examples/maps/malformed-raw.gdmap");
  const auto a = gdmap::annotateMap(map);
  CHECK_FALSE(a.check.valid);
  requireTiling(a.ranges, map.size());
  const AnnotatedRange& count = rangeAt(a.ranges, 0x20);
  CHECK(count.path == "heap@0x3.count");
  CHECK(count.status == RangeStatus::Error);
  CHECK(count.rule == "zero-type-count");
  // The decoder ran out of bytes at the item's end (0x25, the file's end):
  // the type it was reading is marked.
  const AnnotatedRange& type = rangeAt(a.ranges, 0x23);
  CHECK(type.path == "heap@0x5.type[0]");
  CHECK(type.length == 2);
  CHECK(type.status == RangeStatus::Error);
  CHECK(type.rule == "truncated-signature");
  CHECK(rangeAt(a.ranges, 0x1e).status == RangeStatus::Ok);
}

TEST_CASE("annotate: an empty file has no range, a 3-byte file one cut-short header") {
  const auto empty = gdmap::annotateMap({});
  CHECK(empty.ranges.empty());
  REQUIRE_FALSE(empty.check.diagnostics.empty());
  CHECK(empty.check.diagnostics.front().rule == "stream-too-short");

  const Bytes three = {0x01, 0x00, 0x00};
  const auto a = gdmap::annotateMap(three);
  requireTiling(a.ranges, 3);
  REQUIRE(a.ranges.size() == 1);
  CHECK(a.ranges[0].path == "header.count");
  CHECK(a.ranges[0].status == RangeStatus::Error);
  CHECK(a.ranges[0].rule == gdmap::rules::kStreamTooShort);
}

TEST_CASE("annotate: a hostile count is clamped to the entries that fit") {
  // 2^31 - 1 entries claimed, one whole entry and 3 bytes of the next there.
  Bytes map = {0xFF, 0xFF, 0xFF, 0x7F, 0x00, 0x10, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0xAA, 0xBB, 0xCC};
  const auto a = gdmap::annotateMap(map);
  requireTiling(a.ranges, map.size());
  REQUIRE(a.ranges.size() == 4);
  CHECK(a.ranges[0].rule == "directory-truncated");
  CHECK(a.ranges[0].status == RangeStatus::Error);
  CHECK(a.ranges[1].path == "directory[0].rva");
  CHECK(a.ranges[2].path == "directory[0].offset");
  CHECK(a.ranges[3].path == "directory[1]");
  CHECK(a.ranges[3].length == 3);
  CHECK(a.ranges[3].rule == "directory-truncated");
}

TEST_CASE("annotate: a truncated map marks the item cut short") {
  Bytes map = readExample("examples/maps/basic.gdmap");
  map.resize(map.size() - 1);  // heap@0x7's type[1] loses its last byte
  const auto a = gdmap::annotateMap(map);
  requireTiling(a.ranges, map.size());
  const AnnotatedRange& length = rangeAt(a.ranges, 0x23);
  CHECK(length.path == "heap@0x7.length");
  CHECK(length.meaning == "length 4, 1 byte past the heap's end");
  CHECK(length.status == RangeStatus::Error);
  CHECK(length.rule == "item-length-outside-heap");
  CHECK(a.ranges.back().path == "heap@0x7.type[1]");
}

TEST_CASE("annotate: unreachable bytes, overlapping items and offsets outside the heap") {
  MapBytes m;
  m.heap({0xAB});                                      // heap@0x0: no entry reaches it
  const std::uint32_t item = m.item(1, {0x1D, 0x08});  // heap@0x1: int32[]
  m.entry(0x10, item);
  m.entry(0x20, item + 2);  // heap@0x3: inside heap@0x1 (bytes 1d 08: length 0x1d, runs out)
  m.entry(0x30, 0x40);      // outside the heap
  const Bytes map = m.bytes();
  const auto a = gdmap::annotateMap(map);
  requireTiling(a.ranges, map.size());
  const std::size_t heap = m.heapStart();
  const AnnotatedRange& gap = rangeAt(a.ranges, heap);
  CHECK(gap.path == "heap@0x0");
  CHECK(gap.status == RangeStatus::Unreachable);
  CHECK(gap.rule == "unreachable-heap-bytes");
  CHECK(rangeAt(a.ranges, heap + 3).path == "heap@0x1.type[0]");
  const AnnotatedRange& outside = rangeAt(a.ranges, 4 + 8 * 2 + 4);
  CHECK(outside.path == "directory[2].offset");
  CHECK(outside.status == RangeStatus::Error);
  CHECK(outside.rule == "offset-outside-heap");
}

TEST_CASE("annotate: overlapping items keep the first's names and the later one's new bytes") {
  MapBytes m;
  // heap@0x0: length 3, 1 type: class 0x01000012 (12 49), then a stray 00.
  m.heap({0x03, 0x01, 0x12, 0x49, 0x00});
  m.entry(0x10, 0);
  m.entry(0x20, 1);  // heap@0x1: length 1, count 0x12: inside heap@0x0
  const Bytes map = m.bytes();
  const auto a = gdmap::annotateMap(map);
  requireTiling(a.ranges, map.size());
  const std::size_t heap = m.heapStart();
  CHECK(rangeAt(a.ranges, heap + 1).path == "heap@0x0.count");
  CHECK(rangeAt(a.ranges, heap + 2).path == "heap@0x0.type[0]");
  // heap@0x1 ends at heap@0x3 (its length 1): nothing new; the last byte
  // belongs to nothing.
  CHECK(rangeAt(a.ranges, heap + 4).status == RangeStatus::Unreachable);
}

TEST_CASE("annotate: ranges tile random and mutated maps exactly (seeded)") {
  std::mt19937_64 rng(0x6864756d70ULL);
  std::size_t invalid = 0;
  for (int round = 0; round < 3000; ++round) {
    CAPTURE(round);
    Bytes map = randomMap(rng);
    if (round % 3 != 0) gdmap::testing::mutateBytes(rng, map);
    const auto a = gdmap::annotateMap(map);
    requireTiling(a.ranges, map.size());
    if (!a.check.valid) {
      ++invalid;
      // Every error with a place in the file marks a range.
      bool marked = false;
      for (const AnnotatedRange& r : a.ranges) marked = marked || r.status == RangeStatus::Error;
      CHECK((marked || map.empty()));
    }
  }
  CHECK(invalid > 500);  // the mutations did produce broken maps to tile
}

TEST_CASE("annotate: items that each overlap the one before are decoded within a budget") {
  // 4000 entries at heap offsets 0..3999 of 4000 bytes 0x40: each item's
  // length 64 reaches one byte past the one before, so decoding each would
  // re-read 64 bytes: 256000 in all. Past the budget (2 x heap + 4096) the
  // rest is named without decoding.
  MapBytes m(false);
  for (std::uint32_t i = 0; i < 4000; ++i) {
    m.heap({0x40});
    m.entry(0x1000 + i, i);
  }
  const Bytes map = m.bytes();
  const auto a = gdmap::annotateMap(map);
  requireTiling(a.ranges, map.size());
  bool undecoded = false;
  for (const AnnotatedRange& r : a.ranges)
    undecoded = undecoded || r.meaning.find("overlapping the one before (not decoded)") != std::string::npos;
  CHECK(undecoded);
  CHECK(a.ranges.back().offset + a.ranges.back().length == map.size());
}
