// gdmap il convert: one binary form to another, as the writer would write it.
#include "app/exit_status.hpp"
#include "app/il_commands.hpp"
#include "common/file_io.hpp"
#include "common/input_kind.hpp"
#include "common/report.hpp"
#include "il/il_arguments.hpp"
#include "il/il_blob.hpp"

#include <gdmap/schema/rules.hpp>
#include <gdmap/writer/bounds_encoder.hpp>

#include <memory>
#include <string>

namespace gdmap::cli {
namespace {

// The bytes of `decoded` in `to`, or empty (reported, status 1). The
// conversions the forms alone rule out were refused before (possible()).
std::optional<Bytes> convertBlob(const DecodedBlob& decoded, il::BoundsForm to, std::optional<std::uint32_t> codeSize,
                                 const std::string& file, Report& report) {
  // Validated, so copied as is: the api form is canonical whenever valid.
  if (decoded.form == il::BoundsForm::Api) return il::encodeApiEntries(decoded.entries);
  auto bytes = il::encodeBounds(decoded.bounds, to, codeSize);
  if (bytes) return std::move(bytes).value();
  // The input's bound the error is about ("bounds[3].source") is its path.
  const Error& e = bytes.error();
  Diagnostic d;
  d.rule = e.rule;
  d.path = e.path;
  d.message = e.message;
  d.file = file;
  report.add(std::move(d));
  return std::nullopt;
}

// The conversions the forms alone rule out, whatever the blob: refused
// before anything is read, as the command line's fault (status 2).
bool possible(const IlConvertOptions& options, Report& report) {
  const il::BoundsForm from = formOf(options.from);
  const il::BoundsForm to = formOf(options.to);
  if (from == il::BoundsForm::Api && to != il::BoundsForm::Api) {
    report.fail(kUsageOrIo, rules::kIlMapNotCompressible,
                "--from api --to " + options.to +
                    ": the api form cannot be turned back into bounds (entries merged, ends computed, order "
                    "sorted); only --to api is possible from it");
    return false;
  }
  if (from != il::BoundsForm::Api && to == il::BoundsForm::Api && options.codeSize.empty()) {
    report.fail(kUsageOrIo, rules::kIlCodeSizeRequired,
                "--to api from bounds needs the method's code size, where the last entry ends: give --code-size N");
    return false;
  }
  return true;
}

int convert(const IlConvertOptions& options, Report& report) {
  if (!possible(options, report)) return kUsageOrIo;
  std::optional<Output> output;
  auto input = openInputAndOutput(options.blob, options.output, OutputKind::Binary, output, report);
  if (!input) return kUsageOrIo;
  const std::string& name = input->displayName();
  auto decoded = decodeBlob(input->bytes(), formOf(options.from), name, report);
  if (!decoded) {
    noteJsonNotIlBlob(*input, report);
    return kInvalid;
  }
  auto bytes = convertBlob(*decoded, formOf(options.to), optionalU32(options.codeSize), name, report);
  if (!bytes) return kInvalid;
  if (!output->write(asText(*bytes), report)) return kUsageOrIo;
  if (report.json()) {
    report.object().number("count", decoded->count());
    report.object().string("output", options.output);
    report.object().number("size", bytes->size());
  }
  return kSuccess;
}

}  // namespace

int runIlConvert(const IlConvertOptions& options, Report& report) {
  report.nameInput(options.blob);
  if (report.json()) {
    report.object().string("from", options.from);
    report.object().string("to", options.to);
  }
  return runToOutput(convert, options, report, {"count", "output", "size"});
}

}  // namespace gdmap::cli
