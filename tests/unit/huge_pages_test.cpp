// The large internal tables' allocator (gdmap/internal/huge_pages.hpp).
#include <gdmap/internal/huge_pages.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <numeric>

using gdmap::detail::HugePageVector;
using gdmap::detail::kHugePage;
using gdmap::detail::kHugePageTableMinimum;

namespace {
std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }
}  // namespace

TEST_CASE("HugePageVector: a large table starts on a huge page, keeps its values as it grows, and frees") {
  HugePageVector<std::uint64_t> v(kHugePageTableMinimum / sizeof(std::uint64_t) + 3);
  CHECK(address(v.data()) % kHugePage == 0);
  std::iota(v.begin(), v.end(), std::uint64_t{7});
  // Growing past the capacity moves every value into a new aligned table.
  const std::size_t before = v.size();
  for (std::size_t i = 0; i < before; ++i) v.push_back(i);
  CHECK(address(v.data()) % kHugePage == 0);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < before; ++i) wrong += (v[i] != 7 + i) + (v[before + i] != i);
  CHECK(wrong == 0);
  // Assigning a small size keeps the large buffer; a fresh small vector uses
  // the ordinary allocator (no alignment to ask of it).
  v.assign(5, 1);
  CHECK(v.size() == 5);
  HugePageVector<std::uint8_t> small(kHugePageTableMinimum - 1, 3);
  CHECK(small.size() == kHugePageTableMinimum - 1);
  CHECK(small.back() == 3);
}

TEST_CASE("HugePageVector: copies, moves and swaps between vectors of either size") {
  HugePageVector<std::uint32_t> large(kHugePageTableMinimum / sizeof(std::uint32_t), 9);
  HugePageVector<std::uint32_t> small(10, 4);
  HugePageVector<std::uint32_t> copy = large;
  CHECK(copy == large);
  CHECK(address(copy.data()) % kHugePage == 0);
  large.swap(small);
  CHECK(large.size() == 10);
  CHECK(small.size() == kHugePageTableMinimum / sizeof(std::uint32_t));
  HugePageVector<std::uint32_t> moved = std::move(small);
  CHECK(moved.back() == 9);
}
