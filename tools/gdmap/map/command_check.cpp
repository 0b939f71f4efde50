// gdmap check: validate a map and say whether it is canonical.
#include "app/commands.hpp"
#include "app/exit_status.hpp"
#include "common/check_output.hpp"
#include "common/file_io.hpp"
#include "common/input_kind.hpp"
#include "common/report.hpp"

#include <gdmap/internal/plural.hpp>
#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/map_view.hpp>
#include <gdmap/schema/rules.hpp>

#include <iostream>
#include <memory>

namespace gdmap::cli {
namespace {

int check(const CheckCommandOptions& options, Report& report) {
  auto input = openInput(options.map, report);
  if (!input) return kUsageOrIo;
  const std::string& name = input->displayName();
  const ByteSpan bytes = input->bytes();
  CheckOptions checkOptions;
  checkOptions.strict = options.strict;
  checkOptions.maxDiagnostics = options.maxDiagnostics;
  CanonicalReport canonical;
  CheckReport checked = checkMap(bytes, checkOptions, canonical);
  closeTruncatedList(checked);

  if (report.json()) {
    JsonObject& out = report.object();
    writeCheckCounts(checked, out);
    if (checked.errors == 0) {
      out.boolean("canonical", canonical.canonical);
      for (Diagnostic& d : canonical.reasons)
        if (d.file.empty()) d.file = name;
      out.raw("canonicalReasons", diagnosticsJson(canonical.reasons, 2));
    }
    report.countUnlisted(checked.diagnostics, checked.errors, checked.warnings);
    report.add(std::move(checked.diagnostics), name);
    if (!checked.valid) noteJsonNotMap(*input, report);
    return checked.valid ? kSuccess : kInvalid;
  }

  report.countUnlisted(checked.diagnostics, checked.errors, checked.warnings);
  report.add(std::move(checked.diagnostics), name);
  if (!checked.valid) noteJsonNotMap(*input, report);
  std::cout << name << ": " << (checked.valid ? "valid" : "invalid") << " (" << checkCounts(checked) << ")";
  if (checked.errors == 0) {
    if (auto view = MapView::open(bytes))
      std::cout << "; " << plural(view->size(), "dictionary", "dictionaries") << ", " << view->heap().size()
                << " heap bytes";
    std::cout << canonicalVerdict(canonical.canonical, canonical.reasons);
  }
  std::cout << '\n';
  return checked.valid ? kSuccess : kInvalid;
}

}  // namespace

int runCheck(const CheckCommandOptions& options, Report& report) {
  report.nameInput(options.map);
  return runToVerdict(check, options, report, {"valid", "truncated", "canonical", "canonicalReasons"});
}

}  // namespace gdmap::cli
