// Fuzz target: the JSON description parser (parseDescription) on arbitrary
// text, and for a description it accepts: buildMap, matchesDescription,
// checkMap, and the writeDescription -> parseDescription round trip.
//
// Invariants (each aborts when broken):
// - diagnostics: a description comes back exactly when no diagnostic is an
//   error; each has a rule and a message; at most the cap (100) plus one
//   summary note are kept; messages stay short whatever the input (quotes
//   are capped, issue #7 defect 4); line and column agree with the offset,
//   and the offset lies in the value the diagnostic's pointer names;
// - an accepted description builds; the map matches it; without raw items
//   the map is valid and canonical; a raw item is never empty (defect 6);
// - writeDescription's JSON parses back without an error, writes the same
//   JSON again, and builds the same bytes.
#include "fuzz_check.hpp"
#include "json_spans.hpp"

#include <gdmap/description/description_json.hpp>
#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/map_dump.hpp>
#include <gdmap/writer/map_builder.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace {

using namespace gdmap;
using gdmap::fuzz::describeError;
using gdmap::fuzz::hexOf;

constexpr std::size_t kMaxKeptDiagnostics = 100;
// A message quotes at most a few capped pieces of input (kMaxQuotedBytes
// each) around fixed text; this leaves room for both.
constexpr std::size_t kMaxMessageBytes = 1024;

std::string firstError(const DescriptionParse& parse) {
  for (const Diagnostic& d : parse.diagnostics)
    if (d.severity == Severity::Error) return d.path + " [" + d.rule + "] " + d.message;
  return "no error diagnostic";
}

// Where byte `offset` of `text` is: 1-based line (counting '\n') and
// column in code points (bytes that are not UTF-8 continuation bytes).
std::pair<std::size_t, std::size_t> lineColumn(std::string_view text, std::size_t offset) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++column;
    }
  }
  return {line, column};
}

// A diagnostic's offset lies in the value its JSON pointer names (or that
// member's key), in any member of that name when the key repeats; for a
// pointer to something the text lacks (a missing field), in the nearest
// enclosing value it has (issue #7 defect 7: mislocated errors).
void checkLocations(const DescriptionParse& parse, std::string_view text) {
  gdmap::fuzz::JsonSpans spans;
  if (!spans.scan(text)) return;  // not JSON: nothing to locate in
  for (const Diagnostic& d : parse.diagnostics) {
    if (d.offset == Diagnostic::npos || d.path.empty() || d.path[0] != '/') continue;
    std::string pointer = d.path;
    while (!pointer.empty() && !spans.has(pointer)) pointer.resize(pointer.rfind('/'));
    FUZZ_CHECK(spans.contains(pointer, d.offset),
               "[" + d.rule + "] " + d.path + " is located at byte " + std::to_string(d.offset) + " (" +
                   std::to_string(d.line) + ":" + std::to_string(d.column) + "), outside " +
                   (pointer.empty() ? std::string("the document") : pointer) + ": " + d.message);
  }
}

void checkDiagnostics(const DescriptionParse& parse, std::string_view text) {
  bool anyError = false;
  for (const Diagnostic& d : parse.diagnostics) {
    anyError = anyError || d.severity == Severity::Error;
    FUZZ_CHECK(!d.rule.empty(), "a description diagnostic without a rule: " + d.path + ": " + d.message);
    FUZZ_CHECK(!d.message.empty(), "diagnostic [" + d.rule + "] without a message");
    FUZZ_CHECK(d.message.size() <= kMaxMessageBytes, "diagnostic [" + d.rule + "] has a " +
                                                         std::to_string(d.message.size()) +
                                                         "-byte message: " + d.message.substr(0, 200) + "...");
    FUZZ_CHECK(d.offset == Diagnostic::npos || d.offset <= text.size(),
               "diagnostic [" + d.rule + "] at offset " + std::to_string(d.offset) + " past the text");
    if (d.offset != Diagnostic::npos && d.line != 0) {
      const auto [line, column] = lineColumn(text, d.offset);
      FUZZ_CHECK(d.line == line && d.column == column,
                 "diagnostic [" + d.rule + "] at offset " + std::to_string(d.offset) + " says " +
                     std::to_string(d.line) + ":" + std::to_string(d.column) + ", the text says " +
                     std::to_string(line) + ":" + std::to_string(column));
    }
  }
  checkLocations(parse, text);
  FUZZ_CHECK(parse.diagnostics.size() <= kMaxKeptDiagnostics + 1,
             std::to_string(parse.diagnostics.size()) + " diagnostics kept");
  FUZZ_CHECK(parse.description.has_value() == !anyError,
             parse.description ? "a description returned with an error: " + firstError(parse)
                               : std::string("no description, yet no error diagnostic"));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = gdmap::fuzz::asText(data, size);
  const DescriptionParse parse = parseDescription(text);
  checkDiagnostics(parse, text);
  if (!parse.description) return 0;
  const MapDescription& description = *parse.description;

  bool hasRaw = false;
  for (const InstantiationDescription& inst : description.instantiations) {
    if (!inst.raw) continue;
    hasRaw = true;
    FUZZ_CHECK(!inst.raw->empty(), "an empty raw item is accepted (instantiation '" + inst.name + "')");
  }

  Expected<Bytes> map = buildMap(description);
  FUZZ_CHECK(map.ok(), "an accepted description does not build: " + describeError(map.error()));
  Status matches = matchesDescription(*map, description);
  FUZZ_CHECK(matches.ok(), "the built map does not match its description: " + describeError(matches.error()));
  if (!hasRaw) {
    const CheckReport report = checkMap(*map);
    FUZZ_CHECK(report.valid, "a description without raw items builds an invalid map: " + hexOf(*map) +
                                 (report.diagnostics.empty()
                                      ? std::string()
                                      : " [" + report.diagnostics[0].rule + "] " + report.diagnostics[0].message));
    FUZZ_CHECK(checkCanonical(*map).canonical, "the builder's map is not canonical: " + hexOf(*map));
  }

  const std::string json = writeDescription(description);
  const DescriptionParse reread = parseDescription(json);
  FUZZ_CHECK(reread.description.has_value(),
             "writeDescription's JSON does not parse back: " + firstError(reread) + "\n" + json.substr(0, 2000));
  const std::string again = writeDescription(*reread.description);
  FUZZ_CHECK(again == json,
             "writeDescription is not a fixed point:\n" + json.substr(0, 2000) + "\n---\n" + again.substr(0, 2000));
  Expected<Bytes> rebuilt = buildMap(*reread.description);
  FUZZ_CHECK(rebuilt.ok() && *rebuilt == *map, "the description builds differently after a trip through JSON");
  return 0;
}
