#pragma once
// The JSON description of a generic dictionary map (docs/description.md;
// schema/gdmap-description.schema.json): reading it with diagnostics that
// say where, and writing it back.
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/map_description.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap {

struct DescriptionParse {
  std::optional<MapDescription> description;  // empty when any error was found
  std::vector<Diagnostic> diagnostics;          // errors and warnings, each with pointer, line and column
};

// Reports every problem it can (unknown keys, duplicate RVAs, undefined
// names, types that do not parse, ...), not only the first. Unused
// instantiation names are warnings.
DescriptionParse parseDescription(std::string_view jsonText);

// Deterministic, human-readable JSON (two-space indent, keys in a fixed
// order, RVAs as "0x0000xxxx" strings, types as ILAsm text, raw items as
// hex) that parseDescription() reads back to the same description.
std::string writeDescription(const MapDescription& description);

}  // namespace gdmap
