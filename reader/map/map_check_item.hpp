#pragma once
// Internal to reader/map: the byte-level pieces MapView and checkMap share, so
// both read the header, the directory and an item's two leading integers in
// exactly one way.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/compressed_int.hpp>
#include <gdmap/schema/map_format.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace gdmap::detail {

// What stops an item's length prefix or type count from being read.
enum class ItemProblem : std::uint8_t {
  None,
  OffsetOutsideHeap,  // the offset is not below the heap's size
  InvalidLength,      // the length prefix is not a compressed integer
  LengthOutsideHeap,  // L bytes after the prefix run past the heap's end
  InvalidCount,       // the type count is not a compressed integer inside the item
};

struct ItemHeader {
  ItemProblem problem = ItemProblem::None;
  CompressedIntError intError = CompressedIntError::None;  // for Invalid*
  std::size_t start = 0;                                   // absolute offset of the length prefix
  DecodedUInt length;                                      // valid from LengthOutsideHeap on
  std::size_t end = 0;         // absolute end (start + prefix + L), when None or InvalidCount
  std::size_t countStart = 0;  // absolute offset of the type count
  DecodedUInt count;           // valid when problem is None
  std::size_t typesStart = 0;  // absolute offset of type[0], when problem is None
};

// Reads the item at `heapOffset` (relative to the heap at `heapStart`) of
// `map`. Never reads outside the heap, nor the count outside the item.
ItemHeader readItemHeader(ByteSpan map, std::size_t heapStart, std::uint32_t heapOffset);

}  // namespace gdmap::detail
