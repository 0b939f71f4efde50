// gdmap il build: one method of a description in one binary form.
#include "app/exit_status.hpp"
#include "app/il_commands.hpp"
#include "common/file_io.hpp"
#include "common/input_kind.hpp"
#include "common/report.hpp"
#include "il/il_arguments.hpp"
#include "il/il_blob.hpp"
#include "il/il_description_input.hpp"

#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/schema/rules.hpp>

#include <memory>
#include <string>

namespace gdmap::cli {
namespace {

// The encoder's bytes read back by the strict reader before they are
// published: bytes that do not say what the method says are a bug and
// must not land.
bool readsBack(ByteSpan bytes, const il::Method& method, il::BoundsForm form) {
  if (form == il::BoundsForm::Api) return il::openApiMap(bytes).ok();
  const Expected<il::BoundsView> opened = il::openBounds(bytes, form);
  return opened && opened->toVector() == method.bounds;
}

int build(const IlBuildOptions& options, Report& report) {
  std::optional<Output> output;
  auto input =
      openInputAndOutput(options.description, options.output, OutputKind::Binary, output, report, InputContent::Json);
  if (!input) return kUsageOrIo;
  const std::string& name = input->displayName();
  auto methods = loadIlDescription(*input, report);
  if (!methods) {
    noteBinaryNotIlDescription(*input, report);
    return kInvalid;
  }
  int status = kSuccess;
  const auto index =
      chooseMethod(*methods, optionalU32(options.method.token), *input, report, status, options.method.instantiation,
                   options.method.component, optionalAddress(options.method.address));
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

int runIlBuild(const IlBuildOptions& options, Report& report) {
  report.nameInput(options.description);
  if (report.json()) report.object().string("format", options.format);
  return runToOutput(build, options, report, {"method", "output", "size"});
}

}  // namespace gdmap::cli
