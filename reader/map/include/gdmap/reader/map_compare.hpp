#pragma once
// Byte-for-byte comparison of a map against the expected one, naming the
// first difference by field: what `gdmap verify` reports.
#include <gdmap/schema/bytes.hpp>

#include <cstddef>
#include <string>

namespace gdmap {

struct MapDifference {
  bool identical = true;
  std::size_t firstOffset = 0;     // first differing byte (or where one map ends)
  std::string field;               // "directory[2].rva", "heap@0x1c(directory[0]).type[1].token"
  std::string expected;            // the field's value in the expected map ("0x00001040", hex bytes, "end of map")
  std::string found;               // the same in the actual map
  std::size_t differingBytes = 0;  // positions that differ, counting a length difference
  std::size_t expectedSize = 0;
  std::size_t actualSize = 0;
};

// `expected` is a well-formed map (the builder's output); `actual` may be
// anything.
MapDifference compareMaps(ByteSpan expected, ByteSpan actual);

// The field that contains byte `offset` of a map, as a path:
// "header.count", "directory[2].rva", "heap@0x1c.length",
// "heap@0x1c.count", "heap@0x1c.type[1].arguments[0].token",
// "heap@0x30 (unreachable)". Safe on any bytes.
std::string mapFieldPath(ByteSpan map, std::size_t offset);

}  // namespace gdmap
