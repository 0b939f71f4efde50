#pragma once
// `il extract`'s description, written a method at a time (an output of any
// size without a buffer of that size); with --api each method's bounds are
// turned into its GetILToNativeMapping array as it is written.
#include "common/file_io.hpp"
#include "common/report.hpp"

#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/il_map.hpp>

#include <functional>
#include <vector>

namespace gdmap::cli {

// A method's `map` (the API array its bounds and code size give) instead
// of its bounds; the layout overrides of its compressed form, and its
// bounds' source lines, go with the bounds.
void useApiArray(il::Method& method);

// What is done to each method just before it is written (its source lines,
// its API array): a failure stops the output (the file given is left as
// it was) and is reported.
using MethodFinish = std::function<Status(il::Method&)>;

// Writes `methods` as a description, each finished by `finish` (when
// given), then with `api` given its API array. The exit status: kSuccess,
// kInvalid when a finish failed, kUsageOrIo when the output could not be
// written (the failure in `report` either way).
int writeIlDescription(const Output& output, std::vector<il::Method>& methods, bool api, Report& report,
                       const MethodFinish& finish = {});

}  // namespace gdmap::cli
