#pragma once
// The canonical bytes of the types a description spells, by spelling (ILAsm
// text or hex): a description of a million dictionaries repeats a few
// thousand distinct types, so each is parsed and encoded once and then
// found by a hash of its text. An ArenaHashSet over one arena that holds
// each spelling followed by its bytes, of bounded size (a description of
// only distinct types gets no benefit from caching them and should not hold
// each twice).
#include <gdmap/internal/arena_hash_set.hpp>
#include <gdmap/schema/bytes.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace gdmap::description {

class TypeBytesCache {
 public:
  explicit TypeBytesCache(std::size_t maxEntries) : maxEntries_(maxEntries) {}

  // The bytes stored for `spelling`, valid until the next insert().
  std::optional<ByteSpan> find(std::string_view spelling) const;
  // Stores `bytes` for `spelling` (not already present); does nothing once
  // the cache holds maxEntries.
  void insert(std::string_view spelling, ByteSpan bytes);
  std::size_t size() const { return entries_; }

 private:
  // A used slot points past the arena's first byte (an empty spelling
  // with no bytes is still an entry).
  struct Slot {
    std::uint32_t tag = 0;
    std::uint32_t offset = 0;  // in arena_: the spelling, then its bytes
    std::uint32_t keyLength = 0;
    std::uint32_t bytesLength = 0;
    bool used() const { return offset != 0; }
  };
  // The slot holding `spelling`, or the empty one where it would go.
  std::size_t slotOf(std::uint64_t hash, std::string_view spelling) const;
  std::string_view spellingAt(const Slot& s) const {
    return std::string_view(reinterpret_cast<const char*>(arena_.data() + s.offset), s.keyLength);
  }

  std::size_t maxEntries_;
  std::size_t entries_ = 0;
  // Starts with one unused byte, so that offset 0 can mean "empty slot".
  detail::HugePageVector<std::uint8_t> arena_ = detail::HugePageVector<std::uint8_t>(1, 0);
  detail::ArenaHashSet<Slot> slots_;
};

}  // namespace gdmap::description
