#pragma once
// Validation of a generic dictionary map against every rule of FORMAT.md §1,
// and the canonical-form check.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/check_report.hpp>
#include <gdmap/schema/diagnostic.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace gdmap {

CheckReport checkMap(ByteSpan map, const CheckOptions& options = {});

// For a map checkMap() accepts: whether its bytes are exactly what the
// builder writes for its content, and if not, the first canonical rule it
// breaks (rule id, path and a sentence in the Diagnostic).
struct CanonicalReport {
  bool canonical = false;
  std::vector<Diagnostic> reasons;  // empty when canonical
};
CanonicalReport checkCanonical(ByteSpan map);

// checkMap() and, in the same single pass over the map, checkCanonical():
// what `gdmap check` runs. `canonical` is judged only when the map has no
// error (it is left with canonical = false and no reason otherwise).
CheckReport checkMap(ByteSpan map, const CheckOptions& options, CanonicalReport& canonical);

}  // namespace gdmap
