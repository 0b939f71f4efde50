#pragma once
// `il locate --pid PID ADDRESS...` and `il locate CORE ADDRESS...`
// (process_locate.cpp).
#include "app/il_commands.hpp"
#include "common/file_io.hpp"
#include "common/report.hpp"

namespace gdmap::cli {

// `core`: the core dump IMAGE named (already opened); none with --pid.
int locateProcess(const IlLocateOptions& options, std::optional<InputBytes> core, Report& report);

}  // namespace gdmap::cli
