#pragma once
// Internal to the writer: the pieces MapBuilder and buildMap() share. Item
// bytes are interned in one arena (identical items stored once, no
// allocation per item), and layoutMap() turns (RVA, item) pairs into the
// canonical bytes of FORMAT.md §1.
#include <gdmap/internal/arena_hash_set.hpp>
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/map_description.hpp>
#include <gdmap/schema/map_format.hpp>
#include <gdmap/writer/map_builder.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace gdmap::detail {

// N dictionaries fit in the 31 bits of the header's count.
Status checkEntryCount(std::uint64_t entries);
// An item can start at this heap offset (the directory stores it as a u32).
Status checkHeapOffset(std::uint64_t heapOffset);
// A raw item is at least one byte: an empty one has no offset of its own
// (the directory would point at whatever item follows it). Only emptiness
// is refused: a raw item may carry a wrong or truncated length prefix on
// purpose (fixtures of malformed maps).
Status checkRawItem(ByteSpan item);
// L, the length prefix of an item of `typeCount` types taking `typeBytes`
// bytes: errors when T is 0 or too large, or when L has no compressed form.
Expected<std::uint32_t> itemLength(std::uint64_t typeCount, std::uint64_t typeBytes);

// Heap items by content: interning the same bytes twice gives the same index.
class ItemStore {
 public:
  void reserve(std::size_t items, std::size_t bytes);
  // An item made of compressed L, compressed T, then `types` (L and T as
  // itemLength() computed them).
  std::uint32_t internTyped(std::uint32_t length, std::uint32_t typeCount, ByteSpan types);
  // An item given verbatim, length prefix included: at least one byte
  // (checkRawItem()), or it would share its offset with the next item.
  std::uint32_t internRaw(ByteSpan item);

  // Interning in two steps, for a caller with several items at hand: the
  // hash of a whole item (length prefix included), a prefetch of the slot
  // it probes first (so that the probe, a cache miss once the table
  // outgrows the cache, overlaps other work), then the item with that hash.
  static std::uint64_t hashOf(ByteSpan item);
  void prefetch(std::uint64_t hash) const { slots_.prefetch(hash); }
  // Then, each once the one before has arrived: the record the slot
  // points to, and the stored item's bytes, which the lookup compares.
  void prefetchRecord(std::uint64_t hash) const {
    if (const Slot* s = slots_.likelySlot(hash)) __builtin_prefetch(&records_[s->record - 1]);
  }
  void prefetchBytes(std::uint64_t hash) const {
    if (const Slot* s = slots_.likelySlot(hash)) __builtin_prefetch(arena_.data() + records_[s->record - 1].offset);
  }
  std::uint32_t internHashed(ByteSpan item, std::uint64_t hash);

  ByteSpan item(std::uint32_t index) const {
    const Record& r = records_[index];
    return ByteSpan(arena_).subspan(r.offset, r.length);
  }
  std::size_t size() const { return records_.size(); }

 private:
  struct Record {
    std::size_t offset;
    std::size_t length;
    std::uint64_t hash;
  };
  // The candidate item is arena_[begin, end): return the index of an equal
  // item already stored (dropping the candidate) or store it.
  std::uint32_t commit(std::size_t begin);
  std::uint32_t commit(std::size_t begin, std::uint64_t hash);
  void grow();

  HugePageVector<std::uint8_t> arena_;
  HugePageVector<Record> records_;
  struct Slot {
    std::uint32_t tag = 0;
    std::uint32_t record = 0;  // 0 empty, else record index + 1
    bool used() const { return record != 0; }
  };
  ArenaHashSet<Slot> slots_;
};

// Byte hash used by the store (exposed for tests of collisions), seeded
// per process so that inputs cannot be crafted to collide.
std::uint64_t hashItemBytes(ByteSpan bytes);

// An RVA and its item's index in the ItemStore: MapBuilder's entries as
// they are handed to the layout.
using LayoutEntry = MapBuilder::Entry;

// An error about `part`: its path and index say where (mapPartOf() reads
// them back), `message` says what, with no location of its own.
Error partError(const MapPart& part, std::string message, std::string rule);

// Large tables of sort keys (a key a dictionary) live in huge pages.
using SortKeys = HugePageVector<std::uint64_t>;

// (rva << 32 | insertion index) for every entry, radix-sorted: one sort
// orders by RVA and, among equal RVAs, by insertion. With `refuseRepeats`,
// a repeated RVA is duplicate-rva, reported at the repeat that comes first
// in input order (where a reader of the input would look first), at the
// repeat, its message naming the first by `name`.
Expected<SortKeys> rvaOrder(std::span<const LayoutEntry> entries, bool refuseRepeats, const MapPartName& name);

// The canonical map: entries sorted by RVA (bit 31 set) or in the given
// order (bit 31 clear); each distinct referenced item once, in order of first
// reference from the final directory; little-endian u32s. Errors: a shared
// RVA (the earliest repeat in input order is reported), the count and heap
// offset limits. A sorted map leaves in `directory` (when given) the
// directory's entries as (rva << 32 | item) keys, in its order.
Expected<Bytes> layoutMap(bool sorted, std::span<const LayoutEntry> entries, const ItemStore& items,
                          const MapPartName& name, SortKeys* directory = nullptr);

// An entry with no item of its own: its directory offset is given.
inline constexpr std::uint32_t kNoItem = 0xFFFFFFFE;

// The explicit parts of a layout (docs/description.md "Overrides"): the
// entries whose directory offset is given (entry index, offset) and the
// description's /layout.
struct ExplicitLayout {
  std::vector<std::pair<std::size_t, std::uint32_t>> offsets;  // by ascending entry index
  LayoutOverrides layout;
  bool any() const { return !offsets.empty() || layout.any(); }
};

// The map with overrides: the canonical layout for everything not stated
// (items without an offset placed as layoutMap() places them, deduplicated
// among themselves), then the placed items and the fill written at their
// offsets (bytes no one writes are zero), the trailing bytes, the count and
// the truncation. Errors, each at its MapPart (`name` names the other
// part a message mentions): duplicate-rva (unless allowed),
// placement-conflict (two writes disagree on a heap byte), gap-too-large
// (more zero bytes than kMaxImplicitGap), placements-too-large (more heap
// writes than kMaxPlacementCopies times the items and fill given, plus
// kMaxImplicitGap), truncate-past-end, and layoutMap()'s limits. Linear
// apart from sorting the placements.
inline constexpr std::uint64_t kMaxImplicitGap = std::uint64_t{16} << 20;
inline constexpr std::uint64_t kMaxPlacementCopies = 16;
Expected<Bytes> layoutMapExact(bool sorted, std::span<const LayoutEntry> entries, const ItemStore& items,
                               const ExplicitLayout& layout, const MapPartName& name);

}  // namespace gdmap::detail
