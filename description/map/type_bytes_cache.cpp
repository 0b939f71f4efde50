#include "type_bytes_cache.hpp"

#include <gdmap/internal/bytes_hash.hpp>
#include <gdmap/internal/huge_pages.hpp>

namespace gdmap::description {

std::size_t TypeBytesCache::slotOf(std::uint64_t hash, std::string_view spelling) const {
  return slots_.slotOf(hash, [&](const Slot& s) { return spellingAt(s) == spelling; });
}

std::optional<ByteSpan> TypeBytesCache::find(std::string_view spelling) const {
  if (slots_.empty()) return std::nullopt;
  const Slot& s = slots_[slotOf(hashBytes(spelling), spelling)];
  if (!s.used()) return std::nullopt;
  return ByteSpan(arena_).subspan(std::size_t{s.offset} + s.keyLength, s.bytesLength);
}

void TypeBytesCache::insert(std::string_view spelling, ByteSpan bytes) {
  // Offsets are u32: stop caching well before the arena could outgrow them.
  constexpr std::size_t kMaxArena = std::size_t{1} << 30;
  if (entries_ >= maxEntries_ || arena_.size() + spelling.size() + bytes.size() > kMaxArena) return;
  // Rehashing needs each spelling's hash: computed again from the arena (a
  // grow is rare, and doubling makes its cost linear overall).
  if (slots_.fullFor(entries_)) slots_.grow(256, [this](const Slot& s) { return hashBytes(spellingAt(s)); });
  const std::uint64_t hash = hashBytes(spelling);
  Slot& s = slots_[slotOf(hash, spelling)];
  if (s.used()) return;
  s = Slot{slots_.tagOf(hash), static_cast<std::uint32_t>(arena_.size()), static_cast<std::uint32_t>(spelling.size()),
           static_cast<std::uint32_t>(bytes.size())};
  arena_.insert(arena_.end(), spelling.begin(), spelling.end());
  arena_.insert(arena_.end(), bytes.begin(), bytes.end());
  ++entries_;
}

}  // namespace gdmap::description
