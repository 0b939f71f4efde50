#pragma once
// Internal to reader/map: matchesDescription() with its work counted, so
// tests can tell comparing each item once from comparing it per dictionary
// without a clock.
#include <gdmap/reader/map_dump.hpp>

#include <cstddef>

namespace gdmap::detail {

struct MatchWork {
  std::size_t itemsCompared = 0;  // items decoded and compared (or raw bytes compared)
  std::size_t typesDecoded = 0;   // types those items held
};

Status matchesDescription(ByteSpan map, const MapDescription& description, MatchWork& work);

}  // namespace gdmap::detail
