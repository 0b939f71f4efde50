// layoutMapExact(): the layout with a description's overrides (explicit
// directory offsets, fill, trailing bytes, count, truncation). Only
// descriptions that state overrides come here: layoutMap() stays the one
// path of canonical builds.
#include <gdmap/internal/radix_sort.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>
#include "map_layout.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

namespace gdmap::detail {
namespace {

constexpr std::uint64_t kUnplaced = std::numeric_limits<std::uint64_t>::max();

// One run of bytes the heap receives, and who asks for it: an entry
// (index < entries) or a fill piece (fillFlag | index).
struct HeapWrite {
  std::uint64_t start = 0;
  ByteSpan bytes;
  std::size_t who = 0;
};
constexpr std::size_t kFillFlag = std::size_t{1} << (sizeof(std::size_t) * 8 - 1);
constexpr std::size_t kCanonicalFlag = std::size_t{1} << (sizeof(std::size_t) * 8 - 2);

// The part of the input a write comes from.
MapPart writerPart(std::size_t who) {
  if (who & kFillFlag) return {MapPart::Kind::Fill, who & ~kFillFlag};
  return {MapPart::Kind::Dictionary, who & ~kCanonicalFlag};
}

// The entry at each directory position: by RVA (rvaOrder()'s keys) or as
// given.
struct DirectoryOrder {
  bool sorted;
  const SortKeys& keys;
  std::size_t operator()(std::size_t position) const {
    return sorted ? static_cast<std::uint32_t>(keys[position]) : position;
  }
};

// Items without an explicit offset, where layoutMap() would put them (the
// offset by item, kUnplaced for the others), each written once.
Expected<std::vector<std::uint64_t>> placeCanonically(std::span<const LayoutEntry> entries, const ItemStore& items,
                                                      const std::vector<std::uint64_t>& given,
                                                      const DirectoryOrder& indexAt, std::vector<HeapWrite>& writes) {
  std::vector<std::uint64_t> placed(items.size(), kUnplaced);
  std::uint64_t cursor = 0;
  for (std::size_t p = 0; p < entries.size(); ++p) {
    const std::size_t i = indexAt(p);
    const std::uint32_t item = entries[i].item;
    if (item == kNoItem || given[i] != kUnplaced || placed[item] != kUnplaced) continue;
    if (Status s = checkHeapOffset(cursor); !s) return s.error();
    placed[item] = cursor;
    writes.push_back({cursor, items.item(item), kCanonicalFlag | i});
    cursor += items.item(item).size();
  }
  return placed;
}

// The explicitly placed items, each (offset, item) once: a million entries
// placing one large item at one offset write it once, not a million times.
void placeExplicitly(std::span<const LayoutEntry> entries, const ItemStore& items, const ExplicitLayout& explicitLayout,
                     std::vector<HeapWrite>& writes) {
  std::vector<std::uint64_t> placements;  // offset << 32 | item
  for (const auto& [index, offset] : explicitLayout.offsets) {
    if (entries[index].item != kNoItem) placements.push_back(std::uint64_t{offset} << 32 | entries[index].item);
  }
  std::sort(placements.begin(), placements.end());
  std::vector<bool> written(placements.size(), false);  // by the first of equal keys
  for (const auto& [index, offset] : explicitLayout.offsets) {
    const std::uint32_t item = entries[index].item;
    if (item == kNoItem) continue;
    const std::uint64_t key = std::uint64_t{offset} << 32 | item;
    const auto at =
        static_cast<std::size_t>(std::lower_bound(placements.begin(), placements.end(), key) - placements.begin());
    if (written[at]) continue;
    written[at] = true;
    writes.push_back({offset, items.item(item), index});
  }
}

// Where the heap ends, once the writes are known to stay within what the
// description pays for.
Expected<std::uint64_t> boundedHeapEnd(const std::vector<HeapWrite>& writes, const ItemStore& items,
                                       const LayoutOverrides& layout) {
  std::uint64_t heapEnd = 0, writtenBytes = 0;
  std::size_t last = 0;  // the write that ends last
  for (std::size_t w = 0; w < writes.size(); ++w) {
    if (writes[w].start + writes[w].bytes.size() > heapEnd) {
      heapEnd = writes[w].start + writes[w].bytes.size();
      last = w;
    }
    writtenBytes += writes[w].bytes.size();
  }
  // Each distinct (offset, item) is written once, yet one large item placed
  // at many offsets would make a short description cost the item's size
  // each time: the writes are bounded by the bytes the description gives
  // (its distinct items and fill), so the work stays linear in it.
  std::uint64_t givenBytes = 0;
  for (std::size_t k = 0; k < items.size(); ++k) givenBytes += items.item(k).size();
  for (const auto& piece : layout.fill) givenBytes += piece.bytes.size();
  const std::uint64_t writeBudget = kMaxPlacementCopies * givenBytes + kMaxImplicitGap;
  if (writtenBytes > writeBudget) {
    std::uint64_t sum = 0;
    std::size_t over = 0;
    while (over + 1 < writes.size() && (sum += writes[over].bytes.size()) <= writeBudget) ++over;
    return partError(writerPart(writes[over].who),
                     "the explicit placements write " + std::to_string(writtenBytes) + " heap bytes, more than " +
                         std::to_string(kMaxPlacementCopies) + " times the " + std::to_string(givenBytes) +
                         " bytes of items and fill the description gives, plus " + std::to_string(kMaxImplicitGap) +
                         ": place fewer copies of large items",
                     rules::kPlacementsTooLarge);
  }
  // Zero bytes nobody wrote cost memory the description did not pay for:
  // bounded, so that `"offset": 4000000000` cannot ask for 4 GiB.
  if (heapEnd > writtenBytes + kMaxImplicitGap)
    return partError(writerPart(writes[last].who),
                     "the heap would end at " + shortHex(heapEnd) + ", which leaves " +
                         std::to_string(heapEnd - writtenBytes) +
                         " or more heap bytes that nothing writes (zeros); at most " + std::to_string(kMaxImplicitGap) +
                         " are allowed: give the gap's bytes with /layout/fill, or smaller offsets",
                     rules::kGapTooLarge);
  return heapEnd;
}

// Every write into `heap` (heapEnd bytes, zeros); two writes may meet only
// where their bytes agree.
Status writeHeap(const std::vector<HeapWrite>& writes, std::uint8_t* heap, std::uint64_t heapEnd,
                 const MapPartName& name) {
  std::vector<bool> taken(heapEnd, false);
  for (std::size_t w = 0; w < writes.size(); ++w) {
    const HeapWrite& write = writes[w];
    for (std::size_t k = 0; k < write.bytes.size(); ++k) {
      const std::uint64_t at = write.start + k;
      if (taken[at] && heap[at] != write.bytes[k]) {
        // The earlier write that put the other byte there (errors only).
        std::size_t first = 0;
        while (first < w && !(writes[first].start <= at && at < writes[first].start + writes[first].bytes.size()))
          ++first;
        return partError(writerPart(write.who),
                         "heap byte " + shortHex(at) + " would be " + hex8(write.bytes[k]) + ", but " +
                             name(writerPart(writes[first].who)) + " puts " + hex8(heap[at]) +
                             " there: placed items and fill may overlap only where their bytes agree",
                         rules::kPlacementConflict);
      }
      heap[at] = write.bytes[k];
      taken[at] = true;
    }
  }
  return Success{};
}

}  // namespace

Expected<Bytes> layoutMapExact(bool sorted, std::span<const LayoutEntry> entries, const ItemStore& items,
                               const ExplicitLayout& explicitLayout, const MapPartName& name) {
  const LayoutOverrides& layout = explicitLayout.layout;
  const std::size_t n = entries.size();
  if (Status s = checkEntryCount(n); !s) return s.error();

  Expected<SortKeys> ordered = rvaOrder(entries, !layout.duplicateRvas, name);
  if (!ordered) return ordered.error();
  const DirectoryOrder indexAt{sorted, *ordered};

  std::vector<std::uint64_t> given(n, kUnplaced);
  for (const auto& [index, offset] : explicitLayout.offsets) given[index] = offset;

  std::vector<HeapWrite> writes;
  Expected<std::vector<std::uint64_t>> placed = placeCanonically(entries, items, given, indexAt, writes);
  if (!placed) return placed.error();
  placeExplicitly(entries, items, explicitLayout, writes);
  for (std::size_t f = 0; f < layout.fill.size(); ++f)
    writes.push_back({layout.fill[f].offset, layout.fill[f].bytes, kFillFlag | f});

  const Expected<std::uint64_t> heapEnd = boundedHeapEnd(writes, items, layout);
  if (!heapEnd) return heapEnd.error();
  const auto heapStart = static_cast<std::size_t>(heapStartFor(n));
  Bytes out(heapStart + *heapEnd);
  if (Status s = writeHeap(writes, out.data() + heapStart, *heapEnd, name); !s) return s.error();

  writeU32(out.data(), layout.count.value_or(static_cast<std::uint32_t>(n) | (sorted ? kSortedFlag : 0u)));
  for (std::size_t p = 0; p < n; ++p) {
    const std::size_t i = indexAt(p);
    const std::uint64_t offset = given[i] != kUnplaced ? given[i] : (*placed)[entries[i].item];
    writeU32(out.data() + directoryRvaOffset(p), entries[i].rva);
    writeU32(out.data() + directoryOffsetOffset(p), static_cast<std::uint32_t>(offset));
  }
  out.insert(out.end(), layout.trailing.begin(), layout.trailing.end());
  if (layout.truncate) {
    if (*layout.truncate > out.size())
      return partError(
          {MapPart::Kind::Truncate},
          std::to_string(*layout.truncate) + " bytes asked for, but the map has only " + std::to_string(out.size()),
          rules::kTruncatePastEnd);
    out.resize(static_cast<std::size_t>(*layout.truncate));
  }
  return out;
}

}  // namespace gdmap::detail
