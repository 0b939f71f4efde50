// layoutMap(): (RVA, item) pairs -> the canonical bytes of FORMAT.md §1, in
// linear time (one radix sort of packed keys) and one output allocation.
#include "map_layout.hpp"
#include <gdmap/internal/huge_pages.hpp>
#include <gdmap/internal/radix_sort.hpp>
#include <gdmap/schema/compressed_int.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <cstring>
#include <limits>

namespace gdmap::detail {
namespace {

constexpr std::uint64_t kUnplaced = std::numeric_limits<std::uint64_t>::max();

}  // namespace

Status checkEntryCount(std::uint64_t entries) {
  if (entries > kMaxDirectoryEntries)
    return Error{
        0, std::to_string(entries) + " dictionaries: a map holds at most 2^31 - 1 (the header's count has 31 bits)",
        rules::kTooManyDictionaries};
  return Success{};
}

Status checkHeapOffset(std::uint64_t heapOffset) {
  if (heapOffset > kMaxHeapOffset)
    return Error{0,
                 "heap offset " + std::to_string(heapOffset) +
                     " does not fit in a directory entry's 32 bits: the heap is too large",
                 rules::kHeapTooLarge};
  return Success{};
}

Status checkRawItem(ByteSpan item) {
  if (item.size() < kMinItemSize)
    return Error{0,
                 "a raw item needs at least one byte, its length prefix: an empty one would share its heap offset "
                 "with the next item and silently take its content",
                 rules::kEmptyRawItem};
  return Success{};
}

Expected<std::uint32_t> itemLength(std::uint64_t typeCount, std::uint64_t typeBytes) {
  if (typeCount == 0) return Error{0, "an instantiation needs at least one type", rules::kEmptyTypes};
  if (typeCount > kMaxCompressedUInt)
    return Error{0, std::to_string(typeCount) + " types: the type count is at most 0x1FFFFFFF", rules::kItemTooLarge};
  const std::uint64_t length = compressedUIntSize(static_cast<std::uint32_t>(typeCount)) + typeBytes;
  if (length > kMaxItemLength)
    return Error{0, "item length " + std::to_string(length) + " exceeds the largest compressed length 0x1FFFFFFF",
                 rules::kItemTooLarge};
  return static_cast<std::uint32_t>(length);
}

Expected<SortKeys> rvaOrder(std::span<const LayoutEntry> entries, bool refuseRepeats, const MapPartName& name) {
  const std::size_t n = entries.size();
  SortKeys keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = std::uint64_t{entries[i].rva} << 32 | i;
  radixSortByHigh32(keys);
  if (!refuseRepeats) return keys;
  std::size_t repeat = n, repeated = 0;
  for (std::size_t k = 1, groupStart = 0; k < n; ++k) {
    if ((keys[k] >> 32) != (keys[groupStart] >> 32)) {
      groupStart = k;
    } else if (k == groupStart + 1 && static_cast<std::uint32_t>(keys[k]) < repeat) {
      // The group's second member is its earliest repeat.
      repeat = static_cast<std::uint32_t>(keys[k]);
      repeated = static_cast<std::uint32_t>(keys[groupStart]);
    }
  }
  if (repeat != n)
    return partError(
        {MapPart::Kind::Dictionary, repeat},
        "duplicate RVA " + hex32(entries[repeat].rva) + ", also at " + name({MapPart::Kind::Dictionary, repeated}),
        rules::kDuplicateRva);
  return keys;
}

Expected<Bytes> layoutMap(bool sorted, std::span<const LayoutEntry> entries, const ItemStore& items,
                          const MapPartName& name, SortKeys* directory) {
  const std::size_t n = entries.size();
  if (Status s = checkEntryCount(n); !s) return s.error();

  // A sorted map sorts (rva << 32 | item) keys: the directory is then read
  // from the keys in order, with no gather from `entries` (a cache miss a
  // dictionary once they outgrow the cache). Two equal RVAs sit side by
  // side; only then is the order by insertion index needed, to name them.
  // An unsorted map keeps its order and needs that one to find repeats.
  SortKeys keys;
  if (sorted) {
    keys.resize(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = std::uint64_t{entries[i].rva} << 32 | entries[i].item;
    radixSortByHigh32(keys);
    for (std::size_t p = 1; p < n; ++p) {
      if ((keys[p] >> 32) == (keys[p - 1] >> 32)) return rvaOrder(entries, true, name).error();
    }
  } else if (Expected<SortKeys> ordered = rvaOrder(entries, true, name); !ordered) {
    return ordered.error();
  }

  auto entryAt = [&](std::size_t position) -> LayoutEntry {
    return sorted ? LayoutEntry{static_cast<std::uint32_t>(keys[position] >> 32),
                                static_cast<std::uint32_t>(keys[position])}
                  : entries[position];
  };

  // Heap offsets in order of first reference from the final directory.
  HugePageVector<std::uint64_t> placed(items.size(), kUnplaced);
  std::vector<std::uint32_t> heapOrder;
  heapOrder.reserve(items.size());
  std::uint64_t heapSize = 0;
  for (std::size_t p = 0; p < n; ++p) {
    const std::uint32_t item = entryAt(p).item;
    if (placed[item] != kUnplaced) continue;
    if (Status s = checkHeapOffset(heapSize); !s) return s.error();
    placed[item] = heapSize;
    heapOrder.push_back(item);
    heapSize += items.item(item).size();
  }

  const auto heapStart = static_cast<std::size_t>(heapStartFor(n));
  Bytes out;
  out.reserve(heapStart + heapSize);
  adviseHugePages(out.data(), out.capacity());
  out.resize(heapStart + heapSize);
  writeU32(out.data(), static_cast<std::uint32_t>(n) | (sorted ? kSortedFlag : 0u));
  for (std::size_t p = 0; p < n; ++p) {
    const LayoutEntry e = entryAt(p);
    writeU32(out.data() + directoryRvaOffset(p), e.rva);
    writeU32(out.data() + directoryOffsetOffset(p), static_cast<std::uint32_t>(placed[e.item]));
  }
  std::uint8_t* heap = out.data() + heapStart;
  for (std::uint32_t item : heapOrder) {
    const ByteSpan bytes = items.item(item);
    if (!bytes.empty()) std::memcpy(heap + placed[item], bytes.data(), bytes.size());
  }
  if (sorted && directory != nullptr) *directory = std::move(keys);
  return out;
}

}  // namespace gdmap::detail
