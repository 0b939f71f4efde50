#pragma once
// A zero-copy view over a generic dictionary map held by the caller (the way
// a debugger receives it: a memory buffer). Opening checks only what indexing
// needs (the header and that the directory fits); checkMap() validates the
// rest. Nothing is copied or allocated.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/type.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace gdmap {

inline constexpr std::uint32_t kSortedFlag = 0x80000000u;
inline constexpr std::size_t kHeaderSize = 4;
inline constexpr std::size_t kDirectoryEntrySize = 8;

struct DirectoryEntry {
  std::uint32_t rva = 0;
  std::uint32_t offset = 0;  // relative to the heap's start
};

// One heap item: its length prefix has been read and fits in the heap, and
// its type count has been read. Its types are not validated.
struct ItemView {
  std::uint32_t heapOffset = 0;  // where the item starts, relative to the heap
  std::size_t start = 0;         // the same, as an offset in the whole map
  ByteSpan bytes;                // the whole item, length prefix included
  std::uint32_t typeCount = 0;
  std::size_t typesStart = 0;    // offset in the whole map of type[0]
  ByteSpan types;                // the bytes after the type count
};

class MapView {
 public:
  // Errors: fewer than 4 bytes; a directory that does not fit in the bytes.
  static Expected<MapView> open(ByteSpan bytes);

  bool sorted() const { return sorted_; }
  std::uint32_t size() const { return count_; }
  DirectoryEntry entry(std::uint32_t index) const;  // index < size()
  ByteSpan bytes() const { return bytes_; }
  std::size_t heapStart() const { return kHeaderSize + kDirectoryEntrySize * std::size_t{count_}; }
  ByteSpan heap() const { return bytes_.subspan(heapStart()); }

  // The item at a heap offset: errors when the offset, the length prefix or
  // the type count does not fit, with the byte offset in the map.
  Expected<ItemView> item(std::uint32_t heapOffset) const;

  // The entry with this RVA: a binary search when the map says it is sorted
  // (a map that lies about that may then miss; checkMap() finds such lies),
  // a linear scan otherwise.
  std::optional<std::uint32_t> find(std::uint32_t rva) const;

 private:
  MapView(ByteSpan bytes, std::uint32_t count, bool sorted) : bytes_(bytes), count_(count), sorted_(sorted) {}
  ByteSpan bytes_;
  std::uint32_t count_ = 0;
  bool sorted_ = false;
};

// The decoded types of an item (all of them, exactly filling it).
Expected<std::vector<Type>> decodeItemTypes(const ItemView& item);

}  // namespace gdmap
