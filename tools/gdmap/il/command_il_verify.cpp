// gdmap il verify: is BLOB byte for byte what `gdmap il build` writes for that method?
#include "app/exit_status.hpp"
#include "app/il_commands.hpp"
#include "common/file_io.hpp"
#include "common/input_kind.hpp"
#include "common/report.hpp"
#include "common/verdict.hpp"
#include "il/il_arguments.hpp"
#include "il/il_blob.hpp"
#include "il/il_description_input.hpp"

#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/reader/il_compare.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <iostream>
#include <memory>
#include <string>

namespace gdmap::cli {
namespace {

std::string bytes(std::size_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

int verify(const IlVerifyOptions& options, Report& report) {
  if (const std::optional<int> usage = bothFromStdin(options.description, options.blob, "BLOB", report)) return *usage;
  auto description = openInput(options.description, report, FileAccess::Whole, InputContent::Json);
  if (!description) return kUsageOrIo;
  auto methods = loadIlDescription(*description, report);
  if (!methods) {
    // DESCRIPTION comes first: a blob there means the two were swapped.
    noteWrongKind(*description, InputKind::Binary, "a binary IL-to-native map", "a JSON IL description",
                  "gdmap il verify --format FORM " + shellWord(options.blob), report);
    return kInvalid;
  }
  int status = kSuccess;
  const auto index =
      chooseMethod(*methods, optionalU32(options.method.token), *description, report, status,
                   options.method.instantiation, options.method.component, optionalAddress(options.method.address));
  if (!index) return status;
  const il::Method& method = (*methods)[*index];
  if (report.json()) report.object().string("method", tokenText(method.token));
  const il::BoundsForm form = formOf(options.format);
  auto expected = encodeMethod(method, *index, form, *description, report);
  if (!expected) return kInvalid;
  auto input = openInput(options.blob, report);
  if (!input) return kUsageOrIo;
  const std::string& name = input->displayName();

  il::IlDifference d = il::compareIlBlobs(*expected, input->bytes(), form);
  // A blob that differs and does not even decode: its reader's error says
  // more than a byte offset does, and its field is the one to name.
  // The reader's error is its own diagnostic, at its own place; the
  // difference names the field of the first differing byte.
  const bool decodes = d.identical || decodeBlob(input->bytes(), form, name, report).has_value();
  if (report.json()) writeVerdictJson({d.identical, d.expectedSize, d.actualSize, d.firstOffset, d.field}, report);
  if (d.identical) {
    if (!report.json())
      std::cout << name << ": identical to the " << il::formName(form) << " bytes of method " << tokenText(method.token)
                << " (" << bytes(d.actualSize) << ")\n";
    return kSuccess;
  }
  report.add(differsAt(d.field, d.firstOffset, name,
                       "differs from the " + std::string(il::formName(form)) + " bytes of method " +
                           tokenText(method.token) + (decodes ? ": " + d.detail : "") + " (expected " +
                           bytes(d.expectedSize) + ", found " + std::to_string(d.actualSize) + ")"));
  return kInvalid;
}

}  // namespace

int runIlVerify(const IlVerifyOptions& options, Report& report) {
  report.nameInput(options.blob);
  report.nameInput(options.description, "description");
  if (report.json()) report.object().string("format", options.format);
  return runToVerdict(verify, options, report,
                      {"method", "identical", "expectedSize", "actualSize", "firstOffset", "field"});
}

}  // namespace gdmap::cli
