#include <gdmap/reader/map_view.hpp>

#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>
#include "map_check_item.hpp"

#include <string>

namespace gdmap {

Expected<MapView> MapView::open(ByteSpan bytes) {
  ByteCursor in(bytes, 0, rules::kStreamTooShort);
  const std::uint32_t raw = in.u32();
  if (!in.ok()) {
    return Error{0, "the map holds " + std::to_string(bytes.size()) + " bytes, fewer than the 4-byte header needs",
                 rules::kStreamTooShort};
  }
  const std::uint32_t count = raw & kEntryCountMask;
  // This is the only check that depends on N (compared with the bytes left,
  // never multiplied into a position first), so a hostile count fails at once.
  if (std::uint64_t{count} > in.remaining() / kDirectoryEntrySize) {
    return Error{0,
                 "the header claims " + std::to_string(count) + " entries, which need " +
                     std::to_string(heapStartFor(count)) + " bytes, but the map holds only " +
                     std::to_string(bytes.size()),
                 rules::kDirectoryTruncated};
  }
  return MapView(bytes, count, (raw & kSortedFlag) != 0);
}

Expected<ItemView> MapView::item(std::uint32_t heapOffset) const {
  const detail::ItemHeader h = detail::readItemHeader(bytes_, heapStart(), heapOffset);
  switch (h.problem) {
    case detail::ItemProblem::None: break;
    case detail::ItemProblem::OffsetOutsideHeap:
      return Error{h.start,
                   "heap offset " + shortHex(heapOffset) + " is outside the heap of " +
                       std::to_string(bytes_.size() - heapStart()) + " bytes",
                   rules::kOffsetOutsideHeap};
    case detail::ItemProblem::InvalidLength:
      return Error{h.start, "item length: " + std::string(describe(h.intError)), rules::kInvalidCompressedInt};
    case detail::ItemProblem::LengthOutsideHeap:
      return Error{h.start, "item length " + std::to_string(h.length.value) + " runs past the heap's end",
                   rules::kItemLengthOutsideHeap};
    case detail::ItemProblem::InvalidCount:
      return Error{h.countStart, "type count: " + std::string(describe(h.intError)) + " (inside the item)",
                   rules::kInvalidCompressedInt};
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

namespace {

constexpr std::uint64_t kOrderUnknown = 0;
constexpr std::uint64_t kOrderAscending = 1;

}  // namespace

std::uint64_t MapView::orderState() const {
  std::uint64_t state = order_.load(std::memory_order_relaxed);
  if (state != kOrderUnknown) return state;
  state = kOrderAscending;
  if (sorted_) {
    for (std::uint32_t i = 1; i < count_; ++i) {
      if (entry(i).rva <= entry(i - 1).rva) {
        state = std::uint64_t{i} << 1;
        break;
      }
    }
  }
  order_.store(state, std::memory_order_relaxed);
  return state;
}

Status MapView::checkOrder() const {
  const std::uint64_t state = orderState();
  if (state == kOrderAscending) return Success{};
  const auto i = static_cast<std::uint32_t>(state >> 1);
  const std::uint32_t rva = entry(i).rva;
  const std::uint32_t previous = entry(i - 1).rva;
  return Error{static_cast<std::size_t>(directoryRvaOffset(i)),
               "RVA " + hex32(rva) + " of directory[" + std::to_string(i) + "] is not above directory[" +
                   std::to_string(i - 1) + "]'s " + hex32(previous) +
                   ", yet the header's bit 31 says the directory is sorted: a binary search cannot be trusted",
               rules::kRvaNotAscending};
}

Expected<std::optional<std::uint32_t>> MapView::find(std::uint32_t rva) const {
  if (sorted_) {
    if (Status order = checkOrder(); !order) return order.error();
    std::uint32_t lo = 0;
    std::uint32_t hi = count_;
    while (lo < hi) {
      const std::uint32_t mid = lo + (hi - lo) / 2;
      const std::uint32_t at = entry(mid).rva;
      if (at == rva) return std::optional<std::uint32_t>(mid);
      if (at < rva) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return std::optional<std::uint32_t>();
  }
  // Unsorted: the whole directory, so a second entry with the RVA is found.
  std::optional<std::uint32_t> found;
  for (std::uint32_t i = 0; i < count_; ++i) {
    if (entry(i).rva != rva) continue;
    if (found) {
      return Error{static_cast<std::size_t>(directoryRvaOffset(i)),
                   "RVA " + hex32(rva) + " of directory[" + std::to_string(i) + "] is already directory[" +
                       std::to_string(*found) + "]'s: the map does not say which dictionary it names",
                   rules::kDuplicateRva};
    }
    found = i;
  }
  return found;
}

Expected<std::vector<Type>> decodeItemTypes(const ItemView& item) {
  // The type count follows the length prefix; re-read the prefix's width
  // so errors about the count point at the count's byte.
  DecodedUInt prefix;
  const std::size_t countOffset =
      decodeCompressedUInt(item.bytes, prefix) == CompressedIntError::None ? item.start + prefix.length : item.start;
  if (item.typeCount == 0) {
    return Error{countOffset, "the item's type count is 0; a dictionary has at least one type", rules::kZeroTypeCount};
  }
  // Every type takes at least one byte: a count above the bytes left is a
  // lie, caught before anything is reserved.
  if (item.typeCount > item.types.size()) {
    return Error{countOffset,
                 "the type count " + std::to_string(item.typeCount) + " exceeds the " +
                     std::to_string(item.types.size()) + " bytes left in the item",
                 rules::kTypeCountExceedsItem};
  }
  std::vector<Type> types;
  types.reserve(item.typeCount);
  std::size_t pos = 0;
  for (std::uint32_t k = 0; k < item.typeCount; ++k) {
    Expected<Type> t = decodeType(item.types, pos);
    if (!t) {
      const Error& e = t.error();
      return Error{item.typesStart + e.offset, "type[" + std::to_string(k) + "]: " + e.message,
                   e.rule.empty() ? std::string(rules::kInvalidType) : e.rule};
    }
    types.push_back(std::move(t).value());
  }
  if (pos != item.types.size()) {
    return Error{item.typesStart + pos,
                 "the " + std::to_string(item.typeCount) + " types end " + std::to_string(item.types.size() - pos) +
                     " bytes before the end the item's length states",
                 rules::kItemLengthMismatch};
  }
  return types;
}

}  // namespace gdmap
