#pragma once
// The subcommands of `gdmap il` (command_il.cpp registers the group). Each
// add function registers one on the `il` group; when it runs, it stores its
// exit status in `status`.
#include <CLI/CLI.hpp>

namespace gdmap::cli {

void addIlBuildCommand(CLI::App& il, int& status);
void addIlDumpCommand(CLI::App& il, int& status);
void addIlCheckCommand(CLI::App& il, int& status);
void addIlVerifyCommand(CLI::App& il, int& status);
void addIlConvertCommand(CLI::App& il, int& status);
void addIlLookupCommand(CLI::App& il, int& status);
void addIlHexdumpCommand(CLI::App& il, int& status);
void addIlExtractCommand(CLI::App& il, int& status);

}  // namespace gdmap::cli
