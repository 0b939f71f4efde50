// gdmap hexdump: every byte of a map, in order, with its field
// path and meaning (annotateMap()); bytes that break a rule or belong to
// nothing are marked. Valid or not, the whole file is shown.
#include "app/commands.hpp"
#include "app/exit_status.hpp"
#include "common/file_io.hpp"
#include "common/input_kind.hpp"
#include "common/range_output.hpp"
#include "common/report.hpp"
#include "common/type_names_input.hpp"

#include <gdmap/reader/map_annotate.hpp>
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>

#include <algorithm>
#include <iostream>
#include <memory>

namespace gdmap::cli {
namespace {

// "! 0000001c  09 01 ...  heap@0x0.length  length 9 [item-length-outside-heap]",
// a range longer than a line continued on lines of its own bytes alone.
void appendRangeText(ByteSpan map, const AnnotatedRange& r, const DumpColumns& columns, std::string& out) {
  constexpr std::size_t kLine = DumpColumns::kBytesPerLine;
  for (std::size_t at = r.offset, end = r.offset + r.length; at < end; at += kLine) {
    const std::size_t lineStart = out.size();
    appendLineStart(r.status, at, out);
    columns.appendLineEnd(map.subspan(at, std::min(end, at + kLine) - at), at == r.offset, lineStart, r.path, r.meaning,
                          r.rule, out);
  }
}

void writeRangeJson(JsonWriter& w, ByteSpan map, const AnnotatedRange& r) {
  w.beginObject(JsonWriter::Layout::Inline);
  w.member("offset", r.offset);
  w.member("length", r.length);
  w.key("path");
  w.string(r.path);
  writeRangeTail(w, r.meaning, map.subspan(r.offset, r.length), rangeStatusName(r.status), r.rule, r.message);
  w.endObject();
}

int hexdump(const HexdumpOptions& options, Report& report) {
  std::unique_ptr<TypeNames> names;
  if (!options.names.empty() && !(names = loadTypeNames(options.names, report))) return kUsageOrIo;
  auto input = openInput(options.map, report);
  if (!input) return kUsageOrIo;
  const std::string& name = input->displayName();
  const ByteSpan map = input->bytes();
  if (report.json()) {
    // Streamed: a range is written as it is annotated, so a map of a
    // million entries never has its whole dump in memory; the verdict,
    // known only at the end, follows the ranges.
    JsonObject& out = report.object();
    out.number("size", map.size());
    out.beginArray("ranges");
    CheckReport check = annotateMap(
        map, [&](const AnnotatedRange& r) { writeRangeJson(out.element(), map, r); }, names.get());
    out.endArray();
    out.boolean("valid", check.valid);
    report.countUnlisted(check.diagnostics, check.errors, check.warnings);
    report.add(std::move(check.diagnostics), name);
    if (!check.valid) noteJsonNotMap(*input, report);
    return check.valid ? kSuccess : kInvalid;
  }

  // Two passes, so that the columns fit the widest range and nothing but
  // one line is held: the first measures, the second prints.
  DumpColumns columns;
  (void)annotateMap(
      map, [&](const AnnotatedRange& r) { columns.fit(r.length, r.path.size()); }, names.get());
  std::string text = columns.header("  offset    ");
  CheckReport check = annotateMap(
      map,
      [&](const AnnotatedRange& r) {
        appendRangeText(map, r, columns, text);
        writeIfFull(text);
      },
      names.get());
  if (!writeRest(text)) return report.stdoutFailed();
  report.countUnlisted(check.diagnostics, check.errors, check.warnings);
  report.add(std::move(check.diagnostics), name);
  if (!check.valid) noteJsonNotMap(*input, report);
  return check.valid ? kSuccess : kInvalid;
}

}  // namespace

int runHexdump(const HexdumpOptions& options, Report& report) {
  report.nameInput(options.map);
  return runToVerdict(hexdump, options, report, {"size", "ranges", "valid"});
}

}  // namespace gdmap::cli
