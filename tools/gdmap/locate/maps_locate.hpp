#pragma once
// `il locate --maps FILE ADDRESS...` without an IMAGE (maps_locate.cpp):
// each address answered in the ReadyToRun image the process's memory map
// says it is in.
#include "app/il_commands.hpp"
#include "common/report.hpp"

#include <string>
#include <vector>

namespace gdmap::cli {

// `texts`: the addresses (IMAGE's operand among them, when it is one).
int locateMaps(const IlLocateOptions& options, const std::vector<std::string>& texts, Report& report);

}  // namespace gdmap::cli
