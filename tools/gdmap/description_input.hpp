#pragma once
// Reads a description file for build and verify: parses it, shows its
// diagnostics (warnings too), and builds the map it describes.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/map_description.hpp>

#include <optional>
#include <string>

namespace gdmap::cli {

struct LoadedDescription {
  MapDescription description;
  Bytes map;  // the canonical map it describes
};

// Diagnostics go to stderr; on failure `status` says why (invalid or I/O).
std::optional<LoadedDescription> loadDescription(const std::string& path, int& status);

}  // namespace gdmap::cli
