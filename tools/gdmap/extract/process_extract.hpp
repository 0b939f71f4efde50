#pragma once
// `il extract --pid PID` and `il extract CORE` (process_extract.cpp).
#include "app/il_commands.hpp"
#include "common/file_io.hpp"
#include "common/report.hpp"

namespace gdmap::cli {

// Whether every option given applies to a process: --names, --component,
// --composite and --strict are an image's (a usage error naming the first
// one given otherwise, in `report`).
bool checkProcessOptions(const IlExtractOptions& options, Report& report);

// `core`: the core dump IMAGE named (already opened); none with --pid.
// `output`: resolved by the caller (against the core file).
int extractProcess(const IlExtractOptions& options, std::optional<InputBytes> core, const Output& output,
                   Report& report);

}  // namespace gdmap::cli
