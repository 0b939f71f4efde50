// The metadata reader's side of a portable PDB (reader/metadata's internal
// headers, shared with reader/pdb): the #Pdb stream, the #GUID heap, the
// debug tables 0x30..0x37 and the widths the type-system row counts give
// their indexes, on the real sample of tests/data/pdb/ and on damaged
// copies of it.
#include <gdmap/internal/metadata_heaps.hpp>
#include <gdmap/internal/metadata_pdb_stream.hpp>
#include <gdmap/internal/metadata_streams.hpp>
#include <gdmap/internal/metadata_table_schema.hpp>
#include <gdmap/internal/metadata_tables.hpp>
#include <gdmap/schema/rules.hpp>

#include "r2r_test_images.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>

namespace md = gdmap::metadata;

namespace {

using r2r_test::put32;

gdmap::Bytes samplePdb() {
  std::ifstream in(std::string(GDMAP_SOURCE_DIR) + "/tests/data/pdb/sample.pdb", std::ios::binary);
  REQUIRE(in);
  return gdmap::Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The sample's streams: #Pdb at 124 (96 bytes), #~ at 220, #GUID at 528,
// #Blob at 608 (tests/data/pdb/README.md).
constexpr std::size_t kPdbStream = 124;
constexpr std::size_t kTableStream = 220;

}  // namespace

TEST_CASE("pdb metadata: the #Pdb stream, #GUID heap and debug tables of the sample") {
  const gdmap::Bytes file = samplePdb();
  const auto streams = md::readStreams(file, 0);
  REQUIRE(streams.ok());
  REQUIRE(streams->hasPdb);
  CHECK(streams->pdb.offset == kPdbStream);
  CHECK(streams->pdb.bytes.size() == 96);
  CHECK(streams->guids.offset == 528);
  const auto pdb = md::readPdbStream(streams->pdb);
  REQUIRE(pdb.ok());
  CHECK(pdb->id[0] == 0x90);
  CHECK(pdb->id[19] == 0x81);
  CHECK(pdb->entryPoint == 0x06000002);  // Sample.Program.Main
  CHECK(pdb->referencedTables == 0x20909a21557u);
  CHECK(pdb->rowCounts[md::table::kMethodDef] == 10);
  CHECK(pdb->rowCounts[md::table::kTypeDef] == 5);
  CHECK(pdb->rowCounts[0x03] == 0);  // not referenced

  const auto tables = md::MetadataTables::openPortablePdb(streams->tables, *pdb);
  REQUIRE(tables.ok());
  CHECK(tables->rowCount(md::table::kDocument) == 4);
  CHECK(tables->rowCount(md::table::kMethodDebugInformation) == 10);
  CHECK(tables->rowCount(md::table::kLocalScope) == 8);
  CHECK(tables->rowCount(md::table::kLocalVariable) == 2);
  CHECK(tables->rowCount(md::table::kImportScope) == 3);
  CHECK(tables->rowCount(md::table::kCustomDebugInformation) == 3);
  CHECK(tables->rowCount(md::table::kMethodDef) == 0);  // referenced, not held
  // LocalScope row 1: Method is a MethodDef row; StartOffset 0.
  const std::uint32_t method = tables->cell(md::table::kLocalScope, 1, 0);
  CHECK(method >= 1);
  CHECK(method <= 10);
  CHECK(tables->cell(md::table::kLocalScope, 1, 4) == 0);
  // Document row 1: its Language is C# (3f5162f8-07c6-11d3-9053-00c04fa302a1).
  const auto language = md::guidAt(streams->guids, tables->cell(md::table::kDocument, 1, 3));
  REQUIRE(language.ok());
  REQUIRE(language->size() == 16);
  CHECK((*language)[0] == 0xf8);
  CHECK((*language)[3] == 0x3f);
  CHECK((*language)[15] == 0xa1);
  // Offsets of cells are file offsets, inside the table stream.
  CHECK(tables->cellOffset(md::table::kDocument, 1, 0) > kTableStream);
  CHECK(tables->cellOffset(md::table::kDocument, 99, 0) == kTableStream);  // no such row: the stream
}

TEST_CASE("pdb metadata: the nil GUID and a GUID past the heap (invalid-metadata)") {
  const gdmap::Bytes file = samplePdb();
  const auto streams = md::readStreams(file, 0);
  REQUIRE(streams.ok());
  const auto nil = md::guidAt(streams->guids, 0);
  REQUIRE(nil.ok());
  CHECK(nil->empty());
  CHECK(md::guidAt(streams->guids, 5).ok());  // 80 bytes: five GUIDs
  const auto past = md::guidAt(streams->guids, 6);
  REQUIRE_FALSE(past.ok());
  CHECK(past.error().rule == "invalid-metadata");
  CHECK(past.error().path == "#GUID[6]");
  CHECK(past.error().offset == 528 + 80);
}

TEST_CASE("pdb metadata: index widths follow the #Pdb stream's row counts") {
  md::ColumnWidths widths;
  const std::vector<md::Column>& localScope = md::tableColumns(md::table::kLocalScope);
  const std::vector<md::Column>& custom = md::tableColumns(md::table::kCustomDebugInformation);
  REQUIRE(localScope.size() == 6);
  REQUIRE(custom.size() == 3);
  CHECK(md::tableColumns(0x2D).empty());
  CHECK(md::tableColumns(0x38).empty());
  CHECK(widths.width(localScope[0]) == 2);
  CHECK(widths.width(custom[0]) == 2);
  // HasCustomDebugInformation has 5 tag bits: 2 bytes hold rows below 2^11.
  widths.rowCounts[md::table::kMethodDef] = 0x7FF;
  CHECK(widths.width(custom[0]) == 2);
  widths.rowCounts[md::table::kMethodDef] = 0x800;
  CHECK(widths.width(custom[0]) == 4);
  CHECK(widths.width(localScope[0]) == 2);  // a plain MethodDef index: 2 bytes up to 0xFFFF rows
  widths.rowCounts[md::table::kMethodDef] = 0x10000;
  CHECK(widths.width(localScope[0]) == 4);
  // A debug table's own rows count too (Document is one of its tags).
  widths.rowCounts[md::table::kMethodDef] = 0;
  widths.rowCounts[md::table::kDocument] = 0x800;
  CHECK(widths.width(custom[0]) == 4);
}

TEST_CASE("pdb metadata: a damaged #Pdb stream or debug table stream is located (invalid-metadata)") {
  const gdmap::Bytes good = samplePdb();
  const auto failure = [](const gdmap::Bytes& file) {
    const auto streams = md::readStreams(file, 0);
    REQUIRE(streams.ok());
    const auto pdb = md::readPdbStream(streams->pdb);
    if (!pdb) return pdb.error();
    const auto tables = md::MetadataTables::openPortablePdb(streams->tables, *pdb);
    REQUIRE_FALSE(tables.ok());
    return tables.error();
  };
  SUBCASE("cut short") {
    const auto streams = md::readStreams(good, 0);
    REQUIRE(streams.ok());
    md::Stream cut = streams->pdb;
    cut.bytes = cut.bytes.first(40);  // the mask names 16 tables, their counts are missing
    const auto pdb = md::readPdbStream(cut);
    REQUIRE_FALSE(pdb.ok());
    CHECK(pdb.error().rule == gdmap::rules::kInvalidMetadata);
    CHECK(pdb.error().path == "#Pdb stream.TypeSystemTableRows[0x02]");
    CHECK(pdb.error().offset == kPdbStream + 40);
  }
  SUBCASE("an entry point that is no MethodDef") {
    gdmap::Bytes file = good;
    put32(file, kPdbStream + 20, 0x02000001);
    const gdmap::Error e = failure(file);
    CHECK(e.path == "#Pdb stream.EntryPoint");
    CHECK(e.offset == kPdbStream + 20);
  }
  SUBCASE("a referenced table that is no type-system table") {
    gdmap::Bytes file = good;
    file[kPdbStream + 24 + 6] |= 0x01;  // bit 0x30: Document
    const gdmap::Error e = failure(file);
    CHECK(e.path == "#Pdb stream.ReferencedTypeSystemTables");
    CHECK(e.offset == kPdbStream + 24);
  }
  SUBCASE("a row count over 2^24-1") {
    gdmap::Bytes file = good;
    put32(file, kPdbStream + 32, 0x01000000);  // Module's
    const gdmap::Error e = failure(file);
    CHECK(e.path == "#Pdb stream.TypeSystemTableRows[0x00]");
    CHECK(e.message.find("too many rows") != std::string::npos);
  }
  SUBCASE("a type-system table in the PDB's own tables") {
    gdmap::Bytes file = good;
    file[kTableStream + 8] |= 0x40;  // the Valid mask names MethodDef (no count follows: the header shifts)
    const gdmap::Error e = failure(file);
    CHECK(e.rule == gdmap::rules::kInvalidMetadata);
    CHECK(e.path == "#~ table stream");
    CHECK(e.offset == kTableStream + 8);
    CHECK(e.message.find("holds table 0x06, a type-system table") != std::string::npos);
  }
  SUBCASE("more Document rows than the stream holds") {
    gdmap::Bytes file = good;
    put32(file, kTableStream + 24, 0x10000);  // Document's row count
    const gdmap::Error e = failure(file);
    CHECK(e.path == "#~ table stream");
    CHECK(e.message == "table 48 runs past the end of the stream");
  }
}
