#pragma once
// The text of a description's overrides, shared by writeDescription() and
// the exact dump: one spelling of `"offset"` and of /layout.
#include <gdmap/schema/map_description.hpp>

#include <cstdint>
#include <string>

namespace gdmap::description {

// `, "offset": "0x000000nn"`, appended inside a dictionary's line.
void appendDictionaryOffset(std::uint32_t offset, std::string& out);
// `,\n  "layout": {...}` after /dictionaries, nothing when it has no key
// (its offsets are written in their dictionaries).
void appendLayout(const LayoutOverrides& layout, std::string& out);

}  // namespace gdmap::description
