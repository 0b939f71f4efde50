#pragma once
// The self-check of a streamed build: does the map hold, for every
// dictionary given to the MapBuilder, that RVA with that item's bytes?
// Read with the reader's MapView, independent of the layout code that wrote
// it, and by bytes: no Type is rebuilt.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/writer/map_builder.hpp>

namespace gdmap::description {

// Success, or the first dictionary (in insertion order) the map does not
// hold as given, and why. Linear when the RVAs were added in ascending order
// or the map is unsorted, else a binary search per dictionary; allocates
// nothing.
Status readsBack(ByteSpan map, const MapBuilder& built);

}  // namespace gdmap::description
