// PortablePdb on the real sample of tests/data/pdb/ (built by the .NET 10 SDK,
// its points checked against System.Reflection.Metadata): documents, each
// method's sequence points, the line a stack trace prints; and on damaged
// copies of it, where every problem is a located error, never a crash.
#include <gdmap/internal/metadata_heaps.hpp>
#include <gdmap/internal/metadata_pdb_stream.hpp>
#include <gdmap/internal/metadata_streams.hpp>
#include <gdmap/internal/metadata_tables.hpp>
#include <gdmap/pdb/portable_pdb.hpp>
#include <gdmap/schema/compressed_int.hpp>
#include <gdmap/schema/rules.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>

namespace md = gdmap::metadata;
namespace pdb = gdmap::pdb;

namespace {

gdmap::Bytes dataFile(const std::string& name) {
  std::ifstream in(std::string(GDMAP_SOURCE_DIR) + "/tests/data/pdb/" + name, std::ios::binary);
  REQUIRE(in);
  return gdmap::Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

pdb::PortablePdb open(const gdmap::Bytes& bytes) {
  gdmap::Expected<pdb::PortablePdb> opened = pdb::PortablePdb::open(bytes);
  REQUIRE_MESSAGE(opened.ok(), (opened.ok() ? "" : opened.error().message));
  return std::move(opened).value();
}

std::optional<pdb::SourceLine> lineAt(const pdb::PortablePdb& p, std::uint32_t row, std::uint32_t il) {
  const auto line = p.lineAt(row, il);
  REQUIRE(line.ok());
  return *line;
}

std::string where(const std::optional<pdb::SourceLine>& line) {
  if (!line) return "none";
  return line->document + ":" + std::to_string(line->line) + ":" + std::to_string(line->column);
}

// The file offset of a cell of the sample's debug tables, and of the
// sequence points blob of MethodDef row `row`.
struct Layout {
  std::size_t cell(std::uint8_t table, std::uint32_t row, std::size_t column) const {
    return tables->cellOffset(table, row, column);
  }
  std::size_t pointsBlob(std::uint32_t row) const {
    const auto blob = md::blobAt(streams->blobs, tables->cell(md::table::kMethodDebugInformation, row, 1));
    REQUIRE(blob.ok());
    return streams->blobs.offset + static_cast<std::size_t>(blob->data() - streams->blobs.bytes.data());
  }
  gdmap::Expected<md::MetadataStreams> streams = gdmap::Error();
  gdmap::Expected<md::MetadataTables> tables = gdmap::Error();
};

Layout layoutOf(const gdmap::Bytes& file) {
  Layout out;
  out.streams = md::readStreams(file, 0);
  REQUIRE(out.streams.ok());
  const auto header = md::readPdbStream(out.streams->pdb);
  REQUIRE(header.ok());
  out.tables = md::MetadataTables::openPortablePdb(out.streams->tables, *header);
  REQUIRE(out.tables.ok());
  return out;
}

void put16(gdmap::Bytes& bytes, std::size_t at, std::uint16_t value) {
  bytes[at] = static_cast<std::uint8_t>(value);
  bytes[at + 1] = static_cast<std::uint8_t>(value >> 8);
}

}  // namespace

TEST_CASE("portable pdb: the sample's id, documents and methods") {
  const gdmap::Bytes file = dataFile("sample.pdb");
  const pdb::PortablePdb sample = open(file);
  CHECK(sample.id().text() == "a1a63090-8cda-4d77-9eeb-b5cb5c2eefb8:0x816db384");
  REQUIRE(sample.documentCount() == 4);
  CHECK(*sample.documentName(1) == "/src/sample/Helper.cs");
  CHECK(*sample.documentName(2) == "/src/sample/Program.cs");
  CHECK(*sample.documentName(4) == "/src/sample/Generated.txt");  // a #line directive's
  CHECK(*sample.documentName(2) == "/src/sample/Program.cs");     // the cached name
  CHECK(sample.methodCount() == 10);
  const pdb::PortablePdb copy = sample;  // copies share the caches
  CHECK(*copy.documentName(1) == "/src/sample/Helper.cs");
}

TEST_CASE("portable pdb: the sample's sequence points") {
  const gdmap::Bytes file = dataFile("sample.pdb");
  const pdb::PortablePdb sample = open(file);
  // Program.Main (row 2): a foreach with its hidden points, a statement over two lines.
  const auto main = sample.sequencePoints(2);
  REQUIRE(main.ok());
  REQUIRE(main->size() == 11);
  CHECK((*main)[0].ilOffset == 0);
  CHECK((*main)[0].startLine == 9);
  CHECK((*main)[0].startColumn == 9);
  CHECK((*main)[0].endColumn == 23);
  CHECK((*main)[2].ilOffset == 6);
  CHECK((*main)[2].hidden());
  CHECK((*main)[6].startLine == 10);  // `in args`, after line 11: a negative δStartLine
  CHECK((*main)[6].startColumn == 29);
  CHECK((*main)[8].startLine == 13);  // Console.WriteLine( ... ): lines 13 to 14
  CHECK((*main)[8].endLine == 14);
  CHECK((*main)[8].endColumn == 30);
  CHECK(std::all_of(main->begin(), main->end(), [](const pdb::SequencePoint& p) { return p.document == 2; }));
  // Program.Describe (row 3): its points in two documents.
  const auto describe = sample.sequencePoints(3);
  REQUIRE(describe.ok());
  REQUIRE(describe->size() == 3);
  CHECK((*describe)[0].document == 2);
  CHECK((*describe)[1].document == 4);
  CHECK((*describe)[1].startLine == 200);
  CHECK((*describe)[2].document == 2);
  // IShape.Area (row 7) is abstract: no points. Rows the table lacks: none either.
  for (const std::uint32_t row : {7u, 0u, 11u, 0xFFFFFFu}) {
    const auto none = sample.sequencePoints(row);
    REQUIRE(none.ok());
    CHECK(none->empty());
  }
}

TEST_CASE("portable pdb: the line a stack trace prints") {
  const gdmap::Bytes file = dataFile("sample.pdb");
  const pdb::PortablePdb sample = open(file);
  CHECK(where(lineAt(sample, 2, 0)) == "/src/sample/Program.cs:9:9");
  CHECK(where(lineAt(sample, 2, 1)) == "/src/sample/Program.cs:9:9");
  CHECK(where(lineAt(sample, 2, 6)) == "/src/sample/Program.cs:10:32");  // a hidden point: the one before
  CHECK(where(lineAt(sample, 2, 0x18)) == "/src/sample/Program.cs:11:13");
  CHECK(where(lineAt(sample, 2, 0x19)) == "/src/sample/Program.cs:10:29");
  CHECK(where(lineAt(sample, 2, 0xFFFF)) == "/src/sample/Program.cs:16:9");  // past the last point
  const auto twoLines = lineAt(sample, 2, 0x30);
  REQUIRE(twoLines);
  CHECK(twoLines->endLine == 14);
  CHECK(twoLines->endColumn == 30);
  CHECK(twoLines->pointIlOffset == 0x28);
  CHECK(where(lineAt(sample, 3, 7)) == "/src/sample/Generated.txt:200:9");
  CHECK(where(lineAt(sample, 3, 0x11)) == "/src/sample/Program.cs:25:9");
  // Program.Hidden (row 4) starts with a hidden point: no line before its second.
  CHECK(where(lineAt(sample, 4, 0)) == "none");
  CHECK(where(lineAt(sample, 4, 4)) == "none");
  CHECK(where(lineAt(sample, 4, 5)) == "/src/sample/Program.cs:33:9");
  CHECK(where(lineAt(sample, 7, 0)) == "none");   // no points
  CHECK(where(lineAt(sample, 11, 0)) == "none");  // no such row
  CHECK(where(lineAt(sample, 1, 4)) == "/src/sample/Helper.cs:10:13");
}

TEST_CASE("portable pdb: a Windows PDB, an assembly and other bytes are no portable PDB (pdb-not-portable)") {
  const std::string msf = std::string("Microsoft C/C++ MSF 7.00\r\n\x1a") + "DS" + std::string(32, '\0');
  const gdmap::Bytes windows(msf.begin(), msf.end());
  const auto fromWindows = pdb::PortablePdb::open(windows);
  REQUIRE_FALSE(fromWindows.ok());
  CHECK(fromWindows.error().rule == "pdb-not-portable");
  CHECK(fromWindows.error().offset == 0);
  CHECK(fromWindows.error().message.find("a Windows PDB (MSF 7.00)") != std::string::npos);
  CHECK(fromWindows.error().message.find("<DebugType>portable</DebugType>") != std::string::npos);
  CHECK(fromWindows.error().message.find("<DebugType>embedded</DebugType>") != std::string::npos);

  const gdmap::Bytes image = dataFile("sample.dll");
  const auto fromImage = pdb::PortablePdb::open(image);
  REQUIRE_FALSE(fromImage.ok());
  CHECK(fromImage.error().rule == gdmap::rules::kPdbNotPortable);
  CHECK(fromImage.error().message.find("no BSJB") != std::string::npos);
  CHECK_FALSE(pdb::PortablePdb::open(gdmap::Bytes{}).ok());

  // The image's own metadata: ECMA-335, but no #Pdb stream.
  const std::string signature = "BSJB";
  const auto bsjb = std::search(image.begin(), image.end(), signature.begin(), signature.end());
  REQUIRE(bsjb != image.end());
  const gdmap::Bytes metadata(bsjb, image.end());
  const auto fromMetadata = pdb::PortablePdb::open(metadata);
  REQUIRE_FALSE(fromMetadata.ok());
  CHECK(fromMetadata.error().rule == gdmap::rules::kPdbNotPortable);
  CHECK(fromMetadata.error().message.find("#Pdb") != std::string::npos);
}

TEST_CASE("portable pdb: damaged tables and blobs are located (pdb-invalid)") {
  const gdmap::Bytes good = dataFile("sample.pdb");
  const Layout layout = layoutOf(good);
  SUBCASE("a MethodDebugInformation row per MethodDef, or none") {
    gdmap::Bytes file = good;
    file[124 + 32 + 4 * 4] = 11;  // the #Pdb stream's MethodDef count: 10 -> 11
    const auto opened = pdb::PortablePdb::open(file);
    REQUIRE_FALSE(opened.ok());
    CHECK(opened.error().rule == "pdb-invalid");
    CHECK(opened.error().path == "#~ table stream.MethodDebugInformation");
    CHECK(opened.error().offset == 220);
    CHECK(opened.error().message == "10 rows for 11 MethodDef rows: it must have one per method, or none");
  }
  SUBCASE("a metadata error is the PDB's") {
    gdmap::Bytes file = good;
    file[124 + 20] = 0x01;  // the entry point 0x06000002 -> 0x06000001: still a MethodDef
    CHECK(pdb::PortablePdb::open(file).ok());
    file[124 + 23] = 0x02;  // -> 0x02000001: a TypeDef
    const auto opened = pdb::PortablePdb::open(file);
    REQUIRE_FALSE(opened.ok());
    CHECK(opened.error().rule == gdmap::rules::kPdbInvalid);
    CHECK(opened.error().path == "#Pdb stream.EntryPoint");
    CHECK(opened.error().offset == 124 + 20);
  }
  SUBCASE("a method's Document column past the Document table") {
    gdmap::Bytes file = good;
    const std::size_t at = layout.cell(md::table::kMethodDebugInformation, 2, 0);
    put16(file, at, 9);
    const pdb::PortablePdb damaged = open(file);
    const auto points = damaged.sequencePoints(2);
    REQUIRE_FALSE(points.ok());
    CHECK(points.error().rule == gdmap::rules::kPdbInvalid);
    CHECK(points.error().offset == at);
    CHECK(points.error().path == "MethodDebugInformation[2].Document");
    CHECK(points.error().message == "document row 9 is not in the Document table (4 rows)");
    const auto line = damaged.lineAt(2, 0);
    REQUIRE_FALSE(line.ok());
    CHECK(line.error().path == "MethodDebugInformation[2].Document");
    CHECK(where(lineAt(damaged, 3, 0)) == "/src/sample/Program.cs:21:9");  // another method is whole
  }
  SUBCASE("a record of a method's blob") {
    gdmap::Bytes file = good;
    const std::size_t blob = layout.pointsBlob(2);
    REQUIRE(good[blob + 1] == 0);  // after a 1-byte LocalSignature: δILOffset 0 of the first point
    file[blob + 1] = 0xE0;
    const pdb::PortablePdb damaged = open(file);
    const auto points = damaged.sequencePoints(2);
    REQUIRE_FALSE(points.ok());
    CHECK(points.error().rule == gdmap::rules::kPdbInvalid);
    CHECK(points.error().offset == blob + 1);
    CHECK(points.error().path == "MethodDebugInformation[2].SequencePoints[0].deltaIL");
    CHECK_FALSE(damaged.lineAt(2, 0x30).ok());  // every point is checked, not only those before 0x30
  }
  SUBCASE("a document's name") {
    gdmap::Bytes file = good;
    const std::size_t at = layout.cell(md::table::kDocument, 1, 0);
    put16(file, at, 0);
    const pdb::PortablePdb nil = open(file);
    const auto name = nil.documentName(1);
    REQUIRE_FALSE(name.ok());
    CHECK(name.error().offset == at);
    CHECK(name.error().path == "Document[1].Name");
    CHECK(name.error().message.find("nil") != std::string::npos);
    const auto line = nil.lineAt(1, 0);  // Helper.Twice's points are in document 1
    REQUIRE_FALSE(line.ok());
    CHECK(line.error().path == "Document[1].Name");
    put16(file, at, 0xFFFF);
    const auto outside = open(file).documentName(1);
    REQUIRE_FALSE(outside.ok());
    CHECK(outside.error().rule == gdmap::rules::kPdbInvalid);
    CHECK(outside.error().path == "Document[1].Name");
    CHECK(outside.error().message == "#Blob[65535]: outside the heap");
    const auto noRow = open(good).documentName(5);
    REQUIRE_FALSE(noRow.ok());
    CHECK(noRow.error().path == "Document[5]");
  }
}

TEST_CASE("portable pdb: every truncation and every flipped byte is an error or a reading, never a crash") {
  const gdmap::Bytes good = dataFile("sample.pdb");
  const auto rulesOk = [](const gdmap::Error& e, std::size_t size) {
    const bool known = e.rule == gdmap::rules::kPdbInvalid || e.rule == gdmap::rules::kPdbNotPortable;
    INFO(e.rule, ": ", e.message);
    CHECK(known);
    CHECK(e.offset <= size);
  };
  const auto walk = [&](const gdmap::Bytes& bytes) {
    const auto opened = pdb::PortablePdb::open(bytes);
    if (!opened) return rulesOk(opened.error(), bytes.size());
    for (std::uint32_t row = 1; row <= opened->documentCount(); ++row) {
      if (const auto name = opened->documentName(row); !name) rulesOk(name.error(), bytes.size());
    }
    for (std::uint32_t row = 1; row <= opened->methodCount(); ++row) {
      if (const auto line = opened->lineAt(row, 0x10); !line) rulesOk(line.error(), bytes.size());
    }
  };
  std::size_t opened = 0;
  for (std::size_t size = 0; size < good.size(); ++size) {
    const gdmap::Bytes cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(size));
    if (pdb::PortablePdb::open(cut).ok()) ++opened;
    walk(cut);
  }
  CHECK(opened == 0);  // the #Blob heap is last: any cut leaves a stream outside the metadata
  for (std::size_t at = 0; at < good.size(); ++at) {
    gdmap::Bytes flipped = good;
    flipped[at] ^= 0xFF;
    walk(flipped);
  }
}
