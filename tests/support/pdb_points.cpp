// Prints what gdmap's portable PDB reader reads of a PDB, in the text format
// tests/pdb/srm/Program.cs prints with System.Reflection.Metadata
// (tests/pdb/srm_agreement.sh compares the two):
//   id       <guid>:0x<stamp>
//   document <row> <name>
//   point    <method token> <il> <document row> <startLine> <startColumn> <endLine> <endColumn> | hidden
//   line     <method token> <il> <document name>:<line>:<column> | none
// The `line` rows are PortablePdb::lineAt at each point's IL offset, one
// byte before it, and one byte past the last point.
//
//   gdmap_pdb_points FILE.pdb | --embedded IMAGE.dll
//
// A test driver, not a command: the library is the thing under test.
#include <gdmap/io/mapped_file.hpp>
#include <gdmap/pdb/debug_directory.hpp>
#include <gdmap/pdb/portable_pdb.hpp>
#include <gdmap/schema/hex.hpp>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace {

int fail(const gdmap::Error& e) {
  std::fprintf(stderr, "gdmap_pdb_points: @%zu %s: %s [%s]\n", e.offset, e.path.c_str(), e.message.c_str(),
               e.rule.c_str());
  return 1;
}

// Appends `values` to a row of `out`, tab-separated. (Appended one by one:
// `"a" + std::string` chains trip a false g++ 12 -Wrestrict warning at -O2.)
template <typename... Values>
void row(std::string& out, const Values&... values) {
  bool first = true;
  const auto add = [&](const std::string& value) {
    if (!first) out += '\t';
    out += value;
    first = false;
  };
  (add(values), ...);
  out += '\n';
}

// One method's points and the lines of the offsets around them.
gdmap::Status printMethod(const gdmap::pdb::PortablePdb& pdb, std::uint32_t methodRow, std::string& out) {
  const gdmap::Expected<std::vector<gdmap::pdb::SequencePoint>> points = pdb.sequencePoints(methodRow);
  if (!points) return points.error();
  const std::string token = gdmap::hex32(0x06000000u | methodRow);
  std::set<std::uint32_t> offsets;
  for (const gdmap::pdb::SequencePoint& p : *points) {
    const std::string il = gdmap::shortHex(p.ilOffset), document = std::to_string(p.document);
    if (p.hidden()) {
      row(out, std::string("point"), token, il, document, std::string("hidden"));
    } else {
      row(out, std::string("point"), token, il, document, std::to_string(p.startLine), std::to_string(p.startColumn),
          std::to_string(p.endLine), std::to_string(p.endColumn));
    }
    offsets.insert(p.ilOffset);
    if (p.ilOffset > 0) offsets.insert(p.ilOffset - 1);
  }
  if (!points->empty()) offsets.insert(points->back().ilOffset + 1);
  for (const std::uint32_t il : offsets) {
    const gdmap::Expected<std::optional<gdmap::pdb::SourceLine>> line = pdb.lineAt(methodRow, il);
    if (!line) return line.error();
    std::string where = "none";
    if (*line) {
      where = (*line)->document;
      where += ':';
      where += std::to_string((*line)->line);
      where += ':';
      where += std::to_string((*line)->column);
    }
    row(out, std::string("line"), token, gdmap::shortHex(il), where);
  }
  return gdmap::Success{};
}

int print(const gdmap::pdb::PortablePdb& pdb) {
  std::string out;
  row(out, std::string("id"), pdb.id().text());
  for (std::uint32_t document = 1; document <= pdb.documentCount(); ++document) {
    const gdmap::Expected<std::string> name = pdb.documentName(document);
    if (!name) return fail(name.error());
    row(out, std::string("document"), std::to_string(document), *name);
  }
  for (std::uint32_t method = 1; method <= pdb.methodCount(); ++method) {
    if (gdmap::Status printed = printMethod(pdb, method, out); !printed) return fail(printed.error());
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const bool embedded = argc == 3 && std::string(argv[1]) == "--embedded";
  if (argc != 2 && !embedded) {
    std::fprintf(stderr, "usage: gdmap_pdb_points FILE.pdb | --embedded IMAGE.dll\n");
    return 2;
  }
  const gdmap::Expected<gdmap::MappedFile> file = gdmap::MappedFile::open(argv[argc - 1]);
  if (!file) return fail(file.error());
  std::vector<std::uint8_t> inflated;
  gdmap::ByteSpan bytes = file->bytes();
  if (embedded) {
    const gdmap::Expected<gdmap::pdb::DebugDirectory> directory = gdmap::pdb::readDebugDirectory(bytes);
    if (!directory) return fail(directory.error());
    gdmap::Expected<std::vector<std::uint8_t>> pdb = gdmap::pdb::inflateEmbeddedPdb(*directory);
    if (!pdb) return fail(pdb.error());
    inflated = std::move(pdb).value();
    bytes = inflated;
    const gdmap::Expected<gdmap::pdb::PortablePdb> opened = gdmap::pdb::PortablePdb::open(bytes);
    if (!opened) return fail(opened.error());
    // The image names the PDB it embeds.
    if (gdmap::Status same = gdmap::pdb::checkPdbMatches(*directory, opened->id()); !same) return fail(same.error());
  }
  const gdmap::Expected<gdmap::pdb::PortablePdb> pdb = gdmap::pdb::PortablePdb::open(bytes);
  if (!pdb) return fail(pdb.error());
  return print(*pdb);
}
