#include "name_index.hpp"

#include <gdmap/internal/bytes_hash.hpp>
#include <gdmap/internal/huge_pages.hpp>

namespace gdmap::description {

std::size_t NameIndex::slotOf(std::uint64_t hash, std::string_view name) const {
  return slots_.slotOf(hash, [&](const Slot& s) { return nameAt(s) == name; });
}

std::uint64_t NameIndex::hashOf(std::string_view name) { return hashBytes(name); }

std::optional<std::size_t> NameIndex::find(std::string_view name) const { return find(name, hashBytes(name)); }

std::optional<std::size_t> NameIndex::find(std::string_view name, std::uint64_t hash) const {
  if (slots_.empty()) return std::nullopt;
  const Slot& s = slots_[slotOf(hash, name)];
  if (!s.used()) return std::nullopt;
  return s.index - 1;
}

bool NameIndex::add(std::string_view name) {
  if (slots_.fullFor(size())) slots_.grow(64, [this](const Slot& s) { return hashBytes(nameAt(s)); });
  const std::uint64_t hash = hashBytes(name);
  Slot& s = slots_[slotOf(hash, name)];
  if (s.used()) return false;
  s = Slot{slots_.tagOf(hash), static_cast<std::uint32_t>(size() + 1), arena_.size(), name.size()};
  arena_.insert(arena_.end(), name.begin(), name.end());
  ends_.push_back(arena_.size());
  return true;
}

}  // namespace gdmap::description
