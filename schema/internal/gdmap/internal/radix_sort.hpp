#pragma once
// A stable LSD radix sort of 64-bit keys by their high 32 bits. gdmap sorts
// (value << 32 | index) keys pushed in index order: the checker's heap
// references, the builder's and the description's RVAs. Stable by the high
// half alone, that orders them by (value, index) in linear time: a pass per
// 11 bits of the largest value (at most three), none when the keys already
// ascend (a sorted description's RVAs), where a comparison sort of a
// million keys costs more than everything else a build does.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace gdmap {

// `Keys` is a vector of std::uint64_t (a HugePageVector for a large table).
template <class Keys>
void radixSortByHigh32(Keys& keys) {
  std::uint32_t maxHigh = 0;
  for (const std::uint64_t k : keys) maxHigh = std::max(maxHigh, static_cast<std::uint32_t>(k >> 32));
  const unsigned bits = static_cast<unsigned>(std::bit_width(maxHigh));
  if (keys.size() < 2 || bits == 0 || std::is_sorted(keys.begin(), keys.end())) return;
  // As few passes as digits of at most 12 bits allow (4096 counters stay in
  // the L1 cache): 24-bit heap offsets take two, 32-bit RVAs three.
  const unsigned passes = (bits + 11) / 12;
  const unsigned digitBits = (bits + passes - 1) / passes;
  const std::uint64_t mask = (std::uint64_t{1} << digitBits) - 1;
  std::vector<std::size_t> start(std::size_t{1} << digitBits);
  Keys buffer(keys.size());
  for (unsigned shift = 32; shift < 32 + bits; shift += digitBits) {
    std::fill(start.begin(), start.end(), 0);
    for (const std::uint64_t k : keys) ++start[(k >> shift) & mask];
    std::size_t sum = 0;
    for (std::size_t& s : start) sum += std::exchange(s, sum);
    for (const std::uint64_t k : keys) buffer[start[(k >> shift) & mask]++] = k;
    keys.swap(buffer);
  }
}

}  // namespace gdmap
