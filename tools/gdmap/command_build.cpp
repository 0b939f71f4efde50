// gdmap build DESC.json -o MAP.gdmap: the canonical map of a description.
#include "commands.hpp"
#include "description_input.hpp"
#include "diagnostic_output.hpp"
#include "exit_status.hpp"
#include "file_io.hpp"

#include <gdmap/reader/map_dump.hpp>

#include <memory>
#include <string>

namespace gdmap::cli {
namespace {

struct BuildOptions {
  std::string description;
  std::string output = "-";
};

int runBuild(const BuildOptions& options) {
  int status = kSuccess;
  auto loaded = loadDescription(options.description, status);
  if (!loaded) return status;
  const ByteSpan map(loaded->map);
  // The builder's output is read back before it is published: a map that
  // does not say what the description says is a bug, and must not land.
  if (auto same = matchesDescription(map, loaded->description); !same) {
    printError("internal error: the built map does not read back as its description: " +
               same.error().message + "; no output written");
    return kUsageOrIo;
  }
  const std::string_view data(reinterpret_cast<const char*>(map.data()), map.size());
  if (auto written = writeOutput(options.output, data, OutputKind::Binary); !written) {
    printError(written.error().message);
    return kUsageOrIo;
  }
  return kSuccess;
}

}  // namespace

void addBuildCommand(CLI::App& app, int& status) {
  auto options = std::make_shared<BuildOptions>();
  auto* build = app.add_subcommand("build", "Build the canonical map a JSON description describes");
  build->add_option("DESCRIPTION", options->description, "The JSON description ('-' for stdin)")->required();
  build->add_option("-o,--output", options->output,
                    "Where to write the map ('-', the default, for stdout; refused on a terminal)");
  build->callback([options, &status] { status = runBuild(*options); });
}

}  // namespace gdmap::cli
