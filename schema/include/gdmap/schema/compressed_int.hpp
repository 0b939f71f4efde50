#pragma once
// ECMA-335 II.23.2 compressed integers, both directions (as LLVM's
// LEB128.h): encoding writes the shortest of the 1, 2 and 4-byte forms,
// big-endian, unsigned or (rotated) signed; decoding never reads past the end
// of the input and says whether the form was the shortest.
#include <gdmap/schema/bytes.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gdmap {

inline constexpr std::uint32_t kMaxCompressedUInt = 0x1FFFFFFF;
inline constexpr std::int32_t kMinCompressedInt = -(1 << 28);
inline constexpr std::int32_t kMaxCompressedInt = (1 << 28) - 1;

// Length of the shortest encoding, or 0 when the value has none.
constexpr std::size_t compressedUIntSize(std::uint32_t value) {
  return value <= 0x7F ? 1 : value <= 0x3FFF ? 2 : value <= kMaxCompressedUInt ? 4 : 0;
}
constexpr std::size_t compressedIntSize(std::int32_t value) {
  return (value >= -(1 << 6) && value < (1 << 6))                     ? 1
         : (value >= -(1 << 13) && value < (1 << 13))                 ? 2
         : (value >= kMinCompressedInt && value <= kMaxCompressedInt) ? 4
                                                                      : 0;
}

// Write the shortest encoding to out[0..3]; return its length, or 0 (and
// write nothing) when the value is out of range.
std::size_t encodeCompressedUInt(std::uint32_t value, std::uint8_t* out);
std::size_t encodeCompressedInt(std::int32_t value, std::uint8_t* out);

// Append the shortest encoding; false (and nothing appended) when out of range.
bool appendCompressedUInt(Bytes& out, std::uint32_t value);
bool appendCompressedInt(Bytes& out, std::int32_t value);

enum class CompressedIntError : std::uint8_t {
  None,
  Empty,        // no byte at all
  Truncated,    // the lead byte announces more bytes than there are
  InvalidLead,  // lead byte 111xxxxx: no such form
};

struct DecodedUInt {
  std::uint32_t value = 0;
  std::uint8_t length = 0;  // 1, 2 or 4
  bool minimal = true;      // false when a shorter form could hold the value
};

struct DecodedInt {
  std::int32_t value = 0;
  std::uint8_t length = 0;
  bool minimal = true;
};

// Decode the integer at bytes[0]. On error `out` is unspecified.
CompressedIntError decodeCompressedUInt(ByteSpan bytes, DecodedUInt& out);
CompressedIntError decodeCompressedInt(ByteSpan bytes, DecodedInt& out);

// "truncated compressed integer" and the like, for diagnostics.
std::string_view describe(CompressedIntError error);

}  // namespace gdmap
