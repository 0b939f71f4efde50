#pragma once
// A stable LSD radix sort of 64-bit keys by their high 32 bits. gdmap sorts
// (value << 32 | index) keys pushed in index order: the checker's heap
// references, the builder's and the description's RVAs. Stable by the high
// half alone, that orders them by (value, index) in linear time: a pass per
// 11 bits of the largest value (at most three), none when the keys already
// ascend (a sorted description's RVAs), where a comparison sort of a
// million keys costs more than everything else a build does.
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace gdmap {

inline void radixSortByHigh32(std::vector<std::uint64_t>& keys) {
  constexpr unsigned kDigitBits = 11;
  constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
  std::uint32_t maxHigh = 0;
  for (const std::uint64_t k : keys) maxHigh = std::max(maxHigh, static_cast<std::uint32_t>(k >> 32));
  const unsigned bits = static_cast<unsigned>(std::bit_width(maxHigh));
  if (keys.size() < 2 || bits == 0 || std::is_sorted(keys.begin(), keys.end())) return;
  std::vector<std::uint64_t> buffer(keys.size());
  for (unsigned shift = 32; shift < 32 + bits; shift += kDigitBits) {
    std::array<std::size_t, kBuckets> start{};
    for (const std::uint64_t k : keys) ++start[(k >> shift) & (kBuckets - 1)];
    std::size_t sum = 0;
    for (std::size_t& s : start) sum += std::exchange(s, sum);
    for (const std::uint64_t k : keys) buffer[start[(k >> shift) & (kBuckets - 1)]++] = k;
    keys.swap(buffer);
  }
}

}  // namespace gdmap
