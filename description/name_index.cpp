#include "name_index.hpp"

#include <gdmap/internal/bytes_hash.hpp>

namespace gdmap::description {
namespace {

std::uint32_t tagOf(std::uint64_t hash) { return static_cast<std::uint32_t>(hash >> 32); }

}  // namespace

std::size_t NameIndex::slotOf(std::uint64_t hash, std::string_view name) const {
  const std::size_t mask = slots_.size() - 1;
  const std::uint32_t tag = tagOf(hash);
  for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    const Slot& s = slots_[slot];
    if (s.index == 0) return slot;
    if (s.tag == tag && std::string_view(arena_).substr(s.offset, s.length) == name) return slot;
  }
}

std::optional<std::size_t> NameIndex::find(std::string_view name) const {
  if (slots_.empty()) return std::nullopt;
  const Slot& s = slots_[slotOf(hashBytes(name), name)];
  if (s.index == 0) return std::nullopt;
  return s.index - 1;
}

bool NameIndex::add(std::string_view name) {
  if ((size_ + 1) * 2 > slots_.size()) grow();
  const std::uint64_t hash = hashBytes(name);
  Slot& s = slots_[slotOf(hash, name)];
  if (s.index != 0) return false;
  s = Slot{tagOf(hash), static_cast<std::uint32_t>(size_ + 1), arena_.size(), name.size()};
  arena_ += name;
  ++size_;
  return true;
}

void NameIndex::grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.index == 0) continue;
    std::size_t slot = hashBytes(std::string_view(arena_).substr(s.offset, s.length)) & mask;
    while (slots_[slot].index != 0) slot = (slot + 1) & mask;
    slots_[slot] = s;
  }
}

}  // namespace gdmap::description
