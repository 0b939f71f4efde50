#pragma once
// The canonical bytes of the types a description spells, by spelling (ILAsm
// text or hex): a description of a million dictionaries repeats a few
// thousand distinct types, so each is parsed and encoded once and then
// found by a hash of its text. One open-addressing table over two arenas:
// no node, string or vector per entry, and a bounded size (a description of
// only distinct types gets no benefit from caching them and should not hold
// each twice).
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
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::uint64_t hash;
    std::uint32_t keyOffset, keyLength;      // in keys_
    std::uint32_t bytesOffset, bytesLength;  // in bytes_
  };
  std::size_t slotOf(std::uint64_t hash, std::string_view spelling) const;
  void grow();

  std::size_t maxEntries_;
  std::vector<char> keys_;
  Bytes bytes_;
  std::vector<Entry> entries_;
  std::vector<std::uint32_t> slots_;  // 0 empty, else entry index + 1; a power of two
};

}  // namespace gdmap::description
