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
#include <memory>
#include <span>

namespace gdmap {

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
  // Fails, adding nothing, when a type does not encode.
  Status add(std::uint32_t rva, std::span<const Type> types);

  // The same with the types already encoded back to back (`typeCount` of
  // them in `typeBytes`); the bytes are trusted, not decoded.
  Status addEncoded(std::uint32_t rva, std::uint32_t typeCount, ByteSpan typeBytes);

  // A dictionary whose heap item is exactly `itemBytes` (length prefix
  // included), written verbatim: the escape hatch for malformed fixtures.
  void addRaw(std::uint32_t rva, ByteSpan itemBytes);

  std::size_t size() const;

  // Lays out the map. Errors: two dictionaries with one RVA (the message
  // names both by insertion index), 2^31 or more dictionaries, a heap offset
  // of 2^32 or more. The builder may be reused after finish() only via
  // a fresh instance.
  Expected<Bytes> finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The map a description describes. Errors name the description's JSON
// pointer in their message (for a duplicate RVA, both dictionaries').
Expected<Bytes> buildMap(const MapDescription& description);

}  // namespace gdmap
