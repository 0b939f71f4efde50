#pragma once
// Hex text for bytes: how the CLI, the description and diagnostics show them.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <string>
#include <string_view>

namespace gdmap {

// Lowercase, no separators: {0x15, 0x12} -> "1512".
std::string toHex(ByteSpan bytes);

// Accepts either case and ASCII white space anywhere between digits (so
// "15 12 49" and "151249" are the same). An odd number of digits or any other
// character is an error whose offset is the character's index in `text`.
Expected<Bytes> parseHex(std::string_view text);

// "0x0000001c": the form diagnostics use for offsets and RVAs.
std::string hex32(std::uint32_t value);

// "0x1b": the form diagnostics use for element types, tables and other bytes.
std::string hex8(std::uint8_t value);

}  // namespace gdmap
