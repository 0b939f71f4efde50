#pragma once
// Internal to reader/map: which field of a map holds a given byte, with the
// field's extent, for comparisons and diagnostics. Safe on any bytes.
#include <gdmap/schema/bytes.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace gdmap::detail {

enum class MapFieldKind {
  End,              // at or past the end of the map
  Header,           // header.count
  DirectoryRva,     // directory[i].rva
  DirectoryOffset,  // directory[i].offset
  ItemLength,       // heap@X.length
  ItemCount,        // heap@X.count
  ItemType,         // heap@X.type[k]...
  ItemTrailing,     // inside an item's length, after its last type
  Unreachable,      // heap bytes no directory entry's item covers
};

struct MapField {
  MapFieldKind kind = MapFieldKind::End;
  std::string item;       // "heap@0x1c" for heap fields, else empty
  std::string inner;      // the rest: "header.count", ".type[1].token", " (unreachable)"
  std::size_t begin = 0;  // the field's bytes in the map (clipped to its end)
  std::size_t end = 0;
  std::optional<std::uint32_t> referencedBy;  // first directory entry naming the item

  std::string path() const { return item + inner; }
};

// The field that holds byte `offset`. For a heap byte inside several
// (overlapping) items, the item that starts closest before it wins.
MapField locateMapField(ByteSpan map, std::size_t offset);

}  // namespace gdmap::detail
