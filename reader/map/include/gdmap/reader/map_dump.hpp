#pragma once
// A map's content as a description: what `gdmap dump` writes, and what
// `gdmap build` compares its own output against.
#include <gdmap/reader/map_view.hpp>
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/map_description.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gdmap {

struct DumpResult {
  MapDescription description;
  // Why rebuilding the description will not give the same bytes (empty when
  // the map is canonical): one sentence each.
  std::vector<std::string> rebuildDifferences;
};

// The items a map's directory reaches, each once, in heap order, with how
// many entries reach each. The items several entries share are the ones a
// description names (describeMap(), dumpDescription()), in this order.
struct ReachedItems {
  std::vector<std::uint32_t> offsets;     // heap offsets, ascending
  std::vector<std::uint32_t> references;  // per offset: the entries reaching it
  bool shared(std::size_t k) const { return references[k] >= 2; }
  // The position in `offsets` of an offset some entry reaches.
  std::size_t indexOf(std::uint32_t offset) const;
};
// Reads only the directory (a sort of its offsets).
ReachedItems reachedItems(const MapView& view);

// For a map checkMap() accepts. Items referenced by more than one entry
// become named instantiations ("i0", "i1", ... in heap order); the others are
// inline `types`. Errors (a map checkMap() rejects) carry the byte offset.
Expected<DumpResult> describeMap(ByteSpan map);

// Whether `map` holds exactly the content `description` states (each RVA
// with the same types, or the same raw item bytes; sortedness). The error
// names the first dictionary that differs by its JSON pointer.
Status matchesDescription(ByteSpan map, const MapDescription& description);

}  // namespace gdmap
