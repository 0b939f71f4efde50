// gdmap build: the canonical map of a description.
#include "commands.hpp"
#include "description_input.hpp"
#include "exit_status.hpp"
#include "file_io.hpp"
#include "input_kind.hpp"
#include "report.hpp"
#include "type_names_input.hpp"

#include <gdmap/schema/rules.hpp>

#include <memory>
#include <string>

namespace gdmap::cli {
namespace {

int build(const BuildOptions& options, Report& report) {
  auto input = openInput(options.description, report);
  if (!input) return kUsageOrIo;
  // Before any work: `-o DESC.json` must not destroy the description.
  auto output = Output::resolve(options.output, OutputKind::Binary, {input->identity()}, report);
  if (!output) return kUsageOrIo;
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
  const int status = build(options, report);
  if (report.json()) report.object().boolean("written", status == kSuccess);
  return status;
}

}  // namespace gdmap::cli
