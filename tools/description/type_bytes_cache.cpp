#include "type_bytes_cache.hpp"

#include <gdmap/schema/bytes_hash.hpp>

#include <cstring>

namespace gdmap::description {

std::size_t TypeBytesCache::slotOf(std::uint64_t hash, std::string_view spelling) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    const std::uint32_t occupant = slots_[slot];
    if (occupant == 0) return slot;
    const Entry& e = entries_[occupant - 1];
    if (e.hash == hash && e.keyLength == spelling.size() &&
        (spelling.empty() || std::memcmp(keys_.data() + e.keyOffset, spelling.data(), spelling.size()) == 0))
      return slot;
  }
}

std::optional<ByteSpan> TypeBytesCache::find(std::string_view spelling) const {
  if (slots_.empty()) return std::nullopt;
  const std::uint32_t occupant = slots_[slotOf(hashBytes(spelling), spelling)];
  if (occupant == 0) return std::nullopt;
  const Entry& e = entries_[occupant - 1];
  return ByteSpan(bytes_).subspan(e.bytesOffset, e.bytesLength);
}

void TypeBytesCache::insert(std::string_view spelling, ByteSpan bytes) {
  // Offsets are u32: stop caching well before the arenas could outgrow them.
  constexpr std::size_t kMaxArena = std::size_t{1} << 30;
  if (entries_.size() >= maxEntries_ || keys_.size() + spelling.size() > kMaxArena ||
      bytes_.size() + bytes.size() > kMaxArena)
    return;
  if ((entries_.size() + 1) * 2 > slots_.size()) grow();
  const std::uint64_t hash = hashBytes(spelling);
  const std::size_t slot = slotOf(hash, spelling);
  if (slots_[slot] != 0) return;
  entries_.push_back({hash, static_cast<std::uint32_t>(keys_.size()), static_cast<std::uint32_t>(spelling.size()),
                      static_cast<std::uint32_t>(bytes_.size()), static_cast<std::uint32_t>(bytes.size())});
  keys_.insert(keys_.end(), spelling.begin(), spelling.end());
  bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
  slots_[slot] = static_cast<std::uint32_t>(entries_.size());
}

void TypeBytesCache::grow() {
  const std::size_t size = slots_.empty() ? 256 : slots_.size() * 2;
  slots_.assign(size, 0);
  const std::size_t mask = size - 1;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    std::size_t slot = entries_[i].hash & mask;
    while (slots_[slot] != 0) slot = (slot + 1) & mask;
    slots_[slot] = static_cast<std::uint32_t>(i + 1);
  }
}

}  // namespace gdmap::description
