#pragma once
// gdmap il locate --perf-script: Linux perf's samples (`perf script
// --show-mmap-events` text) with their .NET frames symbolized, as a filter:
// every line written as it was read, each frame in a ReadyToRun image's
// code followed by its method, IL offset and source line
// (symbolize::PerfScriptAnnotator), each answer written as its line comes.
#include "app/il_commands.hpp"
#include "common/report.hpp"

namespace gdmap::cli {

// Reads options.perfScript (empty or "-": stdin) to its end. A line longer
// than kLongestPerfLine is written through unannotated. Exit 0; 2 when the
// input cannot be read, stdout cannot be written, or options meant for
// addresses are given with it.
int annotatePerfScript(const IlLocateOptions& options, Report& report);

inline constexpr std::size_t kLongestPerfLine = std::size_t{1} << 16;

}  // namespace gdmap::cli
