// gdmap diff A B: every difference between two maps or descriptions.
// (Registered; the command itself is being written.)
#include "commands.hpp"

namespace gdmap::cli {

void addDiffCommand(CLI::App& /*app*/, int& /*status*/) {}

}  // namespace gdmap::cli
