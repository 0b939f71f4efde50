#include "sequence_points_blob.hpp"

#include "pdb_errors.hpp"

#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <optional>
#include <string>
#include <utility>

namespace gdmap::pdb {
namespace {

constexpr std::uint32_t kHiddenLine = 0xFEEFEE;
// IL offsets and lines lie in [0, 0x20000000), columns in [0, 0x10000)
// (the specification's constraints on a sequence point's values).
constexpr std::int64_t kLineLimit = 0x20000000;
constexpr std::int64_t kColumnLimit = 0x10000;
constexpr std::size_t kHeader = static_cast<std::size_t>(-1);  // a header field, not a point's

// A value read, with where its bytes start (to locate a rule it breaks).
struct Field {
  std::int64_t value = 0;
  std::size_t at = 0;
};

class Decoder {
 public:
  explicit Decoder(const SequencePointsBlob& blob)
      : blob_(blob), in_(blob.bytes, blob.offset, rules::kPdbInvalid), document_(blob.document) {}

  Expected<std::vector<SequencePoint>> run() {
    // No bytes at all: no points (System.Reflection.Metadata reads an empty
    // blob so; a blob with a header has at least one record).
    if (blob_.bytes.empty()) return std::move(points_);
    read(kHeader, "localSignature", false);  // the locals' StandAloneSig row: no part of a line
    if (blob_.document == 0) readDocument(kHeader, "initialDocument");
    do {
      record();
    } while (!error_ && !in_.atEnd());
    if (error_) return *error_;
    return std::move(points_);
  }

 private:
  void fail(std::size_t at, std::size_t point, const char* field, std::string message) {
    if (error_) return;
    std::string path = "MethodDebugInformation[" + std::to_string(blob_.methodRow) + "].SequencePoints";
    if (point != kHeader) {
      path += '[';  // appended: `"[" + std::string` trips a false g++ 12 -Wrestrict warning at -O2
      path += std::to_string(point);
      path += ']';
    }
    path += ".";
    path += field;
    error_ = pdbInvalid(at, std::move(path), std::move(message));
  }

  // A compressed integer, unsigned or signed (ECMA-335 II.23.2).
  Field read(std::size_t point, const char* field, bool isSigned) {
    Field f{0, in_.offset()};
    if (error_) return f;
    f.value = isSigned ? std::int64_t{in_.compressedInt()} : std::int64_t{in_.compressedUInt()};
    if (!in_.ok()) {
      const Error e = in_.takeError();
      fail(e.offset, point, field, e.message);
    }
    return f;
  }

  // A Document row: 1 to the table's rows.
  void readDocument(std::size_t point, const char* field) {
    const Field row = read(point, field, false);
    if (error_) return;
    if (row.value == 0 || row.value > blob_.documentCount) {
      fail(row.at, point, field,
           "document row " + std::to_string(row.value) + " is not in the Document table (" +
               std::to_string(blob_.documentCount) + " rows)");
      return;
    }
    document_ = static_cast<std::uint32_t>(row.value);
  }

  // A sequence-point or hidden-sequence-point record, after the document
  // records before it (a δILOffset of 0 past the first record).
  void record() {
    const std::size_t point = points_.size();
    Field deltaIl = read(point, "deltaIL", false);
    while (!error_ && point > 0 && deltaIl.value == 0) {
      readDocument(point, "document");
      if (error_ || in_.atEnd()) return;  // the grammar lets a document record end the blob
      deltaIl = read(point, "deltaIL", false);
    }
    const std::int64_t il = (point == 0 ? 0 : std::int64_t{points_.back().ilOffset}) + deltaIl.value;
    if (!error_ && il >= kLineLimit)
      fail(deltaIl.at, point, "deltaIL", "IL offset " + shortHex(il) + " is 2^29 or more");
    const Field deltaLines = read(point, "deltaLines", false);
    // ΔColumns is unsigned and non-zero on one line, signed across lines.
    const Field deltaColumns = read(point, "deltaColumns", deltaLines.value != 0);
    if (error_) return;
    SequencePoint p;
    p.ilOffset = static_cast<std::uint32_t>(il);
    p.document = document_;
    if (deltaLines.value == 0 && deltaColumns.value == 0) {
      p.startLine = p.endLine = kHiddenLine;
      points_.push_back(p);
      return;
    }
    const bool first = !previousLine_.has_value();
    const Field startLine = read(point, "deltaStartLine", !first);
    const Field startColumn = read(point, "deltaStartColumn", !first);
    const std::int64_t line = (first ? 0 : *previousLine_) + startLine.value;
    const std::int64_t column = (first ? 0 : previousColumn_) + startColumn.value;
    checkLine(line, startLine.at, point, "deltaStartLine", "start");
    checkColumn(column, startColumn.at, point, "deltaStartColumn", "start");
    checkLine(line + deltaLines.value, deltaLines.at, point, "deltaLines", "end");
    checkColumn(column + deltaColumns.value, deltaColumns.at, point, "deltaColumns", "end");
    if (error_) return;
    p.startLine = static_cast<std::uint32_t>(line);
    p.endLine = static_cast<std::uint32_t>(line + deltaLines.value);
    p.startColumn = static_cast<std::uint16_t>(column);
    p.endColumn = static_cast<std::uint16_t>(column + deltaColumns.value);
    previousLine_ = line;
    previousColumn_ = column;
    points_.push_back(p);
  }

  void checkLine(std::int64_t line, std::size_t at, std::size_t point, const char* field, const char* which) {
    if (line < 0 || line >= kLineLimit || line == kHiddenLine)
      fail(at, point, field,
           std::string(which) + " line " + std::to_string(line) + " is outside [0, 2^29) or the hidden line 0xFEEFEE");
  }

  void checkColumn(std::int64_t column, std::size_t at, std::size_t point, const char* field, const char* which) {
    if (column < 0 || column >= kColumnLimit)
      fail(at, point, field, std::string(which) + " column " + std::to_string(column) + " is outside [0, 2^16)");
  }

  const SequencePointsBlob& blob_;
  ByteCursor in_;
  std::uint32_t document_ = 0;
  std::vector<SequencePoint> points_;
  std::optional<std::int64_t> previousLine_;  // of the previous non-hidden point
  std::int64_t previousColumn_ = 0;
  std::optional<Error> error_;
};

}  // namespace

Expected<std::vector<SequencePoint>> decodeSequencePoints(const SequencePointsBlob& blob) {
  return Decoder(blob).run();
}

}  // namespace gdmap::pdb
