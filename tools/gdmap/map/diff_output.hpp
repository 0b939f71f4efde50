#pragma once
// How `gdmap diff` and `gdmap verify` print a MapDiff (<gdmap/reader/map_diff.hpp>):
// one line per difference in text, one object per difference in --json
// (docs/cli.md, "diff").
#include "common/json_object.hpp"

#include <gdmap/reader/map_diff.hpp>
#include <gdmap/schema/diagnostic.hpp>

#include <string>
#include <string_view>

namespace gdmap::cli {

// How much of a difference `verify` and `diff` list: --all, --context.
struct DiffListing {
  bool all = false;
  bool context = false;
};
MapDiffOptions mapDiffOptions(const DiffListing& listing, const TypeNames* names = nullptr);

// "1 header, 2 added, 1 changed": the non-zero counts, or "none".
std::string diffCounts(const MapDiff& d);

// "4 differences (1 added, ...)" or "same content, different layout: ...".
std::string diffSummary(const MapDiff& d);

// One line per listed difference, each starting with `indent`:
//   "changed  dictionary 0x1040: type[1]: int32 -> string"
// then "... N more differences (--all lists them)" when some were not listed.
void appendDiffLines(const MapDiff& d, std::string_view indent, std::string& out);

// The first difference as a sentence, with `a` and `b` naming the sides:
// "the description has dictionary 0x1010 (string), the map has none".
std::string diffCause(const MapDiff& d, std::string_view a, std::string_view b);

// The JSON fields: structural, sameContent, total, listed, counts,
// differences, bytes.
void writeDiffJson(const MapDiff& d, JsonObject& out);

// For each side compared byte by byte: a diff-byte-level note naming why
// it does not read as a map. `bytes` is that side's input.
Diagnostic byteLevelNote(const Error& why, ByteSpan bytes, const std::string& file);

}  // namespace gdmap::cli
