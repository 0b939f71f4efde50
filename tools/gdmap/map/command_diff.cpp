// gdmap diff: every difference between two maps or descriptions, in any mix,
// by dictionary (<gdmap/reader/map_diff.hpp>).
#include "app/commands.hpp"
#include "app/exit_status.hpp"
#include "common/report.hpp"
#include "common/type_names_input.hpp"
#include "map/diff_input.hpp"
#include "map/diff_output.hpp"

#include <gdmap/reader/map_diff.hpp>
#include <gdmap/schema/rules.hpp>

#include <iostream>
#include <memory>

namespace gdmap::cli {
namespace {

int diff(const DiffOptions& options, Report& report) {
  if (options.a == "-" && options.b == "-")
    return report.fail(kUsageOrIo, rules::kUsage, "only one of A and B can be '-'");
  // An operand that cannot be compared: an unreadable file is status 2,
  // an invalid description status 1 (invalid input, as build and verify
  // say it).
  std::unique_ptr<TypeNames> names;
  if (!options.names.empty() && !(names = loadTypeNames(options.names, report))) return kUsageOrIo;
  int status = kSuccess;
  const std::optional<DiffOperand> a = loadDiffOperand(options.a, report, status, names.get());
  if (!a) return status;
  const std::optional<DiffOperand> b = loadDiffOperand(options.b, report, status, names.get());
  if (!b) return status;
  const MapDiff d = diffMaps(a->bytes(), b->bytes(), mapDiffOptions(options.listing, names.get()));
  if (d.unreadableA) report.add(byteLevelNote(*d.unreadableA, a->bytes(), a->name()));
  if (d.unreadableB) report.add(byteLevelNote(*d.unreadableB, b->bytes(), b->name()));
  if (report.json()) {
    JsonObject& out = report.object();
    out.string("kindA", a->kind());
    out.string("kindB", b->kind());
    out.boolean("identical", d.identical);
    writeDiffJson(d, out);
  } else {
    std::string text = a->name() + " vs " + b->name() + ": ";
    if (d.identical) text += "identical (" + std::to_string(d.bytes.sizeA) + " bytes)\n";
    else text += diffSummary(d) + "\n";
    appendDiffLines(d, "  ", text);
    std::cout << text;
    std::cout.flush();
    if (!std::cout) return report.stdoutFailed();
  }
  return d.identical ? kSuccess : kInvalid;
}

}  // namespace

int runDiff(const DiffOptions& options, Report& report) {
  report.nameInput(options.a, "a");
  report.nameInput(options.b, "b");
  return runToVerdict(diff, options, report,
                      {"kindA", "kindB", "identical", "structural", "sameContent", "total", "listed", "counts",
                       "differences", "bytes"});
}

}  // namespace gdmap::cli
