// gdmap il check: validate a blob against every reader rule of its form and say whether it is canonical.
#include "app/exit_status.hpp"
#include "app/il_commands.hpp"
#include "common/check_output.hpp"
#include "common/file_io.hpp"
#include "common/input_kind.hpp"
#include "common/report.hpp"
#include "il/il_arguments.hpp"
#include "il/il_blob.hpp"

#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>

namespace gdmap::cli {
namespace {

// How many bounds or entries a blob the reader accepted holds.
std::size_t contentSize(ByteSpan blob, il::BoundsForm form) {
  if (form == il::BoundsForm::Api) return blob.size() / il::kApiEntrySize;
  const Expected<il::BoundsView> opened = il::openBounds(blob, form);
  return opened ? opened->count() : 0;
}

int check(const IlCheckOptions& options, Report& report) {
  auto input = openInput(options.blob, report);
  if (!input) return kUsageOrIo;
  const std::string& name = input->displayName();
  const ByteSpan bytes = input->bytes();
  const il::BoundsForm form = formOf(options.format);
  CheckOptions checkOptions;
  checkOptions.strict = options.strict;
  checkOptions.maxDiagnostics = options.maxDiagnostics;
  CheckReport checked = il::checkBounds(bytes, form, checkOptions);
  // Besides the one decoding error a blob can have, every diagnostic is a
  // reason the bytes are not canonical (an error under --strict).
  const bool decodes = std::ranges::none_of(checked.diagnostics, [](const Diagnostic& d) {
    return d.rule != rules::kIlNonMinimalVarint && d.rule != rules::kIlWideField;
  });
  const bool canonical = decodes && checked.errors + checked.warnings == 0;
  std::vector<Diagnostic> reasons;
  for (Diagnostic& d : checked.diagnostics) {
    d.file = name;
    if (decodes) reasons.push_back(d);
  }
  closeTruncatedList(checked);
  const std::size_t size = decodes ? contentSize(bytes, form) : 0;
  const int status = checked.valid ? kSuccess : kInvalid;

  if (report.json()) {
    JsonObject& out = report.object();
    writeCheckCounts(checked, out);
    if (decodes) {
      out.number("count", size);
      out.boolean("canonical", canonical);
      out.raw("canonicalReasons", diagnosticsJson(reasons, 2));
    }
    report.countUnlisted(checked.diagnostics, checked.errors, checked.warnings);
    report.add(std::move(checked.diagnostics), name);
    if (!decodes) noteJsonNotIlBlob(*input, report);
    return status;
  }

  report.countUnlisted(checked.diagnostics, checked.errors, checked.warnings);
  report.add(std::move(checked.diagnostics), name);
  if (!decodes) noteJsonNotIlBlob(*input, report);
  std::cout << name << ": " << (checked.valid ? "valid" : "invalid") << " (" << options.format << ", ";
  if (decodes) std::cout << contentCount(form, size) << ", ";
  std::cout << checkCounts(checked) << ")" << canonicalVerdict(canonical, reasons) << '\n';
  return status;
}

}  // namespace

int runIlCheck(const IlCheckOptions& options, Report& report) {
  report.nameInput(options.blob);
  if (report.json()) report.object().string("format", options.format);
  return runToVerdict(check, options, report, {"valid", "truncated", "count", "canonical", "canonicalReasons"});
}

}  // namespace gdmap::cli
