#pragma once
// `il extract --pid PID` and `il extract CORE` (process_extract.cpp).
#include "file_io.hpp"
#include "il_commands.hpp"
#include "report.hpp"

namespace gdmap::cli {

// `core`: the core dump IMAGE named (already opened); none with --pid.
int extractProcess(const IlExtractOptions& options, std::optional<InputBytes> core, Report& report);

}  // namespace gdmap::cli
