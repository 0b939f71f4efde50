// gdmap il extract IMAGE: the IL-to-native bounds of every precompiled
// method of a ReadyToRun image. (Registered; being written.)
#include "il_commands.hpp"

namespace gdmap::cli {

void addIlExtractCommand(CLI::App& /*il*/, int& /*status*/) {}

}  // namespace gdmap::cli
