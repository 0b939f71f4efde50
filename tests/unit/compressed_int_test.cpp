// ECMA-335 II.23.2 compressed integers. Expected bytes come from the
// standard's examples and from its definition worked by hand.
#include <gdmap/schema/compressed_int.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace {

using gdmap::Bytes;
using gdmap::ByteSpan;
using gdmap::CompressedIntError;

struct UIntVector {
  std::uint32_t value;
  Bytes bytes;
};

struct IntVector {
  std::int32_t value;
  Bytes bytes;
};

// The standard's examples plus every form boundary and its neighbours.
const std::vector<UIntVector>& unsignedVectors() {
  static const std::vector<UIntVector> vectors = {
      {0x00, {0x00}},
      {0x03, {0x03}},
      {0x7E, {0x7E}},
      {0x7F, {0x7F}},
      {0x80, {0x80, 0x80}},
      {0x81, {0x80, 0x81}},
      {0x2E57, {0xAE, 0x57}},
      {0x3FFE, {0xBF, 0xFE}},
      {0x3FFF, {0xBF, 0xFF}},
      {0x4000, {0xC0, 0x00, 0x40, 0x00}},
      {0x4001, {0xC0, 0x00, 0x40, 0x01}},
      {0x1FFFFFFE, {0xDF, 0xFF, 0xFF, 0xFE}},
      {0x1FFFFFFF, {0xDF, 0xFF, 0xFF, 0xFF}},
  };
  return vectors;
}

const std::vector<IntVector>& signedVectors() {
  static const std::vector<IntVector> vectors = {
      {0, {0x00}},
      {1, {0x02}},
      {-1, {0x7F}},
      {3, {0x06}},
      {-3, {0x7B}},
      {62, {0x7C}},
      {63, {0x7E}},
      {64, {0x80, 0x80}},
      {-63, {0x03}},
      {-64, {0x01}},
      {-65, {0xBF, 0x7F}},
      {8190, {0xBF, 0xFC}},
      {8191, {0xBF, 0xFE}},
      {8192, {0xC0, 0x00, 0x40, 0x00}},
      {-8191, {0x80, 0x03}},
      {-8192, {0x80, 0x01}},
      {-8193, {0xDF, 0xFF, 0xBF, 0xFF}},
      {268435454, {0xDF, 0xFF, 0xFF, 0xFC}},
      {268435455, {0xDF, 0xFF, 0xFF, 0xFE}},
      {-268435455, {0xC0, 0x00, 0x00, 0x03}},
      {-268435456, {0xC0, 0x00, 0x00, 0x01}},
  };
  return vectors;
}

}  // namespace

TEST_CASE("compressed int: unsigned encoder writes the shortest form") {
  for (const UIntVector& v : unsignedVectors()) {
    CAPTURE(v.value);
    std::uint8_t buffer[4] = {0xAA, 0xAA, 0xAA, 0xAA};
    const std::size_t n = gdmap::encodeCompressedUInt(v.value, buffer);
    CHECK(n == v.bytes.size());
    CHECK(Bytes(buffer, buffer + n) == v.bytes);
    CHECK(gdmap::compressedUIntSize(v.value) == v.bytes.size());
    Bytes appended = {0x55};
    CHECK(gdmap::appendCompressedUInt(appended, v.value));
    Bytes expected = {0x55};
    expected.insert(expected.end(), v.bytes.begin(), v.bytes.end());
    CHECK(appended == expected);
  }
}

TEST_CASE("compressed int: signed encoder writes the rotated shortest form") {
  for (const IntVector& v : signedVectors()) {
    CAPTURE(v.value);
    std::uint8_t buffer[4] = {0xAA, 0xAA, 0xAA, 0xAA};
    const std::size_t n = gdmap::encodeCompressedInt(v.value, buffer);
    CHECK(n == v.bytes.size());
    CHECK(Bytes(buffer, buffer + n) == v.bytes);
    CHECK(gdmap::compressedIntSize(v.value) == v.bytes.size());
    Bytes appended;
    CHECK(gdmap::appendCompressedInt(appended, v.value));
    CHECK(appended == v.bytes);
  }
}

TEST_CASE("compressed int: encoders reject values out of range and write nothing") {
  for (std::uint32_t value : {0x20000000u, 0x20000001u, 0xFFFFFFFFu}) {
    CAPTURE(value);
    std::uint8_t buffer[4] = {0xAA, 0xAA, 0xAA, 0xAA};
    CHECK(gdmap::encodeCompressedUInt(value, buffer) == 0);
    CHECK(buffer[0] == 0xAA);
    CHECK(gdmap::compressedUIntSize(value) == 0);
    Bytes out = {0x01};
    CHECK_FALSE(gdmap::appendCompressedUInt(out, value));
    CHECK(out == Bytes{0x01});
  }
  for (std::int32_t value :
       {268435456, -268435457, std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min()}) {
    CAPTURE(value);
    std::uint8_t buffer[4] = {0xAA, 0xAA, 0xAA, 0xAA};
    CHECK(gdmap::encodeCompressedInt(value, buffer) == 0);
    CHECK(buffer[0] == 0xAA);
    CHECK(gdmap::compressedIntSize(value) == 0);
    Bytes out = {0x01};
    CHECK_FALSE(gdmap::appendCompressedInt(out, value));
    CHECK(out == Bytes{0x01});
  }
}

TEST_CASE("compressed int: decoders read every vector back as minimal") {
  for (const UIntVector& v : unsignedVectors()) {
    CAPTURE(v.value);
    gdmap::DecodedUInt d;
    REQUIRE(gdmap::decodeCompressedUInt(v.bytes, d) == CompressedIntError::None);
    CHECK(d.value == v.value);
    CHECK(d.length == v.bytes.size());
    CHECK(d.minimal);
  }
  for (const IntVector& v : signedVectors()) {
    CAPTURE(v.value);
    gdmap::DecodedInt d;
    REQUIRE(gdmap::decodeCompressedInt(v.bytes, d) == CompressedIntError::None);
    CHECK(d.value == v.value);
    CHECK(d.length == v.bytes.size());
    CHECK(d.minimal);
  }
}

TEST_CASE("compressed int: decoders stop after the integer") {
  const Bytes bytes = {0x80, 0x81, 0x12, 0x34};
  gdmap::DecodedUInt d;
  REQUIRE(gdmap::decodeCompressedUInt(bytes, d) == CompressedIntError::None);
  CHECK(d.value == 0x81);
  CHECK(d.length == 2);
}

TEST_CASE("compressed int: empty input is an error") {
  gdmap::DecodedUInt u;
  gdmap::DecodedInt s;
  CHECK(gdmap::decodeCompressedUInt(ByteSpan{}, u) == CompressedIntError::Empty);
  CHECK(gdmap::decodeCompressedInt(ByteSpan{}, s) == CompressedIntError::Empty);
  CHECK_FALSE(gdmap::describe(CompressedIntError::Empty).empty());
}

TEST_CASE("compressed int: truncated input is an error at every length") {
  // Each buffer holds the lead byte and fewer bytes than it announces; the
  // span stops there even though memory after it holds more, so reading
  // past the span's end would change the outcome.
  const Bytes memory = {0x80, 0x05, 0xC0, 0x00, 0x00, 0x05};
  const ByteSpan all(memory);
  const std::vector<ByteSpan> truncated = {all.subspan(0, 1), all.subspan(2, 1), all.subspan(2, 2), all.subspan(2, 3)};
  for (const ByteSpan& bytes : truncated) {
    CAPTURE(bytes.size());
    gdmap::DecodedUInt u;
    gdmap::DecodedInt s;
    CHECK(gdmap::decodeCompressedUInt(bytes, u) == CompressedIntError::Truncated);
    CHECK(gdmap::decodeCompressedInt(bytes, s) == CompressedIntError::Truncated);
  }
  // Exactly-sized heap buffers, so that AddressSanitizer catches an overread.
  for (std::size_t length = 1; length < 4; ++length) {
    const Bytes bytes(memory.begin() + 2, memory.begin() + 2 + static_cast<std::ptrdiff_t>(length));
    gdmap::DecodedUInt u;
    CHECK(gdmap::decodeCompressedUInt(bytes, u) == CompressedIntError::Truncated);
  }
}

TEST_CASE("compressed int: a 111xxxxx lead byte is invalid") {
  for (std::uint8_t lead : {0xE0, 0xE5, 0xF0, 0xFF}) {
    CAPTURE(int{lead});
    const Bytes bytes = {lead, 0x00, 0x00, 0x00};
    gdmap::DecodedUInt u;
    gdmap::DecodedInt s;
    CHECK(gdmap::decodeCompressedUInt(bytes, u) == CompressedIntError::InvalidLead);
    CHECK(gdmap::decodeCompressedInt(bytes, s) == CompressedIntError::InvalidLead);
  }
}

TEST_CASE("compressed int: non-minimal unsigned forms decode and are flagged") {
  struct Case {
    Bytes bytes;
    std::uint32_t value;
  };
  const std::vector<Case> cases = {
      {{0x80, 0x05}, 5},
      {{0x80, 0x7F}, 0x7F},
      {{0xC0, 0x00, 0x00, 0x05}, 5},
      {{0xC0, 0x00, 0x00, 0x80}, 0x80},
      {{0xC0, 0x00, 0x3F, 0xFF}, 0x3FFF},
      {{0x80, 0x00}, 0},
  };
  for (const Case& c : cases) {
    CAPTURE(c.value);
    gdmap::DecodedUInt d;
    REQUIRE(gdmap::decodeCompressedUInt(c.bytes, d) == CompressedIntError::None);
    CHECK(d.value == c.value);
    CHECK(d.length == c.bytes.size());
    CHECK_FALSE(d.minimal);
  }
}

TEST_CASE("compressed int: non-minimal signed forms decode and are flagged") {
  struct Case {
    Bytes bytes;
    std::int32_t value;
  };
  const std::vector<Case> cases = {
      {{0x80, 0x06}, 3},                  // 3 in the 2-byte form
      {{0xC0, 0x00, 0x00, 0x06}, 3},      // 3 in the 4-byte form
      {{0xBF, 0xFB}, -3},                 // -3 in the 2-byte form
      {{0xDF, 0xFF, 0xFF, 0xFB}, -3},     // -3 in the 4-byte form
      {{0xC0, 0x00, 0x00, 0x80}, 64},     // 64 in the 4-byte form
      {{0xDF, 0xFF, 0xC0, 0x01}, -8192},  // -8192 in the 4-byte form
  };
  for (const Case& c : cases) {
    CAPTURE(c.value);
    gdmap::DecodedInt d;
    REQUIRE(gdmap::decodeCompressedInt(c.bytes, d) == CompressedIntError::None);
    CHECK(d.value == c.value);
    CHECK(d.length == c.bytes.size());
    CHECK_FALSE(d.minimal);
  }
}

TEST_CASE("compressed int: every value near a boundary survives encode then decode") {
  for (std::uint32_t centre : {0x0u, 0x80u, 0x4000u, 0x1FFFFFFFu}) {
    for (std::uint32_t v = centre < 300 ? 0 : centre - 300; v <= centre + 300 && v <= 0x1FFFFFFF; ++v) {
      Bytes bytes;
      REQUIRE(gdmap::appendCompressedUInt(bytes, v));
      gdmap::DecodedUInt d;
      REQUIRE(gdmap::decodeCompressedUInt(bytes, d) == CompressedIntError::None);
      CHECK(d.value == v);
      CHECK(d.minimal);
    }
  }
  for (std::int32_t centre : {0, 64, -64, 8192, -8192, (1 << 28) - 1, -(1 << 28)}) {
    for (std::int32_t v = centre - 300; v <= centre + 300; ++v) {
      Bytes bytes;
      if (!gdmap::appendCompressedInt(bytes, v)) {
        CHECK((v > (1 << 28) - 1 || v < -(1 << 28)));
        continue;
      }
      gdmap::DecodedInt d;
      REQUIRE(gdmap::decodeCompressedInt(bytes, d) == CompressedIntError::None);
      CHECK(d.value == v);
      CHECK(d.minimal);
    }
  }
}
