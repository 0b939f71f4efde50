#pragma once
// Instantiation names to their index in /instantiations, for the millions
// of dictionaries that name one: an ArenaHashSet over one arena of names.
#include <gdmap/internal/arena_hash_set.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::description {

class NameIndex {
 public:
  // The index `name` was added with, or nullopt.
  std::optional<std::size_t> find(std::string_view name) const;
  // The same in two steps, for a caller with several names at hand: the
  // hash, a prefetch of the slot a lookup reads first (a cache miss once
  // the names outgrow the cache), and the lookup with that hash.
  static std::uint64_t hashOf(std::string_view name);
  void prefetch(std::uint64_t hash) const { slots_.prefetch(hash); }
  // After prefetch() has arrived: asks for the name the slot points to,
  // which the lookup compares.
  void prefetchName(std::uint64_t hash) const {
    if (const Slot* s = slots_.likelySlot(hash)) __builtin_prefetch(arena_.data() + s->offset);
  }
  std::optional<std::size_t> find(std::string_view name, std::uint64_t hash) const;
  // Adds `name` with index size(); false (and nothing added) when it is
  // already there.
  bool add(std::string_view name);
  std::size_t size() const { return ends_.size(); }
  // The name added with index `index` (< size()).
  std::string_view name(std::size_t index) const {
    const std::size_t begin = index == 0 ? 0 : ends_[index - 1];
    return std::string_view(arena_.data() + begin, ends_[index] - begin);
  }

 private:
  struct Slot {
    std::uint32_t tag = 0;
    std::uint32_t index = 0;  // 0 empty, else the name's index + 1
    std::size_t offset = 0;   // in arena_
    std::size_t length = 0;
    bool used() const { return index != 0; }
  };
  std::size_t slotOf(std::uint64_t hash, std::string_view name) const;
  std::string_view nameAt(const Slot& s) const { return std::string_view(arena_.data() + s.offset, s.length); }

  // The names back to back in index order, and where each ends.
  detail::HugePageVector<char> arena_;
  detail::HugePageVector<std::size_t> ends_;
  detail::ArenaHashSet<Slot> slots_;
};

}  // namespace gdmap::description
