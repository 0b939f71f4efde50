#pragma once
// Writes generic dictionary maps by hand, byte by byte, so a test can build
// exactly the (possibly broken) layout it means: header, directory entries,
// heap bytes. Nothing is validated or reordered.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/map_format.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

namespace gdmap::test {

using gdmap::appendU32;  // little-endian, as the format writes it

class MapBytes {
 public:
  // sorted: bit 31 of the header.
  explicit MapBytes(bool sorted = true) : sorted_(sorted) {}

  // Overrides the whole header word (count and bit 31) with `raw`.
  MapBytes& header(std::uint32_t raw) {
    header_ = raw;
    return *this;
  }
  MapBytes& entry(std::uint32_t rva, std::uint32_t heapOffset) {
    entries_.push_back({rva, heapOffset});
    return *this;
  }
  // Appends raw heap bytes.
  MapBytes& heap(std::initializer_list<std::uint8_t> bytes) {
    heap_.insert(heap_.end(), bytes);
    return *this;
  }
  MapBytes& heap(const Bytes& bytes) {
    heap_.insert(heap_.end(), bytes.begin(), bytes.end());
    return *this;
  }
  // Appends an item with 1-byte length and count (the types must be short)
  // and returns its heap offset.
  std::uint32_t item(std::uint8_t typeCount, const Bytes& types) {
    const auto at = static_cast<std::uint32_t>(heap_.size());
    heap_.push_back(static_cast<std::uint8_t>(types.size() + 1));
    heap_.push_back(typeCount);
    heap_.insert(heap_.end(), types.begin(), types.end());
    return at;
  }
  std::uint32_t item(std::uint8_t typeCount, std::initializer_list<std::uint8_t> types) {
    return item(typeCount, Bytes(types));
  }
  // An entry and a new item for it, in one step.
  MapBytes& add(std::uint32_t rva, std::uint8_t typeCount, std::initializer_list<std::uint8_t> types) {
    return entry(rva, item(typeCount, types));
  }

  std::size_t heapStart() const { return static_cast<std::size_t>(heapStartFor(entries_.size())); }
  std::size_t heapSize() const { return heap_.size(); }

  Bytes bytes() const {
    Bytes out;
    const auto count = static_cast<std::uint32_t>(entries_.size());
    appendU32(out, header_ ? *header_ : (count | (sorted_ ? kSortedFlag : 0u)));
    for (const auto& e : entries_) {
      appendU32(out, e.rva);
      appendU32(out, e.offset);
    }
    out.insert(out.end(), heap_.begin(), heap_.end());
    return out;
  }

 private:
  struct Entry {
    std::uint32_t rva;
    std::uint32_t offset;
  };
  bool sorted_;
  std::optional<std::uint32_t> header_;
  std::vector<Entry> entries_;
  Bytes heap_;
};

}  // namespace gdmap::test
