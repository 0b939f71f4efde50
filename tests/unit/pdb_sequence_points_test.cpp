// The sequence points blob (Portable PDB v1.0, "Sequence Points Blob"),
// record by record: spec vectors for each record kind, the header's
// InitialDocument, hidden points, document records, and a located pdb-invalid
// error for every rule a value can break.
#include "reader/pdb/sequence_points_blob.hpp"
#include "reader/pdb/stack_trace_point.hpp"

#include <gdmap/schema/compressed_int.hpp>
#include <gdmap/schema/rules.hpp>

#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace pdb = gdmap::pdb;

namespace {

constexpr std::size_t kBlobAt = 1000;  // where the blob lies in its (imagined) PDB

// A blob written value by value: `u` unsigned, `s` signed compressed.
struct Blob {
  gdmap::Bytes bytes;
  Blob& u(std::uint32_t value) {
    REQUIRE(gdmap::appendCompressedUInt(bytes, value));
    return *this;
  }
  Blob& s(std::int32_t value) {
    REQUIRE(gdmap::appendCompressedInt(bytes, value));
    return *this;
  }
  Blob& raw(std::initializer_list<std::uint8_t> values) {
    bytes.insert(bytes.end(), values);
    return *this;
  }
};

gdmap::Expected<std::vector<pdb::SequencePoint>> decode(const Blob& blob, std::uint32_t document = 1,
                                                        std::uint32_t documents = 2) {
  return pdb::decodeSequencePoints({blob.bytes, kBlobAt, 7, document, documents});
}

void checkPoint(const pdb::SequencePoint& p, std::uint32_t il, std::uint32_t document, std::uint32_t startLine,
                std::uint16_t startColumn, std::uint32_t endLine, std::uint16_t endColumn) {
  CHECK(p.ilOffset == il);
  CHECK(p.document == document);
  CHECK(p.startLine == startLine);
  CHECK(p.startColumn == startColumn);
  CHECK(p.endLine == endLine);
  CHECK(p.endColumn == endColumn);
}

// The error a blob gives: pdb-invalid, at `offset` into the blob, with `path`
// after "MethodDebugInformation[7].SequencePoints".
void checkError(const Blob& blob, std::size_t offset, const std::string& path, const std::string& words,
                std::uint32_t document = 1) {
  const auto points = decode(blob, document);
  REQUIRE_FALSE(points.ok());
  CHECK(points.error().rule == "pdb-invalid");
  CHECK(points.error().offset == kBlobAt + offset);
  CHECK(points.error().path == "MethodDebugInformation[7].SequencePoints" + path);
  CHECK_MESSAGE(points.error().message.find(words) != std::string::npos, points.error().message);
}

}  // namespace

TEST_CASE("pdb sequence points: every record kind, as the specification encodes it") {
  Blob blob;
  blob.u(0);                        // LocalSignature (the method's Document column is 1: no InitialDocument)
  blob.u(0).u(0).u(10).u(5).u(9);   // IL 0: ΔLines 0, ΔColumns 10 (unsigned), StartLine 5, StartColumn 9
  blob.u(4).u(2).s(-3).s(1).s(-2);  // IL 4: ΔLines 2, ΔColumns -3 (signed), δStartLine +1, δStartColumn -2
  blob.u(3).u(0).u(0);              // IL 7: hidden
  blob.u(0).u(2);                   // document record: document 2
  blob.u(1).u(0).u(1).s(-1).s(0);   // IL 8 in document 2: from the previous non-hidden point (6, 7)
  const auto points = decode(blob);
  REQUIRE(points.ok());
  REQUIRE(points->size() == 4);
  checkPoint((*points)[0], 0, 1, 5, 9, 5, 19);
  checkPoint((*points)[1], 4, 1, 6, 7, 8, 4);
  checkPoint((*points)[2], 7, 1, 0xFEEFEE, 0, 0xFEEFEE, 0);
  CHECK((*points)[2].hidden());
  CHECK_FALSE((*points)[1].hidden());
  checkPoint((*points)[3], 8, 2, 5, 7, 5, 8);
}

TEST_CASE("pdb sequence points: a method over several documents names its first in the header") {
  Blob blob;
  blob.u(3).u(2);                  // LocalSignature 3, InitialDocument 2 (the Document column is nil)
  blob.u(0).u(0).u(0);             // IL 0: hidden, in document 2
  blob.u(2).u(0).u(4).u(12).u(1);  // IL 2: the first non-hidden point: StartLine, StartColumn unsigned
  blob.u(0).u(1);                  // document record to document 1, ending the blob (the grammar allows it)
  const auto points = decode(blob, 0);
  REQUIRE(points.ok());
  REQUIRE(points->size() == 2);
  checkPoint((*points)[0], 0, 2, 0xFEEFEE, 0, 0xFEEFEE, 0);
  checkPoint((*points)[1], 2, 2, 12, 1, 12, 5);
}

TEST_CASE("pdb sequence points: the extremes the rules allow") {
  Blob blob;
  blob.u(0);
  blob.u(0x1FFFFFFF).u(0).u(1).u(0x1FFFFFFF - 1).u(0xFFFE);  // IL 2^29-1; line 2^29-2; columns 0xFFFE..0xFFFF
  const auto points = decode(blob);
  REQUIRE(points.ok());
  REQUIRE(points->size() == 1);
  checkPoint((*points)[0], 0x1FFFFFFF, 1, 0x1FFFFFFE, 0xFFFE, 0x1FFFFFFE, 0xFFFF);
  // No bytes at all: no points, as System.Reflection.Metadata reads it.
  const auto none = decode(Blob{});
  REQUIRE(none.ok());
  CHECK(none->empty());
  // Line 0 is a line (not hidden: only 0xFEEFEE is).
  Blob zero;
  zero.u(0).u(0).u(1).u(0).u(0).u(0);
  const auto lineZero = decode(zero);
  REQUIRE(lineZero.ok());
  checkPoint(lineZero->at(0), 0, 1, 0, 0, 1, 0);
}

TEST_CASE("pdb sequence points: a broken header or record is located (pdb-invalid)") {
  SUBCASE("a header without a record") { checkError(Blob().u(0), 1, "[0].deltaIL", "end of the data"); }
  SUBCASE("a record cut short") {
    checkError(Blob().u(0).u(0).u(0).u(10).u(5), 5, "[0].deltaStartColumn", "end of the data");
  }
  SUBCASE("no compressed integer (lead byte 111xxxxx)") {
    checkError(Blob().u(0).u(0).raw({0xE0}), 2, "[0].deltaLines", "lead byte 111xxxxx");
  }
  SUBCASE("InitialDocument 0") { checkError(Blob().u(0).u(0), 1, ".initialDocument", "document row 0", 0); }
  SUBCASE("InitialDocument past the Document table") {
    checkError(Blob().u(0).u(3), 1, ".initialDocument", "not in the Document table (2 rows)", 0);
  }
  SUBCASE("a document record naming no document") {
    checkError(Blob().u(0).u(0).u(0).u(0).u(0).u(5), 5, "[1].document", "document row 5");
  }
  SUBCASE("an IL offset of 2^29") {
    checkError(Blob().u(0).u(0x1FFFFFFF).u(0).u(0).u(1).u(0).u(0), 7, "[1].deltaIL", "IL offset 0x20000000");
  }
  SUBCASE("a start line that is the hidden line") {
    checkError(Blob().u(0).u(0).u(0).u(1).u(0xFEEFEE).u(0), 4, "[0].deltaStartLine", "start line 16707566");
  }
  SUBCASE("a start line below 0") {
    checkError(Blob().u(0).u(0).u(0).u(1).u(3).u(0).u(1).u(0).u(1).s(-4).s(0), 9, "[1].deltaStartLine",
               "start line -1");
  }
  SUBCASE("a start column of 2^16") {
    checkError(Blob().u(0).u(0).u(0).u(1).u(3).u(0x10000), 5, "[0].deltaStartColumn", "start column 65536");
  }
  SUBCASE("an end column below 0") {
    checkError(Blob().u(0).u(0).u(1).s(-10).u(3).u(5), 3, "[0].deltaColumns", "end column -5");
  }
  SUBCASE("an end line of 2^29") {
    checkError(Blob().u(0).u(0).u(1).s(0).u(0x1FFFFFFF).u(0), 2, "[0].deltaLines", "end line 536870912");
  }
  SUBCASE("an end line that is the hidden line") {
    checkError(Blob().u(0).u(0).u(1).s(0).u(0xFEEFED).u(0), 2, "[0].deltaLines", "end line 16707566");
  }
}

TEST_CASE("pdb sequence points: the point a stack trace takes (StackTraceSymbols' rule)") {
  std::vector<pdb::SequencePoint> points(5);
  const std::uint32_t offsets[] = {0, 3, 8, 9, 20};
  const std::uint32_t lines[] = {0xFEEFEE, 10, 0xFEEFEE, 12, 0xFEEFEE};
  for (std::size_t i = 0; i < points.size(); ++i) {
    points[i].ilOffset = offsets[i];
    points[i].startLine = points[i].endLine = lines[i];
  }
  CHECK(pdb::stackTracePoint(points, 0) == nullptr);  // only a hidden point up to here
  CHECK(pdb::stackTracePoint(points, 2) == nullptr);
  CHECK(pdb::stackTracePoint(points, 3) == &points[1]);
  CHECK(pdb::stackTracePoint(points, 8) == &points[1]);  // at a hidden point: the one before it
  CHECK(pdb::stackTracePoint(points, 9) == &points[3]);
  CHECK(pdb::stackTracePoint(points, 19) == &points[3]);
  CHECK(pdb::stackTracePoint(points, 0xFFFFFFFF) == &points[3]);  // past the last: the last non-hidden
  CHECK(pdb::stackTracePoint({}, 5) == nullptr);
}
