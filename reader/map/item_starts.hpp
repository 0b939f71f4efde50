#pragma once
// Internal to reader/map: the set of heap offsets the directory references, as
// one bit per heap byte. Marking is O(1) per entry; listing the items in
// heap order is one sweep over the words; an offset's item index (its rank)
// is O(1). It replaces sorting the entries by offset, which cost a
// (offset, entry) pair per entry plus a sort buffer as large.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gdmap::detail {

class ItemStarts {
 public:
  explicit ItemStarts(std::size_t heapSize) : words_((heapSize + 63) / 64) {}

  // Marks `offset`; returns whether it was marked before.
  bool mark(std::uint32_t offset) {
    std::uint64_t& word = words_[offset / 64];
    const std::uint64_t bit = std::uint64_t{1} << (offset % 64);
    const bool before = (word & bit) != 0;
    word |= bit;
    return before;
  }

  // How many offsets are marked.
  std::size_t count() const {
    std::size_t n = 0;
    for (const std::uint64_t w : words_) n += bitCount(w);
    return n;
  }

  // Numbers the marked offsets 0, 1, ... in heap order and calls
  // `visit(offset)` for each; rank() is usable afterwards.
  template <typename Visit>
  void number(Visit&& visit) {
    ranks_.resize(words_.size());
    std::uint32_t rank = 0;
    for (std::size_t w = 0; w < words_.size(); ++w) {
      ranks_[w] = rank;
      for (std::uint64_t bits = words_[w]; bits != 0; bits &= bits - 1) {
        visit(static_cast<std::uint32_t>(w * 64 + static_cast<unsigned>(std::countr_zero(bits))));
        ++rank;
      }
    }
  }

  // The number of marked offsets below `offset` (a marked one).
  std::uint32_t rank(std::uint32_t offset) const {
    const std::uint64_t below = words_[offset / 64] & ((std::uint64_t{1} << (offset % 64)) - 1);
    return ranks_[offset / 64] + bitCount(below);
  }

 private:
  // std::popcount becomes a library call on baseline x86-64 (no POPCNT);
  // this is the same count in a dozen inline instructions.
  static std::uint32_t bitCount(std::uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555u;
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
    return static_cast<std::uint32_t>((x * 0x0101010101010101u) >> 56);
  }

  std::vector<std::uint64_t> words_;
  std::vector<std::uint32_t> ranks_;
};

}  // namespace gdmap::detail
