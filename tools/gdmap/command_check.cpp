// gdmap check: validate a map and say whether it is canonical.
#include "commands.hpp"
#include "exit_status.hpp"
#include "file_io.hpp"
#include "input_kind.hpp"
#include "report.hpp"

#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/map_view.hpp>
#include <gdmap/schema/rules.hpp>

#include <iostream>
#include <memory>

namespace gdmap::cli {
namespace {

std::string count(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + ' ' + (n == 1 ? one : many);
}

// checkMap() stops listing at --max-diagnostics but counts on: the list
// closes with the note every capped list ends with (docs/errors.md).
void closeTruncatedList(CheckReport& checked) {
  if (!checked.truncated) return;
  for (const Diagnostic& d : checked.diagnostics)
    if (d.rule == rules::kTooManyDiagnostics) return;  // checkMap() said it itself
  const std::size_t all = checked.errors + checked.warnings;
  const std::size_t listed = checked.diagnostics.size();
  checked.diagnostics.push_back(
      notListedNote(all > listed ? all - listed : 0, listed, checked.errors, checked.warnings));
}

int check(const CheckCommandOptions& options, Report& report) {
  auto input = openInput(options.map, report);
  if (!input) {
    if (report.json()) {
      report.object().string("file", options.map == "-" ? "stdin" : options.map);
      report.object().null("valid");  // no verdict
    }
    return kUsageOrIo;
  }
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
    out.string("file", name);
    out.boolean("valid", checked.valid);
    out.number("errors", checked.errors);
    out.number("warnings", checked.warnings);
    out.boolean("truncated", checked.truncated);
    if (checked.errors == 0) {
      out.boolean("canonical", canonical.canonical);
      for (Diagnostic& d : canonical.reasons)
        if (d.file.empty()) d.file = name;
      out.raw("canonicalReasons", diagnosticsJson(canonical.reasons, 2));
    } else {
      out.null("canonical");
    }
    report.add(std::move(checked.diagnostics), name);
    if (!checked.valid) noteJsonNotMap(*input, report);
    return checked.valid ? kSuccess : kInvalid;
  }

  report.add(std::move(checked.diagnostics), name);
  if (!checked.valid) noteJsonNotMap(*input, report);
  std::cout << name << ": " << (checked.valid ? "valid" : "invalid") << " (" << count(checked.errors, "error", "errors")
            << ", " << count(checked.warnings, "warning", "warnings") << ")";
  if (checked.errors == 0) {
    if (auto view = MapView::open(bytes))
      std::cout << "; " << count(view->size(), "dictionary", "dictionaries") << ", " << view->heap().size()
                << " heap bytes";
    if (canonical.canonical) {
      std::cout << "; canonical";
    } else if (!canonical.reasons.empty()) {
      const Diagnostic& first = canonical.reasons.front();
      std::cout << "; not canonical: " << (first.path.empty() ? "" : first.path + ": ") << first.message;
    }
  }
  std::cout << '\n';
  return checked.valid ? kSuccess : kInvalid;
}

}  // namespace

int runCheck(const CheckCommandOptions& options, Report& report) { return check(options, report); }

}  // namespace gdmap::cli
