// gdmap: build, read, check and verify .NET Native generic dictionary maps.
#include "commands.hpp"
#include "exit_status.hpp"

#include <iostream>

int main(int argc, char** argv) {
  using namespace gdmap::cli;
  CLI::App app{
      "gdmap: build, check, dump and verify .NET Native generic dictionary maps, and convert "
      "ECMA-335 type signatures.\nExit status: 0 success/valid/identical, 1 invalid input, a "
      "difference or an RVA not found, 2 usage, I/O or internal error.",
      "gdmap"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "gdmap " GDMAP_VERSION);
  int status = kSuccess;
  addSigCommand(app, status);
  addBuildCommand(app, status);
  addDumpCommand(app, status);
  addCheckCommand(app, status);
  addVerifyCommand(app, status);
  addLookupCommand(app, status);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kSuccess : kUsageOrIo;
  }
  return status;
}
