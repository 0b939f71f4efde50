// Fuzz target: the IL-to-native description parser (parseIlDescription) on
// arbitrary text, and for methods it accepts: the writeIlDescription ->
// parseIlDescription round trip and the writers of every form.
//
// Invariants (each aborts when broken):
// - diagnostics (fuzz/diagnostic_invariants.hpp, as for `description`):
//   methods come back exactly when no diagnostic is an error; each has a
//   rule, a short message, an offset inside the text, the line:column of
//   that offset, and an offset inside the value its JSON pointer names; at
//   most 100 kept plus a summary; the error count is at least the errors
//   kept, and zero exactly when methods come back;
// - accepted methods have unique tokens; a method holds bounds (ascending)
//   or a verbatim map, never both;
// - writeIlDescription's JSON parses back to the same methods without an
//   error and with no more warnings, and writes the same JSON again;
// - every bounds method's bounds go through each compressed writer as
//   il_invariants.hpp's checkEncodeRoundTrip demands (accepted exactly when
//   non-empty and storable; canonical; decoding to the same bounds), and
//   with a codeSize to an API array of at most one entry a bound.
#include "diagnostic_invariants.hpp"
#include "fuzz_check.hpp"
#include "il_invariants.hpp"

#include <gdmap/description/il_description_json.hpp>
#include <gdmap/writer/bounds_layout.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <gdmap/writer/bounds_layout.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace gdmap;

bool sameMethod(const il::Method& a, const il::Method& b) {
  return a.token == b.token && a.codeSize == b.codeSize && a.verbatimMap == b.verbatimMap && a.bounds == b.bounds &&
         a.map == b.map && a.layout == b.layout;
}

void checkCounts(const il::IlDescriptionParse& parse) {
  std::size_t errors = 0, warnings = 0;
  for (const Diagnostic& d : parse.diagnostics) {
    errors += d.severity == Severity::Error;
    warnings += d.severity == Severity::Warning;
  }
  FUZZ_CHECK(parse.errorCount >= errors && parse.warningCount >= warnings,
             "fewer errors or warnings counted than kept: " + std::to_string(parse.errorCount) + " < " +
                 std::to_string(errors));
  FUZZ_CHECK(
      (parse.errorCount == 0) == parse.methods.has_value(),
      std::to_string(parse.errorCount) + " error(s) counted, methods " + (parse.methods ? "returned" : "not returned"));
}

void checkMethods(const std::vector<il::Method>& methods) {
  std::vector<std::uint32_t> tokens;
  tokens.reserve(methods.size());
  for (const il::Method& m : methods) {
    tokens.push_back(m.token);
    // A layout (or raw) builds or says why, in every form; without one,
    // encodeExact is encodeBounds.
    for (const il::BoundsForm form :
         {il::BoundsForm::Api, il::BoundsForm::Nibble, il::BoundsForm::Packed2, il::BoundsForm::Packed3}) {
      const il::ExactEncoding exact = il::encodeExact(m, form);
      const bool failed = std::any_of(exact.diagnostics.begin(), exact.diagnostics.end(),
                                      [](const Diagnostic& d) { return d.severity == Severity::Error; });
      FUZZ_CHECK(exact.bytes.has_value() != failed, "encodeExact gave bytes and an error, or neither");
      if (!m.layout && !m.verbatimMap) {
        Expected<Bytes> plain = il::encodeBounds(m.bounds, form, m.codeSize);
        FUZZ_CHECK(plain.ok() == exact.bytes.has_value() && (!plain.ok() || *plain == *exact.bytes),
                   "encodeExact without a layout differs from encodeBounds");
      }
    }
    if (m.layout && m.layout->raw) {
      FUZZ_CHECK(m.bounds.empty() && m.map.empty() && !m.verbatimMap, "a raw method with bounds or a map");
      continue;
    }
    if (m.verbatimMap) {
      FUZZ_CHECK(m.bounds.empty(), "a map method with bounds");
      continue;
    }
    FUZZ_CHECK(m.map.empty(), "a bounds method with a map");
    FUZZ_CHECK(!il::firstDescendingBound(m.bounds).has_value(), "descending bounds accepted");
    for (const il::BoundsForm form : {il::BoundsForm::Nibble, il::BoundsForm::Packed2, il::BoundsForm::Packed3})
      gdmap::fuzz::checkEncodeRoundTrip(m.bounds, form);
    if (m.codeSize) {
      Expected<Bytes> api = il::encodeBounds(m.bounds, il::BoundsForm::Api, m.codeSize);
      FUZZ_CHECK(api.ok(), "bounds with a codeSize do not convert: " + gdmap::fuzz::describeError(api.error()));
      FUZZ_CHECK(api->size() <= m.bounds.size() * il::kApiEntrySize, "more API entries than bounds");
    }
  }
  std::sort(tokens.begin(), tokens.end());
  FUZZ_CHECK(std::adjacent_find(tokens.begin(), tokens.end()) == tokens.end(), "a token given twice is accepted");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = gdmap::fuzz::asText(data, size);
  const il::IlDescriptionParse parse = il::parseIlDescription(text);
  gdmap::fuzz::checkDiagnostics(parse.diagnostics, parse.methods.has_value(), text);
  checkCounts(parse);
  if (!parse.methods) return 0;
  checkMethods(*parse.methods);

  const std::string json = il::writeIlDescription(*parse.methods);
  const il::IlDescriptionParse reread = il::parseIlDescription(json);
  // Content warnings (il-code-size-below-bound) come back; none is added.
  FUZZ_CHECK(reread.methods.has_value() && reread.warningCount <= parse.warningCount,
             "writeIlDescription's JSON does not parse back cleanly (" + std::to_string(reread.warningCount) +
                 " warnings, " + std::to_string(parse.warningCount) +
                 " before): " + gdmap::fuzz::firstError(reread.diagnostics) + "\n" + json.substr(0, 2000));
  FUZZ_CHECK(std::equal(reread.methods->begin(), reread.methods->end(), parse.methods->begin(), parse.methods->end(),
                        sameMethod),
             "the methods change through writeIlDescription -> parseIlDescription:\n" + json.substr(0, 2000));
  const std::string again = il::writeIlDescription(*reread.methods);
  FUZZ_CHECK(again == json,
             "writeIlDescription is not a fixed point:\n" + json.substr(0, 2000) + "\n---\n" + again.substr(0, 2000));
  return 0;
}
