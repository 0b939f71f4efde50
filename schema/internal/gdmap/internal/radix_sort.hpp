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
// The keys are read once for their width and order, once for every pass's
// digit counts, then once a pass to move them: a million keys are 8 MB,
// and each read of them costs more than the counting does.
template <class Keys>
void radixSortByHigh32(Keys& keys) {
  if (keys.size() < 2) return;
  std::uint32_t maxHigh = 0;
  bool ascending = true;
  std::uint64_t previous = 0;
  for (const std::uint64_t k : keys) {
    maxHigh = std::max(maxHigh, static_cast<std::uint32_t>(k >> 32));
    ascending = ascending && previous <= k;
    previous = k;
  }
  const unsigned bits = static_cast<unsigned>(std::bit_width(maxHigh));
  if (bits == 0 || ascending) return;
  // As few passes as digits of at most 12 bits allow (4096 counters stay in
  // the L1 cache): 24-bit heap offsets take two, 32-bit RVAs three.
  const unsigned passes = (bits + 11) / 12;
  const unsigned digitBits = (bits + passes - 1) / passes;
  const std::size_t digits = std::size_t{1} << digitBits;
  const std::uint64_t mask = digits - 1;
  std::vector<std::size_t> start(passes * digits);
  for (const std::uint64_t k : keys) {
    for (unsigned pass = 0; pass < passes; ++pass) ++start[pass * digits + ((k >> (32 + pass * digitBits)) & mask)];
  }
  for (unsigned pass = 0; pass < passes; ++pass) {
    std::size_t sum = 0;
    for (std::size_t d = 0; d < digits; ++d) sum += std::exchange(start[pass * digits + d], sum);
  }
  Keys buffer(keys.size());
  for (unsigned pass = 0; pass < passes; ++pass) {
    std::size_t* next = start.data() + pass * digits;
    const unsigned shift = 32 + pass * digitBits;
    for (const std::uint64_t k : keys) buffer[next[(k >> shift) & mask]++] = k;
    keys.swap(buffer);
  }
}

}  // namespace gdmap
