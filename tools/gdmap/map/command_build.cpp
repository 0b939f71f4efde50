// gdmap build: the canonical map of a description.
#include "app/commands.hpp"
#include "app/exit_status.hpp"
#include "common/file_io.hpp"
#include "common/input_kind.hpp"
#include "common/report.hpp"
#include "common/type_names_input.hpp"
#include "map/description_input.hpp"

#include <gdmap/schema/rules.hpp>

#include <memory>
#include <string>

namespace gdmap::cli {
namespace {

int build(const BuildOptions& options, Report& report) {
  std::optional<Output> output;
  auto input =
      openInputAndOutput(options.description, options.output, OutputKind::Binary, output, report, InputContent::Json);
  if (!input) return kUsageOrIo;
  std::unique_ptr<TypeNames> names;
  if (!options.names.empty() && !(names = loadTypeNames(options.names, report))) return kUsageOrIo;
  // loadDescription() reads the built map back before it is published.
  const LoadedDescription loaded = loadDescription(*input, report, names.get());
  if (!loaded.ok()) {
    if (loaded.status == kInvalid) noteBinaryNotDescription(*input, report);
    return loaded.status;
  }
  const ByteSpan map(loaded.map);
  const std::string_view data(reinterpret_cast<const char*>(map.data()), map.size());
  if (!output->write(data, report)) return kUsageOrIo;
  if (report.json()) {
    report.object().string("output", options.output);
    report.object().number("size", map.size());
  }
  return kSuccess;
}

}  // namespace

int runBuild(const BuildOptions& options, Report& report) {
  report.nameInput(options.description);
  return runToOutput(build, options, report, {"output", "size"});
}

}  // namespace gdmap::cli
