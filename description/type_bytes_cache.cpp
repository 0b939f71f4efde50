#include "type_bytes_cache.hpp"

#include <gdmap/internal/bytes_hash.hpp>

#include <cstring>

namespace gdmap::description {
namespace {

std::uint32_t tagOf(std::uint64_t hash) { return static_cast<std::uint32_t>(hash >> 32); }

}  // namespace

std::size_t TypeBytesCache::slotOf(std::uint64_t hash, std::string_view spelling) const {
  const std::size_t mask = slots_.size() - 1;
  const std::uint32_t tag = tagOf(hash);
  for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    const Slot& s = slots_[slot];
    if (!s.used()) return slot;
    if (s.tag == tag && s.keyLength == spelling.size() &&
        (spelling.empty() || std::memcmp(arena_.data() + s.offset, spelling.data(), spelling.size()) == 0))
      return slot;
  }
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
  if ((entries_ + 1) * 2 > slots_.size()) grow();
  const std::uint64_t hash = hashBytes(spelling);
  Slot& s = slots_[slotOf(hash, spelling)];
  if (s.used()) return;
  s = Slot{tagOf(hash), static_cast<std::uint32_t>(arena_.size()), static_cast<std::uint32_t>(spelling.size()),
           static_cast<std::uint32_t>(bytes.size())};
  arena_.insert(arena_.end(), spelling.begin(), spelling.end());
  arena_.insert(arena_.end(), bytes.begin(), bytes.end());
  ++entries_;
}

void TypeBytesCache::grow() {
  // Rehashing needs each spelling's hash: computed again from the arena
  // (a grow is rare, and doubling makes its cost linear overall).
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 256 : old.size() * 2, Slot{});
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (!s.used()) continue;
    const std::string_view key(reinterpret_cast<const char*>(arena_.data() + s.offset), s.keyLength);
    std::size_t slot = hashBytes(key) & mask;
    while (slots_[slot].used()) slot = (slot + 1) & mask;
    slots_[slot] = s;
  }
}

}  // namespace gdmap::description
