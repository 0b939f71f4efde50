#pragma once
// Hex text for bytes and numbers: the one place gdmap turns values into hex
// digits and back (the CLI, the description, the type text and every
// diagnostic use these).
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gdmap {

// Lowercase, no separators: {0x15, 0x12} -> "1512".
std::string toHex(ByteSpan bytes);
void appendHex(ByteSpan bytes, std::string& out);

namespace detail {
// hexDigitValue() as a table: digits and letters come in no order a branch
// predictor can learn, and a description has tens of millions of them.
inline constexpr std::array<std::int8_t, 256> kHexDigitValues = [] {
  std::array<std::int8_t, 256> values{};
  for (int c = 0; c < 256; ++c) {
    values[static_cast<std::size_t>(c)] = static_cast<std::int8_t>(c >= '0' && c <= '9'   ? c - '0'
                                                                   : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                                                   : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                                                          : -1);
  }
  return values;
}();
}  // namespace detail

// The value of one hex digit of either case, or -1.
constexpr int hexDigitValue(char c) { return detail::kHexDigitValues[static_cast<unsigned char>(c)]; }

// The lowercase digit of a value 0..15.
constexpr char hexDigit(unsigned value) { return "0123456789abcdef"[value & 0xF]; }

// Accepts either case and ASCII white space anywhere between digits (so
// "15 12 49" and "151249" are the same). An odd number of digits or any other
// character is an error (rule invalid-hex) whose offset is the character's
// index in `text`.
Expected<Bytes> parseHex(std::string_view text);

// "0x0000001c": fixed width, the form diagnostics use for offsets and RVAs,
// and the type text for tokens.
std::string hex32(std::uint32_t value);
void appendHex32(std::uint32_t value, std::string& out);

// "0x1b": the form diagnostics use for element types, tables and other bytes.
std::string hex8(std::uint8_t value);
void appendHex8(std::uint8_t value, std::string& out);

// "0x1c": no padding, as heap offsets appear in field paths ("heap@0x1c").
std::string shortHex(std::uint64_t value);
void appendShortHex(std::uint64_t value, std::string& out);

// The value of "0x" (or "0X") and 1 to 8 hex digits, nothing else: how the
// JSON descriptions spell a u32 as a string. nullopt for any other text.
std::optional<std::uint32_t> parsePrefixedHex32(std::string_view text);

}  // namespace gdmap
