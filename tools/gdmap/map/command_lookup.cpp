// gdmap lookup: the types of one dictionary, one per line.
#include "app/commands.hpp"
#include "app/exit_status.hpp"
#include "common/file_io.hpp"
#include "common/input_kind.hpp"
#include "common/report.hpp"
#include "common/type_names_input.hpp"
#include "il/il_arguments.hpp"

#include <gdmap/reader/map_compare.hpp>
#include <gdmap/reader/map_view.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/map_format.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/schema/type_text.hpp>

#include <iostream>
#include <memory>

namespace gdmap::cli {
namespace {

// A map error, at its byte, in the map named `file`; without a path, the
// field that holds the error's byte names it (`directory[1].rva`).
int brokenMap(Report& report, const Error& error, std::string path, const std::string& file, ByteSpan map) {
  if (path.empty()) path = mapFieldPath(map, error.offset);
  Diagnostic d = binaryDiagnostic(error, std::move(path));
  d.file = file;
  report.add(std::move(d));
  return kInvalid;
}

int lookup(const LookupOptions& options, Report& report) {
  std::unique_ptr<TypeNames> names;
  if (!options.names.empty() && !(names = loadTypeNames(options.names, report))) return kUsageOrIo;
  const auto rva = parseU32(options.rva);  // decimal or 0x hex, below 2^32
  if (!rva) {
    return report.fail(kUsageOrIo, rules::kUsage,
                       "RVA " + quoteInput(options.rva) + " is not a number below 2^32 (decimal or 0x hex)");
  }
  if (report.json()) report.object().string("rva", hex32(*rva));
  // A lookup reads the header, a binary search's worth of entries and one
  // item: not worth reading the whole file ahead.
  auto input = openInput(options.map, report, FileAccess::Sparse);
  if (!input) return kUsageOrIo;
  const std::string& name = input->displayName();
  auto view = MapView::open(input->bytes());
  if (!view) {
    const int broken = brokenMap(report, view.error(), {}, name, input->bytes());
    noteJsonNotMap(*input, report);
    return broken;
  }
  // find() refuses a map whose order (or uniqueness) of RVAs the answer
  // would depend on: rva-not-ascending or duplicate-rva, never "not found".
  const auto found = view->find(*rva);
  if (!found) return brokenMap(report, found.error(), {}, name, input->bytes());
  const std::optional<std::uint32_t> index = *found;
  if (!index) {
    if (report.json()) report.object().boolean("found", false);
    // A miss is a diagnostic with its rule in text too; the words after
    // "error: " are the ones scripts grep.
    return report.fail(kInvalid, rules::kRvaNotFound, "no dictionary at RVA " + hex32(*rva), name);
  }
  const DirectoryEntry entry = view->entry(*index);
  const std::string where = directoryEntryPath(*index);
  // A broken item is named the way `check` names it: the directory field
  // when the offset misses the heap, else the item and the bad byte.
  auto item = view->item(entry.offset);
  if (!item) {
    if (entry.offset >= view->heap().size()) {
      Error error = item.error();
      error.offset = static_cast<std::size_t>(directoryOffsetOffset(*index));
      return brokenMap(report, error, directoryOffsetPath(*index), name, input->bytes());
    }
    return brokenMap(report, item.error(), where + " -> " + heapPath(entry.offset), name, input->bytes());
  }
  auto types = decodeItemTypes(*item);
  if (!types) return brokenMap(report, types.error(), where + " -> " + heapPath(entry.offset), name, input->bytes());

  if (report.json()) {
    JsonObject& out = report.object();
    out.boolean("found", true);
    out.string("path", where);
    out.beginArray("types");
    std::string text;
    for (const Type& type : *types) {
      text.clear();
      formatType(type, text, names.get());
      out.arrayString(text);
    }
    out.endArray();
    return kSuccess;
  }
  std::string out;
  for (const Type& type : *types) {
    formatType(type, out, names.get());
    out += '\n';
  }
  std::cout << out;
  return kSuccess;
}

}  // namespace

int runLookup(const LookupOptions& options, Report& report) {
  report.nameInput(options.map);
  return runToVerdict(lookup, options, report, {"rva", "found", "path", "types"});
}

}  // namespace gdmap::cli
