// Fuzz target: the map reader on arbitrary bytes: MapView (open, entry,
// item, find, decodeItemTypes), checkMap (strict and not, with a small
// diagnostic cap), checkCanonical, mapFieldPath, and for a map checkMap()
// accepts: describeMap, matchesDescription, compareMaps, and the dump ->
// JSON -> build round trip `gdmap dump` and `gdmap build` rely on.
//
// Invariants (each aborts when broken):
// - checkMap's report is consistent (valid == no error; counts >= kept
//   diagnostics; truncated exactly when some were not kept; every
//   diagnostic has a rule); strict counts every warning as an error; the
//   diagnostic cap changes what is kept, never what is counted;
// - a valid map: every entry's item opens and decodes, find() finds every
//   RVA at an entry with that RVA (issue #7 defect 2), describeMap succeeds
//   and says "rebuilds identically" exactly when checkCanonical says
//   canonical, the description matches the map, builds (through JSON too)
//   to a valid canonical map with the same content, and to the same bytes
//   when the map is canonical; compareMaps finds it identical to itself
//   and finds a flipped byte where it is;
// - field paths: mapFieldPath and every diagnostic located in the header
//   or directory name the field the layout puts at that byte; one located
//   in the heap names a heap item;
// - find() on any map finds an RVA the directory holds, or refuses with
//   rva-not-ascending / duplicate-rva, and only on a map checkMap rejects;
// - an invalid map: describeMap fails.
#include "fuzz_check.hpp"

#include <gdmap/description/description_json.hpp>
#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/map_compare.hpp>
#include <gdmap/reader/map_dump.hpp>
#include <gdmap/reader/map_view.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/map_format.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/writer/map_builder.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace {

using namespace gdmap;
using gdmap::fuzz::describeError;
using gdmap::fuzz::hexOf;

// find() answers only from an order the map has earned (issue #7 defect
// 2): it finds an RVA the directory holds or refuses with the rule that
// breaks; "not there" must be true.
void checkFind(const MapView& view, std::uint32_t rva, bool present, bool mapValid) {
  Expected<std::optional<std::uint32_t>> found = view.find(rva);
  if (!found) {
    const std::string& rule = found.error().rule;
    FUZZ_CHECK(rule == rules::kRvaNotAscending || rule == rules::kDuplicateRva,
               "find() refuses with rule '" + rule + "'");
    FUZZ_CHECK(found.error().offset < view.bytes().size(), "find()'s error offset is outside the map");
    FUZZ_CHECK(!mapValid, "find() refuses a map checkMap accepts: " + describeError(found.error()));
    return;
  }
  if (*found) {
    FUZZ_CHECK(**found < view.size() && view.entry(**found).rva == rva, "find() returns an entry with another RVA");
    return;
  }
  FUZZ_CHECK(!present, "find(" + hex32(rva) + ") answers 'no dictionary' for an RVA the directory holds");
  if (view.size() <= 4096) {
    for (std::uint32_t i = 0; i < view.size(); ++i)
      FUZZ_CHECK(view.entry(i).rva != rva, "find(" + hex32(rva) + ") misses directory[" + std::to_string(i) + "]");
  }
}

void checkReportShape(const CheckReport& r, std::size_t cap, ByteSpan map) {
  FUZZ_CHECK(r.valid == (r.errors == 0), "valid disagrees with the error count");
  FUZZ_CHECK(r.diagnostics.size() <= cap, "more diagnostics kept than maxDiagnostics");
  FUZZ_CHECK(r.errors + r.warnings >= r.diagnostics.size(), "fewer findings counted than kept");
  FUZZ_CHECK(r.truncated == (r.errors + r.warnings > r.diagnostics.size()),
             "truncated is " + std::to_string(r.truncated) + " with " + std::to_string(r.errors + r.warnings) +
                 " findings and " + std::to_string(r.diagnostics.size()) + " kept");
  for (const Diagnostic& d : r.diagnostics) {
    FUZZ_CHECK(!d.rule.empty(), "a map diagnostic without a rule: " + d.message);
    FUZZ_CHECK(d.offset == Diagnostic::npos || d.offset <= map.size(),
               "diagnostic [" + d.rule + "] at offset " + std::to_string(d.offset) + " past the map's " +
                   std::to_string(map.size()) + " bytes");
    FUZZ_CHECK(!d.message.empty(), "diagnostic [" + d.rule + "] without a message");
  }
}

// The field a byte of the header or directory belongs to, by the layout
// alone; "" past the directory (or when it does not fit).
std::string layoutPath(ByteSpan map, std::size_t offset) {
  if (offset < kHeaderSize) return kHeaderCountPath;
  Expected<MapView> view = MapView::open(map);
  if (!view || offset >= view->heapStart()) return {};
  const std::size_t index = (offset - kHeaderSize) / kDirectoryEntrySize;
  return (offset - kHeaderSize) % kDirectoryEntrySize < 4 ? directoryRvaPath(index) : directoryOffsetPath(index);
}

// Diagnostics name the field their offset is in: mapFieldPath agrees with
// the layout in the header and directory, and so does every diagnostic
// located there; a diagnostic located in the heap names a heap item.
void checkDiagnosticPaths(ByteSpan map, const CheckReport& report) {
  for (std::size_t o : {std::size_t{0}, std::size_t{3}, std::size_t{4}, std::size_t{8}, std::size_t{12}}) {
    const std::string expected = layoutPath(map, o);
    if (o >= map.size() || expected.empty()) continue;
    FUZZ_CHECK(mapFieldPath(map, o) == expected,
               "mapFieldPath(" + std::to_string(o) + ") is '" + mapFieldPath(map, o) + "', not '" + expected + "'");
  }
  for (const Diagnostic& d : report.diagnostics) {
    if (d.offset == Diagnostic::npos || d.offset >= map.size()) continue;
    const std::string expected = layoutPath(map, d.offset);
    if (!expected.empty()) {
      FUZZ_CHECK(d.path == expected, "[" + d.rule + "] at byte " + std::to_string(d.offset) + " names '" + d.path +
                                         "', the byte is in " + expected);
    } else if (d.offset >= kHeaderSize) {
      FUZZ_CHECK(d.path.rfind("heap@", 0) == 0,
                 "[" + d.rule + "] at heap byte " + std::to_string(d.offset) + " names '" + d.path + "'");
    }
  }
}

// What a valid map must give every reader API.
void checkValidMap(ByteSpan map, const CanonicalReport& canonical) {
  Expected<MapView> view = MapView::open(map);
  FUZZ_CHECK(view.ok(), "checkMap accepts a map MapView::open rejects: " + describeError(view.error()));
  for (std::uint32_t i = 0; i < view->size(); ++i) {
    const DirectoryEntry e = view->entry(i);
    Expected<ItemView> item = view->item(e.offset);
    FUZZ_CHECK(item.ok(),
               "valid map, directory[" + std::to_string(i) + "]'s item does not open: " + describeError(item.error()));
    Expected<std::vector<Type>> types = decodeItemTypes(*item);
    FUZZ_CHECK(types.ok(), "valid map, directory[" + std::to_string(i) +
                               "]'s types do not decode: " + describeError(types.error()));
    Expected<std::optional<std::uint32_t>> found = view->find(e.rva);
    FUZZ_CHECK(found.ok(), "valid map, find() refuses: " + describeError(found.error()));
    FUZZ_CHECK(*found && view->entry(**found).rva == e.rva,
               "valid map, find(" + std::to_string(e.rva) + ") misses directory[" + std::to_string(i) + "]");
  }

  Expected<DumpResult> dumped = describeMap(map);
  FUZZ_CHECK(dumped.ok(), "describeMap fails on a valid map: " + describeError(dumped.error()));
  FUZZ_CHECK(dumped->rebuildDifferences.empty() == canonical.canonical,
             "describeMap's rebuild differences disagree with checkCanonical");
  const MapDescription& description = dumped->description;
  Status matches = matchesDescription(map, description);
  FUZZ_CHECK(matches.ok(), "a map does not match its own description: " + describeError(matches.error()));

  Expected<Bytes> rebuilt = buildMap(description);
  FUZZ_CHECK(rebuilt.ok(), "a valid map's description does not build: " + describeError(rebuilt.error()));
  if (canonical.canonical) {
    FUZZ_CHECK(std::equal(rebuilt->begin(), rebuilt->end(), map.begin(), map.end()),
               "a canonical map rebuilds to other bytes: " + hexOf(map) + " -> " + hexOf(*rebuilt));
  }
  const CheckReport rebuiltReport = checkMap(*rebuilt);
  FUZZ_CHECK(rebuiltReport.valid, "the rebuilt map is invalid: " + hexOf(*rebuilt));
  FUZZ_CHECK(checkCanonical(*rebuilt).canonical, "the rebuilt map is not canonical: " + hexOf(*rebuilt));
  Status rebuiltMatches = matchesDescription(*rebuilt, description);
  FUZZ_CHECK(rebuiltMatches.ok(),
             "the rebuilt map does not match the description: " + describeError(rebuiltMatches.error()));

  // Through the JSON text, as `gdmap dump | gdmap build` does.
  const std::string json = writeDescription(description);
  DescriptionParse reread = parseDescription(json);
  FUZZ_CHECK(reread.description.has_value(), "writeDescription's JSON does not parse back: " +
                                                 (reread.diagnostics.empty() ? std::string("no diagnostic")
                                                                             : "[" + reread.diagnostics[0].rule + "] " +
                                                                                   reread.diagnostics[0].message) +
                                                 "\n" + json.substr(0, 2000));
  Expected<Bytes> fromJson = buildMap(*reread.description);
  FUZZ_CHECK(fromJson.ok(), "the re-read description does not build: " + describeError(fromJson.error()));
  FUZZ_CHECK(*fromJson == *rebuilt,
             "the description builds differently after a trip through JSON:\n" + json.substr(0, 2000));

  const MapDifference same = compareMaps(map, map);
  FUZZ_CHECK(same.identical && same.differingBytes == 0, "compareMaps: a map differs from itself");
  if (!map.empty()) {
    Bytes flipped(map.begin(), map.end());
    const std::size_t at = map[map.size() - 1] % map.size();
    flipped[at] ^= 0x01;
    const MapDifference diff = compareMaps(map, flipped);
    FUZZ_CHECK(!diff.identical && diff.firstOffset == at && diff.differingBytes == 1,
               "compareMaps misplaces a flipped byte at " + std::to_string(at) + ": reports " +
                   std::to_string(diff.firstOffset) + " (" + diff.field + ")");
    (void)compareMaps(map, map.first(map.size() - 1));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const ByteSpan map = gdmap::fuzz::asBytes(data, size);

  CheckOptions lenient;
  const CheckReport report = checkMap(map, lenient);
  checkReportShape(report, lenient.maxDiagnostics, map);

  // Indexing on any bytes: nothing here may read out of bounds.
  if (Expected<MapView> view = MapView::open(map)) {
    const std::uint32_t n = std::min<std::uint32_t>(view->size(), 4096);
    for (std::uint32_t i = 0; i < n; ++i) {
      const DirectoryEntry e = view->entry(i);
      if (Expected<ItemView> item = view->item(e.offset)) {
        FUZZ_CHECK(
            item->bytes.data() >= map.data() && item->bytes.data() + item->bytes.size() <= map.data() + map.size(),
            "an item view outside the map");
        (void)decodeItemTypes(*item);
      }
      checkFind(*view, e.rva, true, report.valid);
    }
    checkFind(*view, 0, false, report.valid);
    checkFind(*view, 0xFFFFFFFFu, false, report.valid);
  }

  CheckOptions strict;
  strict.strict = true;
  const CheckReport strictReport = checkMap(map, strict);
  checkReportShape(strictReport, strict.maxDiagnostics, map);
  FUZZ_CHECK(strictReport.errors == report.errors + report.warnings && strictReport.warnings == 0,
             "strict counts " + std::to_string(strictReport.errors) + " errors for " + std::to_string(report.errors) +
                 " errors and " + std::to_string(report.warnings) + " warnings");

  CheckOptions capped;
  capped.maxDiagnostics = 1;
  const CheckReport cappedReport = checkMap(map, capped);
  checkReportShape(cappedReport, capped.maxDiagnostics, map);
  FUZZ_CHECK(cappedReport.errors == report.errors && cappedReport.warnings == report.warnings,
             "the diagnostic cap changes the counts");

  const CanonicalReport canonical = checkCanonical(map);
  FUZZ_CHECK(canonical.canonical == canonical.reasons.empty(), "canonical disagrees with its reasons");
  FUZZ_CHECK(!canonical.canonical || report.valid, "checkCanonical calls an invalid map canonical");
  for (const Diagnostic& d : canonical.reasons) FUZZ_CHECK(!d.rule.empty(), "a canonical reason without a rule");

  // Field paths on any bytes, at a few offsets (each is linear in the map).
  if (!map.empty()) {
    for (std::size_t k = 0; k < 8; ++k) (void)mapFieldPath(map, (map.size() * k) / 8);
    (void)mapFieldPath(map, map.size() - 1);
  }
  (void)mapFieldPath(map, map.size());
  checkDiagnosticPaths(map, report);

  if (report.valid) {
    checkValidMap(map, canonical);
  } else {
    Expected<DumpResult> dumped = describeMap(map);
    FUZZ_CHECK(!dumped.ok(), "describeMap succeeds on a map checkMap rejects");
  }
  return 0;
}
