#pragma once
// Internal to reader/map: the one pass over a map that checkMap() reports from
// and checkCanonical() judges the layout from.
#include <gdmap/internal/huge_pages.hpp>
#include <gdmap/reader/map_check.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace gdmap::detail {

// One distinct heap item (however many entries share it).
struct CheckedItem {
  std::uint32_t heapOffset = 0;
  std::uint32_t firstEntry = 0;  // the lowest directory index that references it
  std::size_t end = 0;           // absolute end offset; 0 when the length prefix is unusable
  bool wellFormed = false;       // length, count and types all valid, filling the item exactly
};

struct MapAnalysis {
  bool directoryRead = false;  // header and directory fit; the fields below are meaningful
  bool sorted = false;
  std::uint32_t count = 0;
  std::size_t heapStart = 0;
  detail::HugePageVector<CheckedItem> items;  // in heap order, one per distinct in-heap offset
  std::vector<Diagnostic> firstOfRule;        // filled only when asked for
  // The first entry whose newly referenced item (items[unorderedItem]) is
  // not items[expectedItem], the next in heap order (kNoEntry: none). When
  // the items tile the heap, that is where the canonical order of first
  // reference breaks.
  std::uint32_t firstUnorderedEntry = 0xFFFFFFFF;
  std::uint32_t unorderedItem = 0;
  std::uint32_t expectedItem = 0;
  // The work of decoding items, counted so tests can tell linear from
  // quadratic without a clock: items whose header and types were read, and
  // the bytes read doing so (re-reads past an item's end included).
  std::size_t itemsDecoded = 0;
  std::size_t itemBytesRead = 0;
};
inline constexpr std::uint32_t kNoEntry = 0xFFFFFFFF;

// The canonical verdict (checkCanonical) from an analysis made with
// wantFirstOfRule, and the report it filled.
CanonicalReport judgeCanonical(const MapAnalysis& a, const CheckReport& report);

// Which items repeat the bytes of an earlier one: (index, index of the
// earliest item with the same bytes) pairs, sorted. Linear for distinct
// contents and for many copies of one; a hash collision costs a sort of
// the colliding items, never a comparison of every pair. `hash` is a
// parameter so tests can force collisions.
using ItemHash = std::uint64_t (*)(ByteSpan);
std::uint64_t hashItemContent(ByteSpan bytes);
std::vector<std::pair<std::uint32_t, std::uint32_t>> findDuplicateItems(std::span<const ByteSpan> items,
                                                                        ItemHash hash = hashItemContent);

// Runs every check, counting into `report` (diagnostics kept up to
// options.maxDiagnostics, sorted by offset). With `wantFirstOfRule`, also
// keeps the first finding of each rule regardless of the limit.
MapAnalysis analyzeMap(ByteSpan map, const CheckOptions& options, CheckReport& report, bool wantFirstOfRule);

}  // namespace gdmap::detail
