// The ECMA-335 metadata reader on damaged assemblies: every problem is an
// Error at its byte offset in the file, with the structure as its path,
// never an exception.
#include <gdmap/metadata/assembly_type_names.hpp>
#include <gdmap/schema/rules.hpp>

#include <gdmap/internal/metadata_heaps.hpp>
#include <gdmap/internal/metadata_streams.hpp>
#include <gdmap/internal/metadata_tables.hpp>
#include "reader/metadata/metadata_root.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

namespace md = gdmap::metadata;

namespace {

gdmap::Bytes assembly() {
  const std::string path = std::string(GDMAP_SOURCE_DIR) + "/tests/data/r2r/System.Threading.Tasks.Extensions.dll";
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return gdmap::Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::size_t find(const gdmap::Bytes& bytes, std::string_view text) {
  const auto at = std::search(bytes.begin(), bytes.end(), text.begin(), text.end());
  REQUIRE(at != bytes.end());
  return static_cast<std::size_t>(at - bytes.begin());
}

}  // namespace

TEST_CASE("metadata reader: the layers of a good assembly") {
  const gdmap::Bytes file = assembly();
  const auto root = md::findMetadataRoot(file);
  REQUIRE(root.ok());
  const std::size_t rootOffset = static_cast<std::size_t>(root->data() - file.data());
  CHECK(rootOffset == find(file, "BSJB"));
  const auto streams = md::readStreams(*root, rootOffset);
  REQUIRE(streams.ok());
  CHECK(streams->strings.offset == rootOffset + static_cast<std::size_t>(streams->strings.bytes.data() - root->data()));
  const auto tables = md::MetadataTables::open(streams->tables);
  REQUIRE(tables.ok());
  // TypeRef row 1: ResolutionScope, TypeName, TypeNamespace.
  const auto name = md::stringAt(streams->strings, tables->cell(md::table::kTypeRef, 1, 1));
  REQUIRE(name.ok());
  CHECK(*name == "ValueType");
  CHECK(tables->cell(md::table::kTypeRef, 0, 1) == 0);  // no row 0: 0, not a throw
  REQUIRE(tables->rowCount(md::table::kTypeSpec) > 0);
  const auto blob = md::blobAt(streams->blobs, tables->cell(md::table::kTypeSpec, 1, 0));
  REQUIRE(blob.ok());
  CHECK_FALSE(blob->empty());
  md::ColumnWidths widths;  // a small file: 2-byte indexes
  CHECK(widths.width(md::tableColumns(md::table::kTypeDef)[1]) == 2);
}

TEST_CASE("metadata reader: a broken signature, stream or heap is located (invalid-metadata)") {
  gdmap::Bytes file = assembly();
  const std::size_t bsjb = find(file, "BSJB");
  gdmap::Bytes noSignature = file;
  noSignature[bsjb] = 'X';
  const auto names = md::AssemblyTypeNames::open(noSignature);
  REQUIRE_FALSE(names.ok());
  CHECK(names.error().rule == "invalid-metadata");
  CHECK(names.error().offset == bsjb);
  CHECK(names.error().path == "metadata root");
  CHECK(names.error().message == "no BSJB signature");

  // The root cut short inside its stream headers.
  const auto root = md::findMetadataRoot(file);
  REQUIRE(root.ok());
  const auto cut = md::readStreams(root->first(30), bsjb);
  REQUIRE_FALSE(cut.ok());
  CHECK(cut.error().rule == gdmap::rules::kInvalidMetadata);
  CHECK(cut.error().path.rfind("metadata root", 0) == 0);
  CHECK(cut.error().offset >= bsjb);
  CHECK(cut.error().offset <= bsjb + 30);

  // Heap offsets outside their heap.
  const auto streams = md::readStreams(*root, bsjb);
  REQUIRE(streams.ok());
  const auto past = md::stringAt(streams->strings, 0xFFFFFF);
  REQUIRE_FALSE(past.ok());
  CHECK(past.error().rule == gdmap::rules::kInvalidMetadata);
  CHECK(past.error().path == "#Strings[16777215]");
  CHECK(past.error().offset == streams->strings.offset + streams->strings.bytes.size());
  CHECK_FALSE(md::blobAt(streams->blobs, 0xFFFFFF).ok());

  // A table stream cut short after its header.
  const md::Stream tables{streams->tables.bytes.first(30), streams->tables.offset};
  const auto short_ = md::MetadataTables::open(tables);
  REQUIRE_FALSE(short_.ok());
  CHECK(short_.error().rule == gdmap::rules::kInvalidMetadata);
  CHECK(short_.error().path == "#~ table stream");
  CHECK(short_.error().offset >= tables.offset);
  CHECK(short_.error().offset <= tables.offset + 30);
}

TEST_CASE("metadata reader: a cut or garbage file is an error at an offset inside it, never a throw") {
  const gdmap::Bytes file = assembly();
  for (const std::size_t size :
       {std::size_t{0}, std::size_t{64}, std::size_t{512}, std::size_t{4100}, std::size_t{5000}, file.size() - 1}) {
    const gdmap::ByteSpan part = gdmap::ByteSpan(file).first(size);
    const auto names = md::AssemblyTypeNames::open(part);
    if (names.ok()) continue;  // the part the reader needs may all be there
    CHECK_FALSE(names.error().rule.empty());
    CHECK(names.error().offset <= file.size());
  }
  const gdmap::Bytes garbage(4096, 0xA5);
  const auto names = md::AssemblyTypeNames::open(garbage);
  REQUIRE_FALSE(names.ok());
  CHECK(names.error().rule == gdmap::rules::kR2rNotPe);
  CHECK(names.error().offset == 0);
}
