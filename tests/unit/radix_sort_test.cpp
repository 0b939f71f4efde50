// radixSortByHigh32 (schema/radix_sort.hpp): the same order as a stable sort
// by the high half, for every digit layout it picks.
#include <gdmap/internal/radix_sort.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace {

TEST_CASE("radix sort: stable by the high half, whatever the width of the values") {
  std::mt19937_64 rng(20261123);
  for (const unsigned bits : {1u, 5u, 11u, 12u, 13u, 23u, 24u, 25u, 31u, 32u}) {
    for (const std::size_t n : {0u, 1u, 2u, 100u, 5000u}) {
      CAPTURE(bits);
      CAPTURE(n);
      std::vector<std::uint64_t> keys;
      const std::uint64_t range = std::uint64_t{1} << bits;
      for (std::size_t i = 0; i < n; ++i) {
        // Few distinct values too, so that ties (and their order) matter.
        const std::uint64_t high = rng() % (i % 3 == 0 ? std::min<std::uint64_t>(range, 7) : range);
        keys.push_back(high << 32 | (rng() & 0xFFFFFFFF));
      }
      std::vector<std::uint64_t> expected = keys;
      std::stable_sort(expected.begin(), expected.end(),
                       [](std::uint64_t a, std::uint64_t b) { return a >> 32 < b >> 32; });
      gdmap::radixSortByHigh32(keys);
      CHECK(keys == expected);
    }
  }
  std::vector<std::uint64_t> sorted = {1, 2, 3, std::uint64_t{5} << 32};
  const std::vector<std::uint64_t> same = sorted;
  gdmap::radixSortByHigh32(sorted);  // already ascending: left as is
  CHECK(sorted == same);
}

}  // namespace
