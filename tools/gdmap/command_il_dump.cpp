// gdmap il dump BLOB --format F [--code-size N] [--token T] [-o OUT.json]
// [--json]: any blob, valid or not, as a description with one method that
// `gdmap il build` turns back into the identical bytes.
#include "exit_status.hpp"
#include "file_io.hpp"
#include "il_arguments.hpp"
#include "il_blob.hpp"
#include "il_commands.hpp"
#include "input_kind.hpp"
#include "report.hpp"

#include <gdmap/description/il_description_exact.hpp>
#include <gdmap/description/il_description_json.hpp>
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/schema/rules.hpp>

#include <memory>
#include <span>
#include <string>

namespace gdmap::cli {
namespace {

struct IlDumpOptions {
  std::string blob;
  std::string format;
  std::string codeSize;
  std::string token;
  std::string output = "-";
  bool json = false;
};

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
  auto input = openInput(options.blob, report);
  if (!input) return kUsageOrIo;
  const std::string& name = input->displayName();
  // Before any work: `-o BLOB` must not destroy the blob.
  auto output = Output::resolve(options.output, OutputKind::Text, {input->identity()}, report);
  if (!output) return kUsageOrIo;
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

void addIlDumpCommand(CLI::App& il, int& status) {
  auto options = std::make_shared<IlDumpOptions>();
  auto* command = il.add_subcommand("dump", "Write any blob as a JSON description of one method");
  command->footer(
      "The method holds `bounds` (compressed forms) or `map` (api), plus a `layout` of overrides when the bytes "
      "are not canonical (or `raw` when not even the header can be read): `gdmap il build --format` of the same "
      "form gives back the identical bytes, valid or not. The check's findings go to stderr as warnings. Exit 0 "
      "for a valid blob, 1 for an invalid one (its description is written all the same), 2 when nothing could be "
      "written.");
  command->add_option("BLOB", options->blob, "The binary map ('-' for stdin)")->required();
  addFormOption(*command, "--format", options->format, "The blob's form");
  command
      ->add_option("--code-size", options->codeSize,
                   "The method's code size in bytes, written as `codeSize` (needed to build the api form from "
                   "bounds)")
      ->type_name("N")
      ->check(u32Argument());
  command->add_option("--token", options->token, "The method's token to write (default 0x06000001)")
      ->type_name("TOKEN")
      ->check(u32Argument());
  command->add_option("-o,--output", options->output, "Where to write the description ('-', the default, for stdout)")
      ->type_name("FILE");
  command->add_flag("--json", options->json, "Write the outcome and diagnostics as JSON on stdout (needs -o FILE)");
  command->callback([options, &status] {
    Report report(options->json);
    if (report.json()) {
      report.object().string("file", options->blob == "-" ? "stdin" : options->blob);
      report.object().string("format", options->format);
    }
    const int result = dump(*options, report);
    // An invalid blob (status 1) is written all the same.
    if (report.json()) report.object().boolean("written", result == kSuccess || result == kInvalid);
    status = report.finish(result);
  });
}

}  // namespace gdmap::cli
