// gdmap dump MAP [-o OUT.json]: a map's content as a description.
#include "commands.hpp"
#include "diagnostic_output.hpp"
#include "exit_status.hpp"
#include "file_io.hpp"

#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/map_dump.hpp>
#include <gdmap/description/description_json.hpp>

#include <iostream>
#include <memory>

namespace gdmap::cli {
namespace {

struct DumpOptions {
  std::string map;
  std::string output = "-";
};

int runDump(const DumpOptions& options) {
  auto input = InputBytes::open(options.map);
  if (!input) {
    printError(input.error().message);
    return kUsageOrIo;
  }
  const CheckReport report = checkMap(input->bytes());
  if (!report.valid) {
    printDiagnostics(report.diagnostics, input->displayName());
    printError(input->displayName() + ": not a valid map; nothing dumped (see `gdmap check`)");
    return kInvalid;
  }
  auto dumped = describeMap(input->bytes());
  if (!dumped) {
    printError(input->displayName() + ": " + dumped.error().message);
    return kInvalid;
  }
  for (const std::string& reason : dumped->rebuildDifferences)
    std::cerr << input->displayName() << ": note: building this description will not give the same bytes: "
              << reason << '\n';
  if (auto written = writeOutput(options.output, writeDescription(dumped->description), OutputKind::Text); !written) {
    printError(written.error().message);
    return kUsageOrIo;
  }
  return kSuccess;
}

}  // namespace

void addDumpCommand(CLI::App& app, int& status) {
  auto options = std::make_shared<DumpOptions>();
  auto* dump = app.add_subcommand("dump", "Write a valid map's content as a JSON description");
  dump->add_option("MAP", options->map, "The map ('-' for stdin)")->required();
  dump->add_option("-o,--output", options->output, "Where to write the description ('-', the default, for stdout)");
  dump->callback([options, &status] { status = runDump(*options); });
}

}  // namespace gdmap::cli
