#pragma once
// A stable LSD radix sort of 64-bit keys by their high 32 bits, for the
// checker's (heap offset << 32 | directory index) references: keys pushed
// in index order come out ordered by (offset, index), in linear time (a
// pass per 11 bits of the largest offset, at most three), where a
// comparison sort of a million keys spends most of `check`.
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace gdmap::detail {

inline void radixSortByHigh32(std::vector<std::uint64_t>& keys) {
  constexpr unsigned kDigitBits = 11;
  constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
  std::uint32_t maxHigh = 0;
  for (const std::uint64_t k : keys) maxHigh = std::max(maxHigh, static_cast<std::uint32_t>(k >> 32));
  const unsigned bits = static_cast<unsigned>(std::bit_width(maxHigh));
  if (keys.size() < 2 || bits == 0) return;
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

}  // namespace gdmap::detail
