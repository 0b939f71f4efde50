#pragma once
// What a validator of any format reports (the map's checkMap(), the IL
// reader's checkBounds(), ...): its options and its counted, capped findings.
#include <gdmap/schema/diagnostic.hpp>

#include <cstddef>
#include <vector>

namespace gdmap {

struct CheckOptions {
  bool strict = false;               // warnings count as errors
  std::size_t maxDiagnostics = 100;  // stop collecting after this many
};

struct CheckReport {
  std::vector<Diagnostic> diagnostics;  // in order of offset where possible
  std::size_t errors = 0;
  std::size_t warnings = 0;
  bool truncated = false;  // more problems than maxDiagnostics
  bool valid = false;      // no error (with strict: no warning either)
};

}  // namespace gdmap
