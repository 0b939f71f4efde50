// gdmap il build DESC.json --format F [--method TOKEN] [-o OUT] [--json]:
// one method of a description in one binary form.
#include "exit_status.hpp"
#include "file_io.hpp"
#include "il_arguments.hpp"
#include "il_blob.hpp"
#include "il_commands.hpp"
#include "il_description_input.hpp"
#include "input_kind.hpp"
#include "report.hpp"

#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/schema/rules.hpp>

#include <memory>
#include <string>

namespace gdmap::cli {
namespace {

struct IlBuildOptions {
  std::string description;
  std::string format;
  std::string method;
  std::string instantiation;
  std::string output = "-";
  bool json = false;
};

// The encoder's bytes read back by the strict reader before they are
// published: bytes that do not say what the method says are a bug and
// must not land.
bool readsBack(ByteSpan bytes, const il::Method& method, il::BoundsForm form) {
  if (form == il::BoundsForm::Api) return il::openApiMap(bytes).ok();
  const Expected<il::BoundsView> opened = il::openBounds(bytes, form);
  return opened && opened->toVector() == method.bounds;
}

int build(const IlBuildOptions& options, Report& report) {
  auto input = openInput(options.description, report);
  if (!input) return kUsageOrIo;
  const std::string& name = input->displayName();
  // Before any work: `-o DESC.json` must not destroy the description.
  auto output = Output::resolve(options.output, OutputKind::Binary, {input->identity()}, report);
  if (!output) return kUsageOrIo;
  auto methods = loadIlDescription(*input, report);
  if (!methods) {
    noteBinaryNotIlDescription(*input, report);
    return kInvalid;
  }
  int status = kSuccess;
  const auto index = chooseMethod(*methods, optionalU32(options.method), *input, report, status, options.instantiation);
  if (!index) return status;
  const il::Method& method = (*methods)[*index];
  const il::BoundsForm form = formOf(options.format);
  if (report.json()) report.object().string("method", tokenText(method.token));
  auto bytes = encodeMethod(method, *index, form, *input, report);
  if (!bytes) return kInvalid;
  // A layout writes whatever it says, valid or not; without one the bytes
  // must read back as the method.
  if (!method.layout && !readsBack(*bytes, method, form)) {
    return report.fail(kUsageOrIo, rules::kDescriptionMismatch,
                       "internal error: the " + std::string(il::formName(form)) + " bytes of method " +
                           tokenText(method.token) + " do not read back as its bounds; no output written",
                       name);
  }
  if (!output->write(asText(*bytes), report)) return kUsageOrIo;
  if (report.json()) {
    report.object().string("output", options.output);
    report.object().number("size", bytes->size());
  }
  return kSuccess;
}

}  // namespace

void addIlBuildCommand(CLI::App& il, int& status) {
  auto options = std::make_shared<IlBuildOptions>();
  auto* command =
      il.add_subcommand("build", "Write one method of a description as api, nibble, packed2 or packed3 bytes");
  command->footer(
      "--format api derives the GetILToNativeMapping array from `bounds` as the runtime does (merge, ends, sort, "
      "trim; needs the method's codeSize) or writes a verbatim `map` as is. The compressed forms are written from "
      "`bounds` exactly as the runtime writes them (shortest varints, minimal widths); a `map` cannot be "
      "compressed. A method's `layout` overrides fields of the bytes (count, widths, varint lengths, padding, "
      "trailing, truncate; a layout-override note each) and a `raw` method is its bytes verbatim, for broken "
      "fixtures (docs/il-map.md, Overrides). The whole description is validated, whichever method is built.");
  command->add_option("DESCRIPTION", options->description, "The JSON description ('-' for stdin)")->required();
  addFormOption(*command, "--format", options->format, "The form to write");
  addMethodOption(*command, options->method, "may be left out when the description has one method");
  addInstantiationOption(*command, options->instantiation);
  addBinaryOutputOption(*command, options->output);
  command->add_flag("--json", options->json, "Write the outcome and diagnostics as JSON on stdout (needs -o FILE)");
  command->callback([options, &status] {
    Report report(options->json);
    if (report.json()) {
      report.object().string("file", options->description == "-" ? "stdin" : options->description);
      report.object().string("format", options->format);
    }
    const int result = build(*options, report);
    if (report.json()) report.object().boolean("written", result == kSuccess);
    status = report.finish(result);
  });
}

}  // namespace gdmap::cli
