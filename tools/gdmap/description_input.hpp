#pragma once
// A description for build and verify: parsed (its diagnostics, warnings
// too, go to the report) and built into the map it describes.
#include "file_io.hpp"
#include "report.hpp"

#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/map_description.hpp>

#include <optional>

namespace gdmap::cli {

struct LoadedDescription {
  MapDescription description;
  Bytes map;  // the canonical map it describes
};

// Empty when the description is invalid (status 1; the reasons are in the
// report).
std::optional<LoadedDescription> loadDescription(const InputBytes& input, Report& report);

}  // namespace gdmap::cli
