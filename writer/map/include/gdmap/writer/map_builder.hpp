#pragma once
// Builds the canonical generic dictionary map (FORMAT.md §1): identical items
// stored once, heap items in order of first reference from the final
// directory, shortest integers, directory sorted by RVA with bit 31 set
// unless built unsorted. The output is a pure function of the set of
// (RVA, item bytes) pairs (and the order, when unsorted).
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/map_description.hpp>
#include <gdmap/schema/type.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace gdmap {

// The part of what a map is built from that an error is about, in the
// builder's own terms. An error of MapBuilder or buildMap() says it in its
// fields, never in its message: Error::path is mapPartPath() ("" for the
// whole map) and Error::index the part's index; mapPartOf() reads them
// back. A description's reader turns a part into its JSON pointer
// (description/map).
struct MapPart {
  enum class Kind : std::uint8_t {
    Map,            // the whole map (too-many-dictionaries, heap-too-large)
    Dictionary,     // "dictionaries[i]": dictionary i, in insertion order
    Instantiation,  // "instantiations[i]": a MapDescription's instantiation i (raw item, length)
    Type,           // "instantiations[i].types[t]": its type t
    Offset,         // "layout.offsets[i]": a MapDescription's layout.offsets[i]
    Fill,           // "layout.fill[i]": fill piece i
    Truncate,       // "layout.truncate"
  };
  Kind kind = Kind::Map;
  std::size_t index = 0;  // the dictionary, instantiation, offset or fill piece
  std::size_t type = 0;   // Kind::Type: the type's index in the instantiation
};
std::string mapPartPath(const MapPart& part);
MapPart mapPartOf(const Error& error);
// Names a part that an error's message mentions besides its own (the
// other dictionary of a duplicate RVA, the other writer of a heap byte).
using MapPartName = std::function<std::string(const MapPart& part)>;

class MapBuilder {
 public:
  // sorted = false keeps insertion order and clears bit 31.
  explicit MapBuilder(bool sorted = true);
  ~MapBuilder();
  MapBuilder(MapBuilder&&) noexcept;
  MapBuilder& operator=(MapBuilder&&) noexcept;

  // Capacity hints for pipelines that know their sizes.
  void reserve(std::size_t dictionaries, std::size_t heapBytes);

  // A dictionary at `rva` whose instantiation is `types` (at least one).
  // Fails, adding nothing, when a type does not encode (the encoder's rule;
  // Error::path "types[t]", Error::index t), when `types` is empty
  // (empty-types) or the item would be too large (item-too-large).
  Status add(std::uint32_t rva, std::span<const Type> types);

  // The same with the types already encoded back to back (`typeCount` of
  // them in `typeBytes`); the bytes are trusted, not decoded.
  Status addEncoded(std::uint32_t rva, std::uint32_t typeCount, ByteSpan typeBytes);

  // A dictionary whose heap item is exactly `itemBytes` (length prefix
  // included), written verbatim: the escape hatch for malformed fixtures.
  // An item is at least its length prefix: empty bytes fail (rule
  // empty-raw-item), adding nothing, since an empty item would share its
  // heap offset with the next item and read as that item. Any other bytes
  // are accepted, even a wrong or truncated length prefix.
  Status addRaw(std::uint32_t rva, ByteSpan itemBytes);

  // Items by handle, for callers that meet one instantiation many times
  // (a description's named instantiations) or learn a dictionary's item
  // after the dictionary (a name defined later in the file): each item is
  // interned once and added by id, in the order the dictionaries come.
  using ItemId = std::uint32_t;
  // An item not known yet: setItem() must give it before finish().
  static constexpr ItemId kItemLater = 0xFFFFFFFF;
  // The item of `typeCount` types encoded back to back in `typeBytes`
  // (trusted, not decoded), or of `itemBytes` verbatim: the same checks and
  // errors as addEncoded() and addRaw().
  Expected<ItemId> internEncoded(std::uint32_t typeCount, ByteSpan typeBytes);
  Expected<ItemId> internRaw(ByteSpan itemBytes);
  // A dictionary at `rva` whose item is `item` (from intern*, or kItemLater).
  void addItem(std::uint32_t rva, ItemId item);
  // Gives dictionary `index` (in insertion order) its item.
  void setItem(std::size_t index, ItemId item);
  // The order of the map, for a caller that learns it after the dictionaries.
  void setSorted(bool sorted);

  // Overrides (docs/description.md "Overrides"), for fixtures a canonical
  // build cannot write. addItemAt: a dictionary whose item is placed at heap
  // offset `offset` (its directory entry points there; the item may overlap
  // others where their bytes agree). addOffset: a dictionary whose entry
  // points at `offset` with no item of its own (anywhere, even outside the
  // heap). setLayout: the header's count, repeated RVAs allowed, fill and
  // trailing bytes, truncation. Without any of them, finish() writes the
  // canonical map exactly as before.
  void addItemAt(std::uint32_t rva, ItemId item, std::uint32_t offset);
  void addOffset(std::uint32_t rva, std::uint32_t offset);
  void setLayout(LayoutOverrides layout);
  bool sorted() const;
  const LayoutOverrides& layout() const;
  bool hasOverrides() const;
  // Dictionary `index`'s explicit offset, if it was given one.
  std::optional<std::uint32_t> offsetAt(std::size_t index) const;
  // Whether dictionary `index` has an item (not addOffset()).
  bool hasItem(std::size_t index) const;

  std::size_t size() const;
  // Dictionary `index` (in insertion order): its RVA and its item's bytes,
  // length prefix included (empty for addOffset()), for reading a built map
  // back.
  std::uint32_t rvaAt(std::size_t index) const;
  ByteSpan itemAt(std::size_t index) const;
  // Every dictionary's RVA and item id, in insertion order (item is
  // kItemLater until given, or an id no intern*() returned for an
  // addOffset() entry), and how many distinct items there are (ids are
  // below it): a reader of the built map walks them without a call per
  // dictionary, and compares each item's bytes once however many
  // dictionaries share it. Valid until the next add.
  struct Entry {
    std::uint32_t rva = 0;
    ItemId item = 0;
  };
  std::span<const Entry> entries() const;
  // After a finish() that wrote a map without layout overrides: the entry
  // the map's directory lists at `position` (< size()), as the layout
  // ordered them (by RVA for a sorted map, as added otherwise). A reader
  // of the built map walks the directory with it and sorts nothing again.
  Entry directoryAt(std::size_t position) const;
  std::size_t itemCount() const;
  // Item `item`'s bytes (an id from entries() or intern*()), length prefix
  // included.
  ByteSpan itemBytes(ItemId item) const;

  // Lays out the map. Errors, each naming its MapPart: two dictionaries
  // with one RVA (duplicate-rva, at the later one; the message names the
  // other), 2^31 or more dictionaries (too-many-dictionaries), a heap
  // offset of 2^32 or more (heap-too-large); with overrides also
  // placement-conflict, gap-too-large, placements-too-large and
  // truncate-past-end. The builder may be reused after finish() only via a
  // fresh instance.
  Expected<Bytes> finish();
  // The same, the parts a message mentions named by `name` (a
  // description's JSON pointers) instead of mapPartPath().
  Expected<Bytes> finish(const MapPartName& name);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The map a description describes (with its overrides, if it states any:
// dictionaries' `offset`, `layout`). Errors name their MapPart (a
// description's JSON pointer of it: mapPartPointer(), description/map)
// and carry the rule: the MapBuilder ones, the encoder's for a type,
// empty-raw-item for `"raw": ""`, undefined-instantiation for an index out
// of range.
Expected<Bytes> buildMap(const MapDescription& description);

}  // namespace gdmap
