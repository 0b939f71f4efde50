#pragma once
// The gdmap subcommands. Each add* function registers one on `app`; when it
// runs, it stores its exit status (exit_status.hpp) in `status`.
#include <CLI/CLI.hpp>

namespace gdmap::cli {

void addSigCommand(CLI::App& app, int& status);
void addBuildCommand(CLI::App& app, int& status);
void addDumpCommand(CLI::App& app, int& status);
void addCheckCommand(CLI::App& app, int& status);
void addVerifyCommand(CLI::App& app, int& status);
void addLookupCommand(CLI::App& app, int& status);
void addIlCommand(CLI::App& app, int& status);
void addHexdumpCommand(CLI::App& app, int& status);
void addDiffCommand(CLI::App& app, int& status);

}  // namespace gdmap::cli
