// gdmap il hexdump: every bit of an IL-to-native
// blob, in order, with its field path and meaning (annotateBounds()); bits
// that break a rule or follow the first problem are marked.
#include "app/exit_status.hpp"
#include "app/il_commands.hpp"
#include "common/file_io.hpp"
#include "common/input_kind.hpp"
#include "common/range_output.hpp"
#include "common/report.hpp"
#include "il/il_arguments.hpp"

#include <gdmap/reader/bounds_annotate.hpp>
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>

#include <algorithm>
#include <iostream>
#include <memory>

namespace gdmap::cli {
namespace {

// The bytes a range touches: [first, last).
std::pair<std::size_t, std::size_t> touched(const il::AnnotatedBits& r) {
  return {r.bit / 8, (r.bit + r.bits + 7) / 8};
}

// "  00000000  4    4     06  bounds[0].native  delta 0: native 0": byte,
// bit in the byte, width in bits, the bytes touched (16 a line), field,
// meaning and the rule of a marked range.
void appendRangeText(ByteSpan blob, const il::AnnotatedBits& r, const DumpColumns& columns, std::string& out) {
  constexpr std::size_t kLine = DumpColumns::kBytesPerLine;
  const auto [first, last] = touched(r);
  for (std::size_t at = first; at < last; at += kLine) {
    const std::size_t lineStart = out.size();
    appendLineStart(r.status, at, out);
    std::size_t column = out.size();
    if (at == first) out += std::to_string(r.bit % 8);
    padColumn(out, column, 5);
    column = out.size();
    if (at == first) out += std::to_string(r.bits);
    padColumn(out, column, 6);
    columns.appendLineEnd(blob.subspan(at, std::min(last, at + kLine) - at), at == first, lineStart, r.path, r.meaning,
                          r.rule, out);
  }
}

void writeRangeJson(JsonWriter& w, ByteSpan blob, const il::AnnotatedBits& r) {
  const auto [first, last] = touched(r);
  w.beginObject(JsonWriter::Layout::Inline);
  w.member("offset", first);
  w.member("length", last - first);
  w.member("bit", r.bit);
  w.member("bits", r.bits);
  w.key("path");
  w.string(r.path);
  writeRangeTail(w, r.meaning, blob.subspan(first, last - first), rangeStatusName(r.status), r.rule, r.message);
  w.endObject();
}

int hexdump(const IlHexdumpOptions& options, Report& report) {
  auto input = openInput(options.blob, report);
  if (!input) return kUsageOrIo;
  const std::string& name = input->displayName();
  const ByteSpan blob = input->bytes();
  il::BoundsAnnotation annotation = il::annotateBounds(blob, formOf(options.format));
  const int status = annotation.check.valid ? kSuccess : kInvalid;

  if (report.json()) {
    JsonObject& out = report.object();
    out.number("size", blob.size());
    out.boolean("valid", annotation.check.valid);
    // Streamed, a range at a time, as `hexdump` does.
    out.beginArray("ranges");
    for (const il::AnnotatedBits& r : annotation.ranges) writeRangeJson(out.element(), blob, r);
    out.endArray();
    report.countUnlisted(annotation.check.diagnostics, annotation.check.errors, annotation.check.warnings);
    report.add(std::move(annotation.check.diagnostics), name);
    if (status != kSuccess) noteJsonNotIlBlob(*input, report);
    return status;
  }

  // The columns fit the widest range, as `hexdump`'s do: a varint of six
  // bytes does not run into the field.
  DumpColumns columns;
  for (const il::AnnotatedBits& r : annotation.ranges) {
    const auto [first, last] = touched(r);
    columns.fit(last - first, r.path.size());
  }
  std::string text = columns.header("  byte      bit  bits  ");
  for (const il::AnnotatedBits& r : annotation.ranges) {
    appendRangeText(blob, r, columns, text);
    writeIfFull(text);
  }
  if (!writeRest(text)) return report.stdoutFailed();
  report.countUnlisted(annotation.check.diagnostics, annotation.check.errors, annotation.check.warnings);
  report.add(std::move(annotation.check.diagnostics), name);
  if (status != kSuccess) noteJsonNotIlBlob(*input, report);
  return status;
}

}  // namespace

int runIlHexdump(const IlHexdumpOptions& options, Report& report) {
  report.nameInput(options.blob);
  if (report.json()) report.object().string("format", options.format);
  return runToVerdict(hexdump, options, report, {"size", "valid", "ranges"});
}

}  // namespace gdmap::cli
