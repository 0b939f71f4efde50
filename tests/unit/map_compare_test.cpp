// compareMaps() and mapFieldPath(): each kind of field, worked out by hand on
// the map of the example (FORMAT.md §1):
//   0  03 00 00 80                 header.count: 3, sorted
//   4  00 10 00 00 | 00 00 00 00   directory[0]: 0x1000 -> heap 0x0
//  12  10 10 00 00 | 07 00 00 00   directory[1]: 0x1010 -> heap 0x7
//  20  20 10 00 00 | 0c 00 00 00   directory[2]: 0x1020 -> heap 0xc
//  28  06 01 15 12 49 01 08        heap@0x0: class 0x01000012<int32>
//  35  04 02 0e 1d 08              heap@0x7: string, int32[]
//  40  02 01 08                    heap@0xc: int32
#include <doctest/doctest.h>

#include <gdmap/reader/map_compare.hpp>
#include <gdmap/schema/hex.hpp>

#include <random>
#include <string>

namespace gdmap {
namespace {

Bytes exampleMap() {
  return *parseHex(
      "03000080 00100000 00000000 10100000 07000000 20100000 0c000000"
      "06011512490108 04020e1d08 020108");
}

Bytes withByte(std::size_t at, std::uint8_t value) {
  Bytes b = exampleMap();
  b.at(at) = value;
  return b;
}

}  // namespace

TEST_CASE("compare: identical maps") {
  const Bytes m = exampleMap();
  REQUIRE(m.size() == 43);
  const MapDifference d = compareMaps(m, m);
  CHECK(d.identical);
  CHECK(d.differingBytes == 0);
  CHECK(d.expectedSize == 43);
  CHECK(d.actualSize == 43);
}

TEST_CASE("compare: a directory RVA") {
  const MapDifference d = compareMaps(exampleMap(), withByte(21, 0x11));
  CHECK_FALSE(d.identical);
  CHECK(d.firstOffset == 21);
  CHECK(d.field == "directory[2].rva");
  CHECK(d.expected == "0x00001020");
  CHECK(d.found == "0x00001120");
  CHECK(d.differingBytes == 1);
}

TEST_CASE("compare: a directory offset") {
  const MapDifference d = compareMaps(exampleMap(), withByte(16, 0x08));
  CHECK(d.field == "directory[1].offset");
  CHECK(d.expected == "0x00000007");
  CHECK(d.found == "0x00000008");
}

TEST_CASE("compare: the header, saying when the sorted flag differs") {
  MapDifference d = compareMaps(exampleMap(), withByte(3, 0x00));
  CHECK(d.firstOffset == 3);
  CHECK(d.field == "header.count");
  CHECK(d.expected == "0x80000003 (3 entries, sorted)");
  CHECK(d.found == "0x00000003 (3 entries, unsorted)");
  d = compareMaps(exampleMap(), withByte(0, 0x01));
  CHECK(d.found == "0x80000001 (1 entry, sorted)");
}

TEST_CASE("compare: an item's length and count name the item and its entry") {
  MapDifference d = compareMaps(exampleMap(), withByte(35, 0x05));
  CHECK(d.firstOffset == 35);
  CHECK(d.field == "heap@0x7(directory[1]).length");
  CHECK(d.expected == "04 (4)");
  CHECK(d.found == "05 (5)");
  d = compareMaps(exampleMap(), withByte(36, 0x03));
  CHECK(d.field == "heap@0x7(directory[1]).count");
  CHECK(d.expected == "02 (2)");
  CHECK(d.found == "03 (3)");
  d = compareMaps(exampleMap(), withByte(41, 0xE0));  // not a compressed integer
  CHECK(d.field == "heap@0xc(directory[2]).count");
  CHECK(d.found.rfind("e008 (", 0) == 0);
}

TEST_CASE("compare: inside a type, by field, with both types as text") {
  MapDifference d = compareMaps(exampleMap(), withByte(32, 0x45));
  CHECK(d.field == "heap@0x0(directory[0]).type[0].genericType.token");
  CHECK(d.expected == "1512490108 (class 0x01000012<int32>)");
  CHECK(d.found == "1512450108 (class 0x01000011<int32>)");
  d = compareMaps(exampleMap(), withByte(34, 0x0e));
  CHECK(d.field == "heap@0x0(directory[0]).type[0].arguments[0]");
  CHECK(d.found == "151249010e (class 0x01000012<string>)");
  d = compareMaps(exampleMap(), withByte(39, 0x1c));
  CHECK(d.field == "heap@0x7(directory[1]).type[1].inner");
  CHECK(d.expected == "1d08 (int32[])");
  CHECK(d.found == "1d1c (object[])");
  d = compareMaps(exampleMap(), withByte(37, 0x00));  // no element type 0
  CHECK(d.field == "heap@0x7(directory[1]).type[0]");
  CHECK(d.expected == "0e (string)");
  CHECK(d.found.rfind("00 (does not decode: ", 0) == 0);
}

TEST_CASE("compare: one map ends early or goes on") {
  const Bytes m = exampleMap();
  MapDifference d = compareMaps(m, ByteSpan(m).first(40));
  CHECK(d.firstOffset == 40);
  CHECK(d.field == "heap@0xc(directory[2]).length");
  CHECK(d.expected == "02 (2)");
  CHECK(d.found == "end of map (expected 3 more bytes)");
  CHECK(d.differingBytes == 3);
  CHECK(d.actualSize == 40);

  d = compareMaps(m, ByteSpan(m).first(22));  // mid-field
  CHECK(d.field == "directory[2].rva");
  CHECK(d.found == "end of map (expected 21 more bytes)");

  Bytes longer = m;
  longer.push_back(0xAA);
  longer.push_back(0xBB);
  d = compareMaps(m, longer);
  CHECK(d.firstOffset == 43);
  CHECK(d.field == "end of map");
  CHECK(d.expected == "end of map");
  CHECK(d.found == "2 extra bytes: aabb");
  CHECK(d.differingBytes == 2);

  d = compareMaps(m, Bytes{});
  CHECK(d.firstOffset == 0);
  CHECK(d.field == "header.count");
  CHECK(d.differingBytes == 43);
}

TEST_CASE("compare: differing bytes count every position plus the length difference") {
  Bytes actual = withByte(21, 0x11);
  actual[39] = 0x1c;
  actual.pop_back();
  const MapDifference d = compareMaps(exampleMap(), actual);
  CHECK(d.firstOffset == 21);
  CHECK(d.differingBytes == 3);
}

TEST_CASE("compare: mapFieldPath names every byte of a well-formed map") {
  const Bytes m = exampleMap();
  CHECK(mapFieldPath(m, 0) == "header.count");
  CHECK(mapFieldPath(m, 7) == "directory[0].rva");
  CHECK(mapFieldPath(m, 8) == "directory[0].offset");
  CHECK(mapFieldPath(m, 27) == "directory[2].offset");
  CHECK(mapFieldPath(m, 28) == "heap@0x0.length");
  CHECK(mapFieldPath(m, 29) == "heap@0x0.count");
  CHECK(mapFieldPath(m, 30) == "heap@0x0.type[0]");
  CHECK(mapFieldPath(m, 31) == "heap@0x0.type[0].genericType");
  CHECK(mapFieldPath(m, 33) == "heap@0x0.type[0].argumentCount");
  CHECK(mapFieldPath(m, 38) == "heap@0x7.type[1]");
  CHECK(mapFieldPath(m, 42) == "heap@0xc.type[0]");
  CHECK(mapFieldPath(m, 43) == "end of map");
}

TEST_CASE("compare: mapFieldPath on malformed maps") {
  CHECK(mapFieldPath(Bytes{0x01}, 0) == "header.count");
  CHECK(mapFieldPath(Bytes{0x01}, 5) == "end of map");
  // Claims 2^31 - 1 entries, holds 8 bytes.
  const Bytes huge = *parseHex("ffffff7f 00000000");
  CHECK(mapFieldPath(huge, 5) == "directory[0].rva");
  // One entry at heap 2; heap: aa bb, then item 03 01 08 ee (one type, then
  // a byte the count does not cover), then a byte past the item.
  const Bytes m = *parseHex("01000000 00000000 02000000 aabb 030108ee 77");
  CHECK(mapFieldPath(m, 12) == "heap@0x0 (unreachable)");
  CHECK(mapFieldPath(m, 13) == "heap@0x1 (unreachable)");
  CHECK(mapFieldPath(m, 14) == "heap@0x2.length");
  CHECK(mapFieldPath(m, 15) == "heap@0x2.count");
  CHECK(mapFieldPath(m, 16) == "heap@0x2.type[0]");
  CHECK(mapFieldPath(m, 17) == "heap@0x2 (after the last type)");
  CHECK(mapFieldPath(m, 18) == "heap@0x6 (unreachable)");
  // An invalid length lead byte; a length past the end.
  CHECK(mapFieldPath(*parseHex("01000000 00000000 00000000 ff0108"), 12) == "heap@0x0.length");
  CHECK(mapFieldPath(*parseHex("01000000 00000000 00000000 ff0108"), 13) == "heap@0x1 (unreachable)");
  CHECK(mapFieldPath(*parseHex("01000000 00000000 00000000 7f0108"), 14) == "heap@0x0.type[0]");
  // Overlapping items: the one starting closest before the byte wins.
  const Bytes overlap = *parseHex("02000000 00000000 00000000 01000000 01000000 0401020108");
  CHECK(mapFieldPath(overlap, 20) == "heap@0x0.length");
  CHECK(mapFieldPath(overlap, 21) == "heap@0x1.length");
  CHECK(mapFieldPath(overlap, 22) == "heap@0x1.count");
}

TEST_CASE("compare: never crashes on random or mutated bytes") {
  std::mt19937_64 rng(20240601);
  const Bytes base = exampleMap();
  for (int round = 0; round < 3000; ++round) {
    Bytes m;
    if (round % 2 == 0) {
      m = base;
      for (int k = 0, flips = 1 + static_cast<int>(rng() % 4); k < flips; ++k)
        m[rng() % m.size()] = static_cast<std::uint8_t>(rng());
      m.resize(rng() % (m.size() + 4));
    } else {
      m.resize(rng() % 40);
      for (auto& b : m) b = static_cast<std::uint8_t>(rng() % 4 == 0 ? 0 : rng());
      if (m.size() >= 4 && rng() % 2 == 0) {
        m[1] = m[2] = 0;
        m[3] &= 0x80;
        m[0] %= 4;
      }
    }
    for (std::size_t at = 0; at <= m.size(); ++at) CHECK_FALSE(mapFieldPath(m, at).empty());
    const MapDifference d = compareMaps(base, m);
    CHECK(d.identical == (m == base));
    CHECK_FALSE((!d.identical && d.field.empty()));
  }
}

TEST_CASE("compare: a huge differing type is quoted with a cap") {
  // One item: class 0x01000012<int32 x 10000>, and the same with its last
  // argument int64. The values quote at most 32 bytes of hex and 80
  // characters of text.
  constexpr std::uint32_t kArgs = 10000;
  Bytes type = {0x15, 0x12, 0x49, 0x80 | (kArgs >> 8), kArgs & 0xFF};
  type.insert(type.end(), kArgs, 0x08);
  Bytes item = {0xC0, 0x00, 0x00, 0x00, 0x01};
  item.insert(item.end(), type.begin(), type.end());
  const std::uint32_t length = static_cast<std::uint32_t>(item.size() - 4);
  item[2] = static_cast<std::uint8_t>(length >> 8);
  item[3] = static_cast<std::uint8_t>(length);
  Bytes expected = *parseHex("01000080 00100000 00000000");
  expected.insert(expected.end(), item.begin(), item.end());
  Bytes actual = expected;
  actual.back() = 0x0A;
  const MapDifference d = compareMaps(expected, actual);
  CHECK(d.field == "heap@0x0(directory[0]).type[0].arguments[9999]");
  // The value is the whole type[0]: its 10,005 bytes and its text, each
  // cut around the byte that differs (issue 20: cut at their heads, the
  // two would read the same).
  CHECK(d.expected.rfind("...0808080808080808", 0) == 0);
  CHECK(d.expected.find("08 (10005 bytes) (...") != std::string::npos);
  CHECK(d.expected.find("int32, int32>)") != std::string::npos);
  CHECK(d.found.find("0a (10005 bytes) (...") != std::string::npos);
  CHECK(d.found.find("int32, int64>)") != std::string::npos);
  CHECK(d.expected != d.found);
  CHECK(d.expected.size() < 200);
  CHECK(d.found.size() < 200);
}

}  // namespace gdmap
