// Fuzz target: the JSON description parser (parseDescription) on arbitrary
// text, and for a description it accepts: buildMap, matchesDescription,
// checkMap, and the writeDescription -> parseDescription round trip.
//
// Invariants (each aborts when broken):
// - diagnostics (fuzz/diagnostic_invariants.hpp): a description comes back
//   exactly when no diagnostic is an error; each has a rule and a message;
//   at most the cap (100) plus one summary note are kept; messages stay
//   short whatever the input (quotes are capped, issue #7 defect 4); line
//   and column agree with the offset, and the offset lies in the value the
//   diagnostic's pointer names;
// - an accepted description builds; the map matches it; without raw items
//   the map is valid and canonical; a raw item is never empty (defect 6);
// - writeDescription's JSON parses back without an error, writes the same
//   JSON again, and builds the same bytes;
// - the streamed paths say what the model paths say: buildMapFromDescription
//   gives the same diagnostics (text, pointer, position) and the same map
//   as parseDescription + buildMap, and dumpDescription of a valid map is
//   writeDescription(describeMap(map)).
#include "diagnostic_invariants.hpp"
#include "fuzz_check.hpp"

#include <gdmap/description/description_json.hpp>
#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/map_dump.hpp>
#include <gdmap/writer/map_builder.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

using namespace gdmap;
using gdmap::fuzz::describeError;
using gdmap::fuzz::hexOf;

std::string firstError(const DescriptionParse& parse) { return gdmap::fuzz::firstError(parse.diagnostics); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = gdmap::fuzz::asText(data, size);
  const DescriptionParse parse = parseDescription(text);
  gdmap::fuzz::checkDiagnostics(parse.diagnostics, parse.description.has_value(), text);
  const DescriptionBuild streamed = buildMapFromDescription(text);
  FUZZ_CHECK(streamed.diagnostics.size() == parse.diagnostics.size() && streamed.errorCount == parse.errorCount &&
                 streamed.warningCount == parse.warningCount,
             "the streamed build reports differently from the parse");
  for (std::size_t i = 0; i < parse.diagnostics.size(); ++i) {
    FUZZ_CHECK(formatDiagnostic(streamed.diagnostics[i]) == formatDiagnostic(parse.diagnostics[i]) &&
                   streamed.diagnostics[i].path == parse.diagnostics[i].path,
               "diagnostic " + std::to_string(i) + " differs: " + formatDiagnostic(streamed.diagnostics[i]) + " | " +
                   formatDiagnostic(parse.diagnostics[i]));
  }
  FUZZ_CHECK(streamed.map.has_value() == parse.description.has_value(),
             "the streamed build and the parse disagree on validity");
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
  FUZZ_CHECK(*streamed.map == *map,
             "the streamed build's map differs from buildMap's: " + hexOf(*streamed.map) + " vs " + hexOf(*map));
  if (checkMap(*map).valid) {
    const Expected<DumpResult> described = describeMap(*map);
    const Expected<std::string> dumped = dumpDescription(*map);
    FUZZ_CHECK(described.ok() && dumped.ok() && *dumped == writeDescription(described->description),
               "dumpDescription differs from writeDescription(describeMap())");
  }
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
