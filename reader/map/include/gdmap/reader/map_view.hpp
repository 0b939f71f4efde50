#pragma once
// A zero-copy view over a generic dictionary map held by the caller (the way
// a debugger receives it: a memory buffer). Opening checks only what indexing
// needs (the header and that the directory fits); find() checks the order
// it relies on; checkMap() validates the rest. Nothing is copied or
// allocated. Errors carry a rule id (docs/errors.md, "Maps: validity").
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/map_format.hpp>
#include <gdmap/schema/type.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace gdmap {

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
  std::size_t typesStart = 0;  // offset in the whole map of type[0]
  ByteSpan types;              // the bytes after the type count
};

class MapView {
 public:
  // Errors: fewer than 4 bytes (stream-too-short); a directory that does
  // not fit in the bytes (directory-truncated). O(1): the order of the
  // directory is not looked at until find() needs it.
  static Expected<MapView> open(ByteSpan bytes);

  MapView(const MapView& other) : bytes_(other.bytes_), count_(other.count_), sorted_(other.sorted_) {
    order_.store(other.order_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  }
  MapView& operator=(const MapView& other) {
    bytes_ = other.bytes_;
    count_ = other.count_;
    sorted_ = other.sorted_;
    order_.store(other.order_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    return *this;
  }

  bool sorted() const { return sorted_; }
  std::uint32_t size() const { return count_; }
  // index < size(). Inline: every walk over the directory calls it.
  DirectoryEntry entry(std::uint32_t index) const {
    // open() proved the whole directory is present: index < size() is the
    // caller's part, so the two u32s are read without a cursor.
    const auto at = static_cast<std::size_t>(directoryEntryOffset(index));
    return DirectoryEntry{readU32(bytes_, at), readU32(bytes_, at + 4)};
  }
  ByteSpan bytes() const { return bytes_; }
  std::size_t heapStart() const { return static_cast<std::size_t>(heapStartFor(count_)); }
  ByteSpan heap() const { return bytes_.subspan(heapStart()); }

  // The item at a heap offset. Errors, at the byte offset in the map:
  // offset-outside-heap, invalid-compressed-int (the length prefix, or the
  // type count read within the item), item-length-outside-heap.
  Expected<ItemView> item(std::uint32_t heapOffset) const;

  // The index of the entry with this RVA, or nullopt when no entry has it.
  // Never answers from an order the map has not earned:
  // - bit 31 set: a binary search, once the directory has been verified
  //   strictly ascending (O(n) on the first call, then cached in the view;
  //   safe to call from several threads). If it is not, every call fails
  //   with rva-not-ascending at the first entry out of order.
  // - bit 31 clear: a linear scan of the whole directory; the RVA at two
  //   entries fails with duplicate-rva at the second.
  // The error's offset is the offending directory[i].rva field's byte
  // (mapFieldPath() in map_compare.hpp names it); the message names both
  // entries involved.
  Expected<std::optional<std::uint32_t>> find(std::uint32_t rva) const;

  // What find() checks of a sorted map: success, or the rva-not-ascending
  // error. Always success for an unsorted map.
  Status checkOrder() const;

 private:
  MapView(ByteSpan bytes, std::uint32_t count, bool sorted) : bytes_(bytes), count_(count), sorted_(sorted) {}
  std::uint64_t orderState() const;

  ByteSpan bytes_;
  std::uint32_t count_ = 0;
  bool sorted_ = false;
  // checkOrder()'s verdict: 0 not yet known, 1 ascending, else
  // (index << 1) with the index of the first entry out of order (>= 1).
  // Recomputing it gives the same value, so relaxed stores are enough.
  mutable std::atomic<std::uint64_t> order_{0};
};

// The decoded types of an item (all of them, exactly filling it). Errors:
// zero-type-count, type-count-exceeds-item, the type decoder's rule for a
// bad type (invalid-type when it names none), item-length-mismatch.
Expected<std::vector<Type>> decodeItemTypes(const ItemView& item);

}  // namespace gdmap
