#pragma once
// A map's content as a description: what `gdmap dump` writes, and what
// `gdmap build` compares its own output against.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/map_description.hpp>

#include <string>
#include <vector>

namespace gdmap {

struct DumpResult {
  MapDescription description;
  // Why rebuilding the description will not give the same bytes (empty when
  // the map is canonical): one sentence each.
  std::vector<std::string> rebuildDifferences;
};

// For a map checkMap() accepts. Items referenced by more than one entry
// become named instantiations ("i0", "i1", ... in heap order); the others are
// inline `types`. Errors (a map checkMap() rejects) carry the byte offset.
Expected<DumpResult> describeMap(ByteSpan map);

// Whether `map` holds exactly the content `description` states (each RVA
// with the same types, or the same raw item bytes; sortedness). The error
// names the first dictionary that differs by its JSON pointer.
Status matchesDescription(ByteSpan map, const MapDescription& description);

}  // namespace gdmap
