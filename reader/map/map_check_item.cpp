#include "map_check_item.hpp"

#include <gdmap/schema/byte_cursor.hpp>

namespace gdmap::detail {

ItemHeader readItemHeader(ByteSpan map, std::size_t heapStart, std::uint32_t heapOffset) {
  ItemHeader h;
  h.start = heapStart + std::size_t{heapOffset};
  ByteCursor heap(map.subspan(heapStart), heapStart);
  if (!heap.seek(heapOffset) || heap.atEnd()) {
    h.problem = ItemProblem::OffsetOutsideHeap;
    return h;
  }
  h.intError = decodeCompressedUInt(heap.rest(), h.length);
  if (h.intError != CompressedIntError::None) {
    h.problem = ItemProblem::InvalidLength;
    return h;
  }
  heap.skip(h.length.length);
  h.countStart = heap.offset();
  const ByteSpan item = heap.take(h.length.value);
  if (!heap.ok()) {
    h.problem = ItemProblem::LengthOutsideHeap;
    return h;
  }
  h.end = heap.offset();
  // The count is read from the item's own bytes only.
  h.intError = decodeCompressedUInt(item, h.count);
  if (h.intError != CompressedIntError::None) {
    h.problem = ItemProblem::InvalidCount;
    return h;
  }
  h.typesStart = h.countStart + h.count.length;
  return h;
}

}  // namespace gdmap::detail
