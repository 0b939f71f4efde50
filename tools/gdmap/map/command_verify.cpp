// gdmap verify: is MAP byte for byte the map DESC describes?
#include "app/commands.hpp"
#include "app/exit_status.hpp"
#include "common/file_io.hpp"
#include "common/input_kind.hpp"
#include "common/report.hpp"
#include "common/type_names_input.hpp"
#include "common/verdict.hpp"
#include "map/description_input.hpp"
#include "map/diff_output.hpp"

#include <gdmap/internal/plural.hpp>
#include <gdmap/reader/map_compare.hpp>
#include <gdmap/reader/map_diff.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <iostream>
#include <memory>

namespace gdmap::cli {
namespace {

std::string sizes(const MapDifference& d) {
  return plural(d.differingBytes, "differing byte", "differing bytes") + "; expected " +
         std::to_string(d.expectedSize) + " bytes, found " + std::to_string(d.actualSize);
}

int verify(const VerifyOptions& options, Report& report) {
  if (const std::optional<int> usage = bothFromStdin(options.description, options.map, "MAP", report)) return *usage;
  std::unique_ptr<TypeNames> names;
  if (!options.names.empty() && !(names = loadTypeNames(options.names, report))) return kUsageOrIo;
  auto description = openInput(options.description, report, FileAccess::Whole, InputContent::Json);
  if (!description) return kUsageOrIo;
  const LoadedDescription loaded = loadDescription(*description, report, names.get());
  if (!loaded.ok()) {
    // DESCRIPTION comes first: a map there means the two were swapped.
    if (loaded.status == kInvalid)
      noteWrongKind(*description, InputKind::Binary, "a binary map", "a JSON description",
                    "gdmap verify " + shellWord(options.map), report);
    return loaded.status;
  }
  auto input = openInput(options.map, report);
  if (!input) return kUsageOrIo;
  const std::string& name = input->displayName();
  const MapDifference d = compareMaps(loaded.map, input->bytes());
  if (!d.identical) noteJsonNotMap(*input, report);
  // The cause and every difference, by dictionary (the description's map
  // is A, the file is B).
  const MapDiff all = d.identical ? MapDiff{} : diffMaps(loaded.map, input->bytes(), mapDiffOptions(options.listing));
  if (report.json()) {
    writeVerdictJson({d.identical, d.expectedSize, d.actualSize, d.firstOffset, d.field}, report);
    JsonObject& out = report.object();
    if (!d.identical) {
      out.string("expected", d.expected);
      out.string("found", d.found);
      out.number("differingBytes", d.differingBytes);
      out.string("cause", diffCause(all, "the description", "the map"));
      writeDiffJson(all, out);
      report.add(differsAt(d.field, d.firstOffset, name,
                           "expected " + d.expected + ", found " + d.found + " (" + sizes(d) + ")"));
    }
  } else if (d.identical) {
    std::cout << name << ": identical to the map the description describes (" << d.actualSize << " bytes)\n";
  } else {
    // The verdict line keeps its historic form (scripts grep it).
    std::cerr << name << ": differs at byte " << hex32(static_cast<std::uint32_t>(d.firstOffset)) << ", " << d.field
              << ": expected " << d.expected << ", found " << d.found << " (" << sizes(d) << ")\n";
    std::string text = "  cause: " + diffCause(all, "the description", "the map") +
                       "\n  all differences, description -> map: " + diffSummary(all) + "\n";
    appendDiffLines(all, "    ", text);
    std::cerr << text;
  }
  // After the verdict, which stays the first thing said about the map.
  if (all.unreadableB) report.add(byteLevelNote(*all.unreadableB, input->bytes(), name));
  return d.identical ? kSuccess : kInvalid;
}

}  // namespace

int runVerify(const VerifyOptions& options, Report& report) {
  report.nameInput(options.map);
  report.nameInput(options.description, "description");
  return runToVerdict(
      verify, options, report,
      {"identical", "expectedSize", "actualSize", "firstOffset", "field", "expected", "found", "differingBytes",
       "cause", "structural", "sameContent", "total", "listed", "counts", "differences", "bytes"});
}

}  // namespace gdmap::cli
