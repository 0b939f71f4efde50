#include "map_check_item.hpp"

namespace gdmap::detail {

ItemHeader readItemHeader(ByteSpan map, std::size_t heapStart, std::uint32_t heapOffset) {
  ItemHeader h;
  const std::size_t heapSize = map.size() - heapStart;
  h.start = heapStart + std::size_t{heapOffset};
  if (heapOffset >= heapSize) {
    h.problem = ItemProblem::OffsetOutsideHeap;
    return h;
  }
  h.intError = decodeCompressedUInt(map.subspan(h.start), h.length);
  if (h.intError != CompressedIntError::None) {
    h.problem = ItemProblem::InvalidLength;
    return h;
  }
  h.countStart = h.start + h.length.length;
  // Both sides are below 2^34: no overflow in size_t.
  if (std::size_t{h.length.value} > map.size() - h.countStart) {
    h.problem = ItemProblem::LengthOutsideHeap;
    return h;
  }
  h.end = h.countStart + h.length.value;
  // The count is read from the item's own bytes only.
  h.intError = decodeCompressedUInt(map.subspan(h.countStart, h.length.value), h.count);
  if (h.intError != CompressedIntError::None) {
    h.problem = ItemProblem::InvalidCount;
    return h;
  }
  h.typesStart = h.countStart + h.count.length;
  return h;
}

std::string shortHex(std::uint64_t value) {
  constexpr char kDigits[] = "0123456789abcdef";
  char buffer[16];
  std::size_t n = 0;
  do {
    buffer[n++] = kDigits[value & 0xF];
    value >>= 4;
  } while (value != 0);
  std::string out = "0x";
  while (n > 0) out += buffer[--n];
  return out;
}

std::string heapPath(std::uint64_t heapOffset) { return "heap@" + shortHex(heapOffset); }

}  // namespace gdmap::detail
