// gdmap il dump BLOB --format F [--code-size N] [--token T] [-o OUT.json]
// [--json]: a valid blob as a description with one method.
#include "exit_status.hpp"
#include "file_io.hpp"
#include "il_arguments.hpp"
#include "il_blob.hpp"
#include "il_commands.hpp"
#include "input_kind.hpp"
#include "report.hpp"

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

// Why building the dumped description will not give these bytes back: one
// note per non-minimal varint or too-wide width, at its place, naming the
// reader's rule (as the dictionary dump's rebuild-differs notes do).
bool noteRebuildDifferences(ByteSpan blob, il::BoundsForm form, const std::string& file, Report& report) {
  const il::BoundsCanonicalReport canonical = il::checkBoundsCanonical(blob, form);
  for (const il::BoundsProblem& reason : canonical.reasons) {
    Diagnostic note = il::toDiagnostic(reason, Severity::Note);
    note.message = "building this description will not give the same bytes: " + note.message + " (" + reason.rule + ")";
    note.rule = rules::kRebuildDiffers;
    note.file = file;
    report.add(std::move(note));
  }
  if (canonical.reasonCount > canonical.reasons.size()) {
    Diagnostic note = notListedNote(canonical.reasonCount - canonical.reasons.size(), canonical.reasons.size(), 0,
                                    canonical.reasonCount);
    note.file = file;
    report.add(std::move(note));
  }
  return canonical.canonical;
}

int dump(const IlDumpOptions& options, Report& report) {
  auto input = openInput(options.blob, report);
  if (!input) return kUsageOrIo;
  const std::string& name = input->displayName();
  // Before any work: `-o BLOB` must not destroy the blob.
  auto output = Output::resolve(options.output, OutputKind::Text, {input->identity()}, report);
  if (!output) return kUsageOrIo;
  const il::BoundsForm form = formOf(options.format);
  auto decoded = decodeBlob(input->bytes(), form, name, report);
  if (!decoded) {
    noteJsonNotIlBlob(*input, report);
    return kInvalid;
  }
  il::Method method;
  method.token = optionalU32(options.token).value_or(kDefaultDumpToken);
  method.codeSize = optionalU32(options.codeSize);
  method.verbatimMap = form == il::BoundsForm::Api;
  method.bounds = std::move(decoded->bounds);
  method.map = std::move(decoded->entries);
  const bool canonical = noteRebuildDifferences(input->bytes(), form, name, report);
  if (report.json()) {
    report.object().string("token", tokenText(method.token));
    report.object().number("count", decoded->form == il::BoundsForm::Api ? method.map.size() : method.bounds.size());
    report.object().boolean("canonical", canonical);
  }
  if (!output->write(writeIlDescription(std::span<const il::Method>(&method, 1)), report)) return kUsageOrIo;
  if (report.json()) report.object().string("output", options.output);
  return kSuccess;
}

}  // namespace

void addIlDumpCommand(CLI::App& il, int& status) {
  auto options = std::make_shared<IlDumpOptions>();
  auto* command = il.add_subcommand("dump", "Write a valid blob as a JSON description of one method");
  command->footer(
      "The method holds `bounds` (compressed forms) or `map` (api). `gdmap il build` turns the description back "
      "into the same bytes when the blob is canonical; when it is not, a rebuild-differs note says why, at its "
      "place, and the dump still succeeds.");
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
    if (report.json()) report.object().boolean("written", result == kSuccess);
    status = report.finish(result);
  });
}

}  // namespace gdmap::cli
