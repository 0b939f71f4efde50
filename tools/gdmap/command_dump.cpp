// gdmap dump MAP [-o OUT.json] [--json]: a map's content as a description.
#include "commands.hpp"
#include "exit_status.hpp"
#include "file_io.hpp"
#include "input_kind.hpp"
#include "progress.hpp"
#include "report.hpp"

#include <gdmap/description/description_json.hpp>
#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/map_dump.hpp>
#include <gdmap/schema/rules.hpp>

#include <memory>

namespace gdmap::cli {
namespace {

struct DumpOptions {
  std::string map;
  std::string output = "-";
  bool json = false;
};

int dump(const DumpOptions& options, Report& report) {
  auto input = openInput(options.map, report);
  if (!input) return kUsageOrIo;
  const std::string& name = input->displayName();
  // Before any work: `-o MAP` must not destroy the map.
  auto output = Output::resolve(options.output, OutputKind::Text, {input->identity()}, report);
  if (!output) return kUsageOrIo;
  // One pass judges validity and the canonical form; the text is then
  // written straight from the bytes.
  CanonicalReport canonical;
  CheckReport checked = [&] {
    const Progress progress("checking " + name, input->bytes().size());
    return checkMap(input->bytes(), {}, canonical);
  }();
  if (!checked.valid) {
    report.add(std::move(checked.diagnostics), name);
    report.fail(kInvalid, rules::kInvalidMap, "not a valid map; nothing dumped (see `gdmap check`)", name);
    noteJsonNotMap(*input, report);
    return kInvalid;
  }
  // Each canonical rule the map breaks, at its place: building the dump
  // gives the same content in other bytes.
  for (Diagnostic& note : canonical.reasons) {
    note.severity = Severity::Note;
    note.message = "building this description will not give the same bytes: " + note.message + " (" + note.rule + ")";
    note.rule = rules::kRebuildDiffers;
    note.file = name;
    report.add(std::move(note));
  }
  // Written as it is made: the text of a million dictionaries is never
  // held whole.
  const ByteSpan map = input->bytes();
  if (!output->write([map](const OutputEmit& emit) { return dumpDescription(map, emit); }, report)) return kUsageOrIo;
  if (report.json()) report.object().string("output", options.output);
  return kSuccess;
}

int runDump(const DumpOptions& options) {
  Report report(options.json);
  if (report.json()) report.object().string("file", options.map == "-" ? "stdin" : options.map);
  const int status = dump(options, report);
  if (report.json()) report.object().boolean("written", status == kSuccess);
  return report.finish(status);
}

}  // namespace

void addDumpCommand(CLI::App& app, int& status) {
  auto options = std::make_shared<DumpOptions>();
  auto* command = app.add_subcommand("dump", "Write a valid map's content as a JSON description");
  command->add_option("MAP", options->map, "The map ('-' for stdin)")->required();
  command->add_option("-o,--output", options->output, "Where to write the description ('-', the default, for stdout)");
  command->add_flag("--json", options->json, "Write the outcome and diagnostics as JSON on stdout (needs -o FILE)");
  command->callback([options, &status] { status = runDump(*options); });
}

}  // namespace gdmap::cli
