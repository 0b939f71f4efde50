// symbolize/: the runtime's rule for the IL offset of a native offset
// (DebuggerJitInfo::MapNativeOffsetToIL over the sequence map, return
// addresses looked up one byte before), ReadyToRun images' RVAs to methods,
// parts and lines (funclets, hot/cold, addresses outside any method), the
// PDB of an image found and checked, /proc/PID/maps, and a process's
// JIT-compiled code from a recorded .NET 10 runtime.
#include "tests/support/target_records.hpp"

#include <gdmap/io/mapped_file.hpp>
#include <gdmap/reader/contract_descriptor.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/symbolize/il_offset.hpp>
#include <gdmap/symbolize/image_pdb.hpp>
#include <gdmap/symbolize/image_symbolizer.hpp>
#include <gdmap/symbolize/maps_symbolizer.hpp>
#include <gdmap/symbolize/process_locator.hpp>
#include <gdmap/symbolize/r2r_locator.hpp>

#include <doctest/doctest.h>

#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace gdmap::symbolize {
namespace {

using il::Bound;
namespace src = il::source;

std::string data(const std::string& relative) { return std::string(GDMAP_SOURCE_DIR) + "/tests/data/" + relative; }

// A method of 24 bytes: prolog [0,4), IL 0 [4,10), the statement at IL 6
// with a call whose return address is native 15, IL 0xb [15,20) after it,
// an epilog from 20. The call instruction's own bound names IL 0x10, more
// than any statement's: the runtime's m_lastIL counts it.
MethodIlMap callMethod() {
  const Bound bounds[] = {
      {0, il::kProlog, src::kStackEmpty}, {4, 0x0, src::kStackEmpty},  {10, 0x6, src::kStackEmpty},
      {13, 0x10, src::kCallInstruction},  {15, 0xb, src::kStackEmpty}, {20, il::kEpilog, src::kStackEmpty},
  };
  return makeMethodIlMap(bounds, 24);
}

TEST_CASE("symbolize: a return address at a call's end resolves to the call's IL entry") {
  const MethodIlMap map = callMethod();
  CHECK(map.lastIl == 0x10);
  // The return address 15 is the first byte of IL 0xb's code; the runtime
  // looks up 14, the call's statement.
  const std::uint32_t lookup = lookupOffset(15, AddressKind::Return);
  CHECK(lookup == 14);
  const IlOffset caller = mapNativeOffsetToIl(map, lookup);
  REQUIRE(caller.entry);
  CHECK(caller.entry->ilOffset == 0x6);
  CHECK(caller.ilOffset == 0x6);
  CHECK(caller.mapping == IlMapping::Approximate);
  // The same address as a leaf sample is the next statement.
  const IlOffset leaf = mapNativeOffsetToIl(map, lookupOffset(15, AddressKind::Exact));
  CHECK(leaf.ilOffset == 0xb);
  CHECK(leaf.mapping == IlMapping::Exact);
}

TEST_CASE("symbolize: offset 0 is looked up at 0, the prolog reports IL 0, an epilog the greatest IL offset") {
  const MethodIlMap map = callMethod();
  CHECK(lookupOffset(0, AddressKind::Return) == 0);
  const IlOffset prolog = mapNativeOffsetToIl(map, lookupOffset(0, AddressKind::Return));
  CHECK(prolog.mapping == IlMapping::Prolog);
  CHECK(prolog.ilOffset == 0);
  REQUIRE(prolog.entry);
  CHECK(prolog.entry->ilOffset == il::kProlog);
  const IlOffset epilog = mapNativeOffsetToIl(map, 22);
  CHECK(epilog.mapping == IlMapping::Epilog);
  CHECK(epilog.ilOffset == 0x10);
  CHECK(std::string(ilMappingName(epilog.mapping)) == "epilog");
  CHECK(std::string(addressKindName(AddressKind::Return)) == "return");
}

TEST_CASE("symbolize: the first entry of the sequence map holding the offset wins, none: no info, IL 0") {
  MethodIlMap map;
  map.entries = {{il::kNoMapping, 8, 12}, {0x4, 6, 12}, {0x9, 12, 16}};
  const IlOffset unmapped = mapNativeOffsetToIl(map, 9);
  CHECK(unmapped.mapping == IlMapping::Unmapped);
  CHECK(unmapped.ilOffset == 0);
  CHECK(mapNativeOffsetToIl(map, 7).ilOffset == 0x4);
  const IlOffset none = mapNativeOffsetToIl(map, 2);
  CHECK(none.mapping == IlMapping::NoInfo);
  CHECK_FALSE(none.entry);
  CHECK(none.ilOffset == 0);
  CHECK(mapNativeOffsetToIl(map, 16).mapping == IlMapping::NoInfo);  // ends are exclusive
  CHECK(mapNativeOffsetToIl(MethodIlMap{}, 0).mapping == IlMapping::NoInfo);
}

struct OpenedImage {
  MappedFile file;
  r2r::R2RImage image;
};

OpenedImage openImage(const std::string& path) {
  Expected<MappedFile> file = MappedFile::open(path);
  REQUIRE_MESSAGE(file, (file ? "" : file.error().message));
  Expected<r2r::R2RImage> image = r2r::readR2RImage(file->bytes());
  REQUIRE_MESSAGE(image, (image ? "" : image.error().message));
  return OpenedImage{std::move(*file), std::move(*image)};
}

TEST_CASE(
    "symbolize: funclets and the cold part count from the method's entry, a funclet's first byte returns "
    "into the parent") {
  const OpenedImage a = openImage(data("r2r/sample/Sample.A.x64.dll"));
  R2RLocator locator(a.image);
  // SafeDivide: a body of 38 bytes at 0x10730, its catch funclet at 0x10756.
  const Located inFunclet = locator.locate(0x10758);
  REQUIRE(inFunclet.method != nullptr);
  CHECK(inFunclet.method->token == 0x06000003);
  CHECK(inFunclet.part == Part::Funclet);
  CHECK(inFunclet.offset == 0x28);
  CHECK(inFunclet.il.ilOffset == 0x7);
  // The funclet's first byte is at offset 38 of the method, not 0: as a
  // return address the runtime looks up 37, the parent's epilog, which
  // reports the method's greatest IL offset.
  const Located entry = locator.locate(0x10756, AddressKind::Return);
  CHECK(entry.part == Part::Funclet);
  CHECK(entry.offset == 38);
  CHECK(entry.lookup == 37);
  CHECK(entry.il.mapping == IlMapping::Epilog);
  CHECK(entry.il.ilOffset == 0x18);
  // The method's own first byte is looked up there.
  const Located first = locator.locate(0x10730, AddressKind::Return);
  CHECK(first.lookup == 0);
  CHECK(first.il.mapping == IlMapping::Prolog);

  const OpenedImage hc = openImage(data("r2r/sample/Sample.A.hotcold.dll"));
  R2RLocator cold(hc.image);
  const Located c = cold.locate(0x112b5);
  REQUIRE(c.method != nullptr);
  CHECK(c.part == Part::Cold);
  CHECK(c.offset == 0x2b);
  CHECK(c.il.ilOffset == 0x7);
}

TEST_CASE("symbolize: addresses outside any method's code have no method") {
  const OpenedImage a = openImage(data("r2r/sample/Sample.A.x64.dll"));
  R2RLocator locator(a.image);
  for (const std::uint32_t rva : {0x0u, 0x10u, 0xFFFFFFFFu}) {
    const Located l = locator.locate(rva, AddressKind::Return);
    CHECK(l.method == nullptr);
    CHECK_FALSE(l.il.entry);
  }
  CHECK_FALSE(functionAt(a.image, 0x10));
  CHECK(std::string(partName(Part::Cold)) == "cold");
}

// tests/data/pdb/sample.pdb with another id (the GUID its images name, one
// byte changed): the PDB of another build, in a temporary file.
std::string otherBuildPdb() {
  std::ifstream in(data("pdb/sample.pdb"), std::ios::binary);
  std::string pdb((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::ifstream imageIn(data("pdb/sample-r2r.dll"), std::ios::binary);
  const std::string image((std::istreambuf_iterator<char>(imageIn)), std::istreambuf_iterator<char>());
  const std::size_t rsds = image.find("RSDS");
  REQUIRE(rsds != std::string::npos);
  const std::size_t id = pdb.find(image.substr(rsds + 4, 16));
  REQUIRE(id != std::string::npos);
  pdb[id] = static_cast<char>(pdb[id] ^ 0x5a);
  const std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                           "/gdmap-symbolize-test-" + std::to_string(::getpid()) + ".pdb";
  std::ofstream(path, std::ios::binary) << pdb;
  return path;
}

TEST_CASE("symbolize: an image's PDB: beside it, embedded, named, mismatched and missing ones refused") {
  const std::string image = data("pdb/sample-r2r.dll");
  Expected<MappedFile> file = MappedFile::open(image);
  REQUIRE(file);
  Expected<ImagePdb> beside = ImagePdb::open(file->bytes(), image, "");
  REQUIRE_MESSAGE(beside, (beside ? "" : beside.error().message));
  CHECK(beside->source() == data("pdb/sample.pdb"));
  CHECK(beside->pdb().methodCount() > 0);

  Expected<MappedFile> embeddedFile = MappedFile::open(data("pdb/sample-embedded.dll"));
  REQUIRE(embeddedFile);
  Expected<ImagePdb> embedded = ImagePdb::open(embeddedFile->bytes(), data("pdb/sample-embedded.dll"), "");
  REQUIRE_MESSAGE(embedded, (embedded ? "" : embedded.error().message));
  CHECK(embedded->source() == "<embedded>");

  // The PDB of another build (its id changed) is refused.
  const std::string other = otherBuildPdb();
  Expected<ImagePdb> mismatched = ImagePdb::open(file->bytes(), image, other);
  std::remove(other.c_str());
  REQUIRE_FALSE(mismatched);
  CHECK(mismatched.error().rule == rules::kPdbIdMismatch);

  Expected<MappedFile> noPdb = MappedFile::open(data("r2r/sample/Sample.A.x64.dll"));
  REQUIRE(noPdb);
  Expected<ImagePdb> missing = ImagePdb::open(noPdb->bytes(), data("r2r/sample/Sample.A.x64.dll"), "");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().rule == rules::kPdbNotFound);
  Expected<ImagePdb> named = ImagePdb::open(file->bytes(), image, data("pdb/no-such.pdb"));
  REQUIRE_FALSE(named);
  CHECK(named.error().rule == rules::kPdbNotFound);
}

TEST_CASE("symbolize: an image symbolizer answers lines as a stack trace prints them") {
  Expected<ImageSymbolizer> s = ImageSymbolizer::open(data("pdb/sample-r2r.dll"));
  REQUIRE_MESSAGE(s, (s ? "" : s.error().message));
  REQUIRE(s->pdb() != nullptr);
  // Helper.Twice at 0x10960: +5 starts IL 0xf's code; as a return address
  // it is the statement before (IL 0, its prolog's neighbour).
  const Located exact = s->locate(0x10965);
  const Located caller = s->locate(0x10965, AddressKind::Return);
  REQUIRE(exact.method != nullptr);
  CHECK(exact.il.ilOffset == 0xf);
  CHECK(caller.il.ilOffset == 0x0);
  const std::optional<pdb::SourceLine> line = s->sourceLine(exact);
  REQUIRE(line);
  CHECK(line->document.find("Helper.cs") != std::string::npos);
  CHECK(line->line == 11);
  CHECK(!s->sourceLine(s->locate(0x10)));
  // Without lines no PDB is looked for.
  Expected<ImageSymbolizer> plain = ImageSymbolizer::open(data("pdb/sample-r2r.dll"), {"", false});
  REQUIRE(plain);
  CHECK(plain->pdb() == nullptr);
  CHECK(!plain->pdbNote());
  // A PDB named that does not fit is the error.
  const std::string other = otherBuildPdb();
  Expected<ImageSymbolizer> wrong = ImageSymbolizer::open(data("pdb/sample-r2r.dll"), {other, true});
  std::remove(other.c_str());
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().rule == rules::kPdbIdMismatch);
}

TEST_CASE("symbolize: /proc/PID/maps addresses become the mapped file's RVAs") {
  // sample-r2r.dll's .text: raw data at 0x200, mapped at RVA 0x10200; the
  // runtime maps the page holding it at base + 0x10000 from offset 0.
  const std::string image = data("pdb/sample-r2r.dll");
  const std::string text = "7f0000000000-7f0000001000 r--p 00000000 fe:00 12 " + image + "\n" +
                           "7f0000010000-7f0000012000 r-xp 00000000 fe:00 12   " + image + "\n" +
                           "7f0000020000-7f0000021000 rw-p 00000000 00:00 0 \n" +
                           "7ffc00000000-7ffc00001000 rw-p 00000000 00:00 0                          [stack]\n";
  Expected<std::vector<Mapping>> mappings = parseProcMaps(text);
  REQUIRE_MESSAGE(mappings, (mappings ? "" : mappings.error().message));
  REQUIRE(mappings->size() == 2);
  CHECK((*mappings)[1].path == image);
  MapsSymbolizer s(std::move(*mappings));
  const MapsAnswer twice = s.locate(0x7f0000010965);
  REQUIRE(twice.image != nullptr);
  REQUIRE(twice.rva);
  CHECK(*twice.rva == 0x10965);
  REQUIRE(twice.found());
  CHECK(twice.located.method->token == 0x06000001);
  CHECK(twice.source);
  CHECK_FALSE(s.locate(0x7f0000020010).mapping);  // anonymous memory: no file
  CHECK_FALSE(s.locate(0x1000).found());
  CHECK(s.takePdbNotes().empty());
}

TEST_CASE("symbolize: maps-invalid names the line that is no /proc/PID/maps line") {
  Expected<std::vector<Mapping>> bad = parseProcMaps("7f00-7f10 r-xp 0 fe:00 1 /a\nnot a maps line\n");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().rule == rules::kMapsInvalid);
  CHECK(bad.error().offset == 28);  // the second line's first byte
  CHECK(bad.error().message.find("line 2") != std::string::npos);
  Expected<std::vector<Mapping>> overlapping =
      parseProcMaps("7f00-7f10 r-xp 0 fe:00 1 /a\n7f08-7f20 r-xp 0 fe:00 1 /b\n");
  REQUIRE_FALSE(overlapping);
  CHECK(overlapping.error().rule == rules::kMapsInvalid);
  CHECK_FALSE(parseProcMaps("7f10-7f00 r-xp 0 fe:00 1 /a\n"));  // ends before it begins
  CHECK(parseProcMaps("")->empty());
}

TEST_CASE("symbolize: a process's JIT-compiled code, from a recorded .NET 10 runtime") {
  const std::optional<testing::TargetRecords> records =
      testing::TargetRecords::load(data("runtime/net10.0.12-sleeper.target"));
  REQUIRE(records);
  const CallbackMemory target = records->target("recording");
  Expected<runtime::RuntimeCode> code = runtime::RuntimeCode::openAt(target, records->descriptor);
  REQUIRE(code);
  ProcessLocator locator(*code, ProcessLocatorOptions{true});
  // The body of 0x06000002 at 0x7fdf0f8a20a0 (147 bytes, tier 0).
  const ProcessAnswer a = locator.locate(0x7fdf0f8a20a5, AddressKind::Return);
  CHECK(a.code == CodeKind::Jit);
  REQUIRE(a.found());
  CHECK(a.token() == 0x06000002);
  CHECK(a.module().find("sleeper.dll") != std::string::npos);
  CHECK(a.offset == 5);
  CHECK(a.lookup == 4);
  CHECK(a.il.entry);
  CHECK_FALSE(locator.takeWalkError());
  // Lines when the module's file and its PDB are on this machine (where it
  // was recorded); else no lines, and a note says why, once.
  const std::vector<PdbNote> notes = locator.takePdbNotes();
  CHECK(notes.size() == (a.source ? 0 : 1));
  if (!notes.empty()) CHECK(notes[0].image == a.module());
  locator.locate(0x7fdf0f8a20a6);
  CHECK(locator.takePdbNotes().empty());
  // Outside any code the runtime knows.
  const ProcessAnswer none = locator.locate(0x1000);
  CHECK(none.code == CodeKind::None);
  CHECK_FALSE(none.found());
}

}  // namespace
}  // namespace gdmap::symbolize
