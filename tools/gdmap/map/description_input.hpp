#pragma once
// A description for build and verify: read and built into the map it
// describes in one streamed pass (buildMapFromDescription); its
// diagnostics, warnings too, go to the report.
#include "common/file_io.hpp"
#include "common/report.hpp"

#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/type_names.hpp>

namespace gdmap::cli {

struct LoadedDescription {
  Bytes map;       // the canonical map it describes, read back and checked
  int status = 0;  // when the map is empty: kInvalid, or kUsageOrIo for gdmap's own failure
  bool ok() const { return status == 0; }
};

LoadedDescription loadDescription(const InputBytes& input, Report& report, const TypeNames* names = nullptr);

}  // namespace gdmap::cli
