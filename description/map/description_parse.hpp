#pragma once
// parseDescription() with the cost of its diagnostics made visible, for the
// tests that check that cost is linear in the text (work counters, not a
// clock). Private to description/ and its tests.
#include <gdmap/description/description_json.hpp>
#include <gdmap/internal/description_diagnostics.hpp>

#include <string_view>

namespace gdmap::description {

DescriptionParse parseDescription(std::string_view jsonText, DiagnosticWork& work);

}  // namespace gdmap::description
