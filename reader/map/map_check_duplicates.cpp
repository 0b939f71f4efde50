// findDuplicateItems(): items with the same bytes, found by hashing, with
// collisions (accidental or crafted) resolved by sorting, not by comparing
// every pair.
#include "map_check_analysis.hpp"

#include <gdmap/internal/bytes_hash.hpp>
#include <gdmap/internal/radix_sort.hpp>

#include <algorithm>

namespace gdmap::detail {

std::uint64_t hashItemContent(ByteSpan bytes) { return hashBytes(bytes); }

std::vector<std::pair<std::uint32_t, std::uint32_t>> findDuplicateItems(std::span<const ByteSpan> items,
                                                                        ItemHash hash) {
  // (high half of the hash << 32 | index), radix-sorted: runs of equal
  // hash halves, each in index order. Items that share a half but differ
  // are told apart by content below, like any other collision.
  std::vector<std::uint64_t> byHash;
  byHash.reserve(items.size());
  for (std::uint32_t i = 0; i < items.size(); ++i) byHash.push_back((hash(items[i]) >> 32) << 32 | i);
  radixSortByHigh32(byHash);

  const auto same = [&](std::uint32_t x, std::uint32_t y) { return std::ranges::equal(items[x], items[y]); };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> duplicates;
  std::vector<std::uint32_t> run;
  for (std::size_t runStart = 0; runStart < byHash.size();) {
    std::size_t runEnd = runStart + 1;
    while (runEnd < byHash.size() && byHash[runEnd] >> 32 == byHash[runStart] >> 32) ++runEnd;
    run.clear();
    for (std::size_t k = runStart; k < runEnd; ++k) run.push_back(static_cast<std::uint32_t>(byHash[k]));
    runStart = runEnd;
    // Usually a run is one content: one comparison per item with the first.
    // Otherwise sort it by content (stable: equal items keep index order,
    // so each group starts with its earliest item), n log n comparisons
    // where comparing every pair would be quadratic.
    const bool oneContent =
        std::all_of(run.begin() + 1, run.end(), [&](std::uint32_t x) { return same(x, run.front()); });
    if (!oneContent) {
      std::stable_sort(run.begin(), run.end(), [&](std::uint32_t x, std::uint32_t y) {
        return std::ranges::lexicographical_compare(items[x], items[y]);
      });
    }
    for (std::size_t k = 1, group = 0; k < run.size(); ++k) {
      if (oneContent || same(run[k], run[group])) {
        duplicates.emplace_back(run[k], run[group]);
      } else {
        group = k;
      }
    }
  }
  std::sort(duplicates.begin(), duplicates.end());
  return duplicates;
}

}  // namespace gdmap::detail
