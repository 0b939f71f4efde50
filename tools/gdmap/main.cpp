// gdmap: build, read, check and verify .NET Native generic dictionary maps and IL-to-native maps.
#include "commands.hpp"
#include "exit_status.hpp"
#include "report.hpp"
#include "suggest.hpp"

#include <gdmap/schema/rules.hpp>

#include <cstring>
#include <iostream>

namespace {

// Whether the command line asks for --json, looked for before parsing so
// that a usage error is reported in the form asked for.
bool wantsJson(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) return false;  // operands from here on
    if (std::strcmp(argv[i], "--json") == 0) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gdmap::cli;
  CLI::App app{
      "gdmap: build, check, dump and verify .NET Native generic dictionary maps and IL-to-native maps "
      "(GetILToNativeMapping arrays and the runtime's compressed bounds: `gdmap il`), and convert "
      "ECMA-335 type signatures.\nExit status: 0 success/valid/identical, 1 invalid input, a "
      "difference or an RVA or method not found, 2 usage, I/O or internal error.",
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
  addIlCommand(app, status);
  addHexdumpCommand(app, status);
  addDiffCommand(app, status);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" that succeed: printed as CLI11 does.
    if (e.get_exit_code() == 0) return app.exit(e) == 0 ? kSuccess : kUsageOrIo;
    const bool json = wantsJson(argc, argv);
    // A mistyped name gets the nearest one instead of CLI11's message.
    const auto suggestion = suggestForArguments(app, argc, argv);
    if (!suggestion && !json) {
      app.exit(e);
      return kUsageOrIo;
    }
    Report report(json);
    const int code = report.fail(kUsageOrIo, gdmap::rules::kUsage, suggestion ? suggestion->message() : e.what());
    if (!json) std::cerr << "Run `" << suggestion->command << " --help` for more information.\n";
    return report.finish(code);
  }
  return status;
}
