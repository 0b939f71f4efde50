// gdmap il dump: any blob, valid or not, as a description with one method that
// `gdmap il build` turns back into the identical bytes.
#include "app/exit_status.hpp"
#include "app/il_commands.hpp"
#include "common/file_io.hpp"
#include "common/input_kind.hpp"
#include "common/report.hpp"
#include "il/il_arguments.hpp"
#include "il/il_blob.hpp"

#include <gdmap/description/il_description_exact.hpp>
#include <gdmap/description/il_description_json.hpp>
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/schema/rules.hpp>

#include <memory>
#include <span>
#include <string>

namespace gdmap::cli {
namespace {

// The strict reader's findings about the blob, all as warnings: the dump is
// written whatever they say. True when the blob is valid.
bool warnAboutBlob(ByteSpan blob, il::BoundsForm form, const std::string& file, Report& report, bool& canonical) {
  const il::BoundsCanonicalReport read = il::checkBoundsCanonical(blob, form);
  for (const Error& reason : read.reasons) {
    Diagnostic d = binaryDiagnostic(reason, {}, 0, Severity::Warning);
    d.file = file;
    report.add(std::move(d));
  }
  if (read.reasonCount > read.reasons.size()) {
    Diagnostic note = notListedNote(read.reasonCount - read.reasons.size(), read.reasons.size(), 0, read.reasonCount);
    note.file = file;
    report.add(std::move(note));
  }
  canonical = read.canonical;
  return read.valid;
}

int dump(const IlDumpOptions& options, Report& report) {
  std::optional<Output> output;
  auto input = openInputAndOutput(options.blob, options.output, OutputKind::Text, output, report);
  if (!input) return kUsageOrIo;
  const std::string& name = input->displayName();
  const il::BoundsForm form = formOf(options.format);
  bool canonical = false;
  const bool valid = warnAboutBlob(input->bytes(), form, name, report, canonical);
  if (!valid) noteJsonNotIlBlob(*input, report);
  il::ExactIlMethod exact = il::describeIlBlob(input->bytes(), form);
  il::Method& method = exact.method;
  method.token = optionalU32(options.token).value_or(kDefaultDumpToken);
  method.codeSize = optionalU32(options.codeSize);
  if (report.json()) {
    report.object().string("token", tokenText(method.token));
    report.object().boolean("valid", valid);
    if (valid) {
      report.object().number("count", form == il::BoundsForm::Api ? method.map.size() : method.bounds.size());
      report.object().boolean("canonical", canonical);
    } else {
      report.object().null("count");
      report.object().null("canonical");
    }
    report.object().boolean("raw", exact.raw);
  }
  if (!output->write(il::writeIlDescription(std::span<const il::Method>(&method, 1)), report)) return kUsageOrIo;
  if (report.json()) report.object().string("output", options.output);
  return valid ? kSuccess : kInvalid;
}

}  // namespace

int runIlDump(const IlDumpOptions& options, Report& report) {
  report.nameInput(options.blob);
  if (report.json()) report.object().string("format", options.format);
  return runToOutput(dump, options, report, {"token", "valid", "count", "canonical", "raw", "output"}, kInvalid);
}

}  // namespace gdmap::cli
