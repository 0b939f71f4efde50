// gdmap dump: a map's content as a description.
#include "app/commands.hpp"
#include "app/exit_status.hpp"
#include "common/file_io.hpp"
#include "common/input_kind.hpp"
#include "common/progress.hpp"
#include "common/report.hpp"
#include "common/type_names_input.hpp"

#include <gdmap/description/description_json.hpp>
#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/map_dump.hpp>
#include <gdmap/schema/rules.hpp>

#include <memory>

namespace gdmap::cli {
namespace {

// Exit status: 0 for a valid map, 1 for an invalid one (its exact
// description is written all the same, like `check`'s status says what it
// found), 2 when nothing could be written.
int dump(const DumpOptions& options, Report& report) {
  std::shared_ptr<TypeNames> names;
  if (!options.names.empty() && !(names = loadTypeNames(options.names, report))) return kUsageOrIo;
  std::optional<Output> output;
  auto input = openInputAndOutput(options.map, options.output, OutputKind::Text, output, report);
  if (!input) return kUsageOrIo;
  const std::string& name = input->displayName();
  // One pass judges validity and the canonical form; the text is then
  // written straight from the bytes.
  CanonicalReport canonical;
  CheckReport checked = [&] {
    const Progress progress("checking " + name, input->bytes().size());
    return checkMap(input->bytes(), {}, canonical);
  }();
  const ByteSpan map = input->bytes();
  if (!checked.valid) {
    // Any bytes have an exact description (overrides and `raw`): the
    // check's errors become warnings, and the status still says the map is
    // not valid, as `check` would.
    for (Diagnostic& d : checked.diagnostics) {
      if (d.severity == Severity::Error) d.severity = Severity::Warning;
    }
    report.countUnlisted(checked.diagnostics, checked.errors, checked.warnings);
    report.add(std::move(checked.diagnostics), name);
    noteJsonNotMap(*input, report);
    if (!output->write([map, names](const OutputEmit& emit) { return dumpExactDescription(map, emit, names.get()); },
                       report))
      return kUsageOrIo;
    if (report.json()) report.object().string("output", options.output);
    return kInvalid;
  }
  // Each canonical rule the map breaks, at its place: the description
  // keeps those bytes with overrides (`offset`, /layout) and `raw`.
  for (Diagnostic& note : canonical.reasons) {
    note.severity = Severity::Note;
    note.message =
        "not canonical: " + note.message + " (" + note.rule + "); the description keeps these bytes with overrides";
    note.rule = rules::kRebuildDiffers;
    note.file = name;
    report.add(std::move(note));
  }
  // Written as it is made: the text of a million dictionaries is never
  // held whole.
  const bool canonicalMap = canonical.reasons.empty();
  if (!output->write(
          [map, canonicalMap, names](const OutputEmit& emit) {
            return canonicalMap ? dumpDescription(map, emit, names.get())
                                : dumpExactDescription(map, emit, names.get());
          },
          report))
    return kUsageOrIo;
  if (report.json()) report.object().string("output", options.output);
  return kSuccess;
}

}  // namespace

int runDump(const DumpOptions& options, Report& report) {
  report.nameInput(options.map);
  return runToOutput(dump, options, report, {"output"}, kInvalid);
}

}  // namespace gdmap::cli
