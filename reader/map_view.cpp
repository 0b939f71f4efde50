#include <gdmap/reader/map_view.hpp>

#include "map_check_item.hpp"
#include <gdmap/reader/type_decoder.hpp>

#include <string>

namespace gdmap {

Expected<MapView> MapView::open(ByteSpan bytes) {
  if (bytes.size() < kHeaderSize) {
    return Error{0, "the map holds " + std::to_string(bytes.size()) +
                        " bytes, fewer than the 4-byte header needs"};
  }
  const std::uint32_t raw = detail::readU32(bytes, 0);
  const std::uint32_t count = raw & ~kSortedFlag;
  // 64-bit arithmetic: 4 + 8 * (2^31 - 1) does not fit in 32 bits. This is
  // the only check that depends on N, so a hostile count fails at once.
  const std::uint64_t directoryEnd = kHeaderSize + std::uint64_t{kDirectoryEntrySize} * count;
  if (directoryEnd > bytes.size()) {
    return Error{0, "the header claims " + std::to_string(count) + " entries, which need " +
                        std::to_string(directoryEnd) + " bytes, but the map holds only " +
                        std::to_string(bytes.size())};
  }
  return MapView(bytes, count, (raw & kSortedFlag) != 0);
}

DirectoryEntry MapView::entry(std::uint32_t index) const {
  const std::size_t at = kHeaderSize + kDirectoryEntrySize * std::size_t{index};
  return DirectoryEntry{detail::readU32(bytes_, at), detail::readU32(bytes_, at + 4)};
}

Expected<ItemView> MapView::item(std::uint32_t heapOffset) const {
  const detail::ItemHeader h = detail::readItemHeader(bytes_, heapStart(), heapOffset);
  switch (h.problem) {
    case detail::ItemProblem::None: break;
    case detail::ItemProblem::OffsetOutsideHeap:
      return Error{h.start, "heap offset " + detail::shortHex(heapOffset) + " is outside the heap of " +
                                std::to_string(bytes_.size() - heapStart()) + " bytes"};
    case detail::ItemProblem::InvalidLength:
      return Error{h.start, "item length: " + std::string(describe(h.intError))};
    case detail::ItemProblem::LengthOutsideHeap:
      return Error{h.start, "item length " + std::to_string(h.length.value) + " runs past the heap's end"};
    case detail::ItemProblem::InvalidCount:
      return Error{h.countStart, "type count: " + std::string(describe(h.intError)) + " (inside the item)"};
  }
  ItemView v;
  v.heapOffset = heapOffset;
  v.start = h.start;
  v.bytes = bytes_.subspan(h.start, h.end - h.start);
  v.typeCount = h.count.value;
  v.typesStart = h.typesStart;
  v.types = bytes_.subspan(h.typesStart, h.end - h.typesStart);
  return v;
}

std::optional<std::uint32_t> MapView::find(std::uint32_t rva) const {
  if (sorted_) {
    std::uint32_t lo = 0;
    std::uint32_t hi = count_;
    while (lo < hi) {
      const std::uint32_t mid = lo + (hi - lo) / 2;
      const std::uint32_t at = entry(mid).rva;
      if (at == rva) return mid;
      if (at < rva) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return std::nullopt;
  }
  for (std::uint32_t i = 0; i < count_; ++i) {
    if (entry(i).rva == rva) return i;
  }
  return std::nullopt;
}

Expected<std::vector<Type>> decodeItemTypes(const ItemView& item) {
  // The type count follows the length prefix; re-read the prefix's width
  // so errors about the count point at the count's byte.
  DecodedUInt prefix;
  const std::size_t countOffset =
      decodeCompressedUInt(item.bytes, prefix) == CompressedIntError::None ? item.start + prefix.length : item.start;
  if (item.typeCount == 0) {
    return Error{countOffset, "the item's type count is 0; a dictionary has at least one type"};
  }
  // Every type takes at least one byte: a count above the bytes left is a
  // lie, caught before anything is reserved.
  if (item.typeCount > item.types.size()) {
    return Error{countOffset, "the type count " + std::to_string(item.typeCount) + " exceeds the " +
                                      std::to_string(item.types.size()) + " bytes left in the item"};
  }
  std::vector<Type> types;
  types.reserve(item.typeCount);
  std::size_t pos = 0;
  for (std::uint32_t k = 0; k < item.typeCount; ++k) {
    Expected<Type> t = decodeType(item.types, pos);
    if (!t) {
      return Error{item.typesStart + t.error().offset, "type[" + std::to_string(k) + "]: " + t.error().message};
    }
    types.push_back(std::move(t).value());
  }
  if (pos != item.types.size()) {
    return Error{item.typesStart + pos, "the " + std::to_string(item.typeCount) + " types end " +
                                            std::to_string(item.types.size() - pos) +
                                            " bytes before the end the item's length states"};
  }
  return types;
}

}  // namespace gdmap
