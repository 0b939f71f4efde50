#pragma once
// ECMA-335 II.23.2 compressed integers, decoded without reading past the end
// of the input.
#include <gdmap/schema/bytes.hpp>

#include <cstdint>
#include <string_view>

namespace gdmap {

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
