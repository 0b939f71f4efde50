// A PE image's debug directory (CodeView entries, the embedded portable PDB)
// on the real images of tests/data/pdb/ (IL, embedded PDB, ReadyToRun) and
// on damaged copies of them: ids, matching, inflating, and a located error
// for every broken entry.
#include <gdmap/pdb/debug_directory.hpp>
#include <gdmap/pdb/portable_pdb.hpp>
#include <gdmap/schema/rules.hpp>

#include "r2r_test_images.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>

namespace pdb = gdmap::pdb;

namespace {

// A copy of `bytes` with the u32 at `at` set to `value`. (The bounds check
// also keeps g++ 12's -Wstringop-overflow from guessing an empty vector.)
gdmap::Bytes withU32(gdmap::Bytes bytes, std::size_t at, std::uint32_t value) {
  if (at + 4 > bytes.size()) FAIL("patching past the end");
  r2r_test::put32(bytes, at, value);
  return bytes;
}

gdmap::Bytes dataFile(const std::string& name) {
  std::ifstream in(std::string(GDMAP_SOURCE_DIR) + "/tests/data/pdb/" + name, std::ios::binary);
  REQUIRE(in);
  return gdmap::Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

pdb::DebugDirectory directoryOf(const gdmap::Bytes& image) {
  gdmap::Expected<pdb::DebugDirectory> directory = pdb::readDebugDirectory(image);
  REQUIRE_MESSAGE(directory.ok(), (directory.ok() ? "" : directory.error().message));
  return std::move(directory).value();
}

// Where the sample images keep their debug directories (tests/data/pdb/README.md).
constexpr std::size_t kDebugDataDirectory = 296;  // data directory 6 of sample.dll and sample-embedded.dll
constexpr std::size_t kFirstEntry = 2448;         // IMAGE_DEBUG_DIRECTORY entries, 28 bytes each
constexpr std::size_t kCodeViewData = 2532;       // sample.dll's RSDS entry
constexpr std::size_t kEmbeddedEntry = kFirstEntry + 3 * 28;
constexpr std::size_t kEmbeddedData = 2634;  // "MPDB", the size, raw deflate

const char* const kSampleId = "a1a63090-8cda-4d77-9eeb-b5cb5c2eefb8:0x816db384";

gdmap::Error inflateError(const gdmap::Bytes& image) {
  const pdb::DebugDirectory directory = directoryOf(image);
  const auto inflated = pdb::inflateEmbeddedPdb(directory);
  REQUIRE_FALSE(inflated.ok());
  CHECK(inflated.error().rule == "pdb-embedded-invalid");
  CHECK(inflated.error().path == "embedded PDB");
  return inflated.error();
}

}  // namespace

TEST_CASE("debug directory: the CodeView entry of an IL image and of its ReadyToRun image name the PDB") {
  const gdmap::Bytes pdbBytes = dataFile("sample.pdb");
  const auto samplePdb = pdb::PortablePdb::open(pdbBytes);
  REQUIRE(samplePdb.ok());
  for (const char* name : {"sample.dll", "sample-r2r.dll"}) {
    INFO(name);
    const pdb::DebugDirectory directory = directoryOf(dataFile(name));
    REQUIRE(directory.codeView.size() == 1);
    const pdb::CodeViewEntry& entry = directory.codeView[0];
    CHECK(entry.portable);
    CHECK(entry.age == 1);
    CHECK(entry.path == "/src/sample/obj/Release/net10.0/sample.pdb");
    CHECK(entry.id.text() == kSampleId);
    CHECK(entry.id == samplePdb->id());
    CHECK_FALSE(directory.hasEmbeddedPdb);
    CHECK(pdb::checkPdbMatches(directory, samplePdb->id()).ok());
  }
  CHECK(directoryOf(dataFile("sample.dll")).codeView[0].offset == kCodeViewData);
}

TEST_CASE("debug directory: the embedded PDB inflates to the very bytes of the separate one") {
  const gdmap::Bytes image = dataFile("sample-embedded.dll");
  const pdb::DebugDirectory directory = directoryOf(image);
  REQUIRE(directory.codeView.size() == 1);
  CHECK(directory.codeView[0].path == "sample.pdb");
  REQUIRE(directory.hasEmbeddedPdb);
  CHECK(directory.embeddedOffset == kEmbeddedData);
  CHECK(directory.embeddedSize == 10912);
  CHECK(directory.embeddedDeflate.size() == 6367 - 8);
  const auto inflated = pdb::inflateEmbeddedPdb(directory);
  REQUIRE(inflated.ok());
  CHECK(*inflated == dataFile("sample.pdb"));
  const auto embedded = pdb::PortablePdb::open(*inflated);
  REQUIRE(embedded.ok());
  CHECK(pdb::checkPdbMatches(directory, embedded->id()).ok());
}

TEST_CASE("debug directory: another PDB's id (pdb-id-mismatch)") {
  pdb::DebugDirectory directory = directoryOf(dataFile("sample.dll"));
  pdb::PdbId other = directory.codeView[0].id;
  other.bytes[19] ^= 1;  // the stamp
  const gdmap::Status mismatch = pdb::checkPdbMatches(directory, other);
  REQUIRE_FALSE(mismatch.ok());
  CHECK(mismatch.error().rule == "pdb-id-mismatch");
  CHECK(mismatch.error().message.find(kSampleId) != std::string::npos);
  CHECK(mismatch.error().message.find(other.text()) != std::string::npos);
  CHECK(mismatch.error().message.find("/src/sample/obj/Release/net10.0/sample.pdb") != std::string::npos);
  // A CodeView entry of a Windows PDB never matches a portable one.
  directory.codeView[0].portable = false;
  const gdmap::Status windows = pdb::checkPdbMatches(directory, directory.codeView[0].id);
  REQUIRE_FALSE(windows.ok());
  CHECK(windows.error().rule == gdmap::rules::kPdbIdMismatch);
  CHECK(windows.error().message.find("names no portable PDB") != std::string::npos);
}

TEST_CASE("debug directory: an image without one, or without an embedded PDB (pdb-not-found)") {
  const gdmap::Bytes image = dataFile("sample.dll");
  const auto noEmbedded = pdb::inflateEmbeddedPdb(directoryOf(image));
  REQUIRE_FALSE(noEmbedded.ok());
  CHECK(noEmbedded.error().rule == "pdb-not-found");
  // Data directory 6 zeroed: no debug directory.
  const pdb::DebugDirectory none =
      directoryOf(withU32(withU32(image, kDebugDataDirectory, 0), kDebugDataDirectory + 4, 0));
  CHECK(none.codeView.empty());
  CHECK_FALSE(none.hasEmbeddedPdb);
  const auto notPe = pdb::readDebugDirectory(dataFile("sample.pdb"));
  REQUIRE_FALSE(notPe.ok());
  CHECK(notPe.error().rule == gdmap::rules::kR2rNotPe);
}

TEST_CASE("debug directory: a broken directory or CodeView entry is located (r2r-not-pe)") {
  const gdmap::Bytes good = dataFile("sample.dll");
  const auto failure = [](const gdmap::Bytes& image) {
    const auto directory = pdb::readDebugDirectory(image);
    REQUIRE_FALSE(directory.ok());
    CHECK(directory.error().rule == "r2r-not-pe");
    return directory.error();
  };
  SUBCASE("a size that is no multiple of 28") {
    const gdmap::Bytes image = withU32(good, kDebugDataDirectory + 4, 85);
    const gdmap::Error e = failure(image);
    CHECK(e.offset == kDebugDataDirectory);
    CHECK(e.path == "debug directory");
  }
  SUBCASE("data outside the file") {
    const gdmap::Bytes image = withU32(good, kFirstEntry + 24, 0xFFFFFF00);
    const gdmap::Error e = failure(image);
    CHECK(e.offset == kFirstEntry + 24);
    CHECK(e.path == "debug directory[0]");
    CHECK(e.message.find("outside the") != std::string::npos);
  }
  SUBCASE("a path without its NUL") {
    const gdmap::Bytes image = withU32(good, kFirstEntry + 16, 24 + 5);
    const gdmap::Error e = failure(image);
    CHECK(e.offset == kCodeViewData + 24);
    CHECK(e.message.find("no terminating NUL") != std::string::npos);
  }
  SUBCASE("an RSDS entry cut short") {
    const gdmap::Bytes image = withU32(good, kFirstEntry + 16, 10);
    const gdmap::Error e = failure(image);
    CHECK(e.path == "debug directory[0]");
    CHECK(e.message.find("cut short") != std::string::npos);
  }
  SUBCASE("another CodeView form is no error") {
    gdmap::Bytes image = good;
    image[kCodeViewData] = 'N';  // "NSDS": not RSDS
    CHECK(directoryOf(image).codeView.empty());
  }
}

TEST_CASE("debug directory: a broken embedded PDB is located (pdb-embedded-invalid)") {
  const gdmap::Bytes good = dataFile("sample-embedded.dll");
  const std::size_t deflateAt = kEmbeddedData + 8;
  const std::size_t deflateSize = 6367 - 8;
  SUBCASE("no MPDB signature") {
    gdmap::Bytes image = good;
    image[kEmbeddedData] = 'X';
    const auto directory = pdb::readDebugDirectory(image);
    REQUIRE_FALSE(directory.ok());
    CHECK(directory.error().rule == gdmap::rules::kPdbEmbeddedInvalid);
    CHECK(directory.error().offset == kEmbeddedData);
    CHECK(directory.error().path == "debug directory[3]");
  }
  SUBCASE("data cut short before the size") {
    const gdmap::Bytes image = withU32(good, kEmbeddedEntry + 16, 6);
    const auto directory = pdb::readDebugDirectory(image);
    REQUIRE_FALSE(directory.ok());
    CHECK(directory.error().rule == gdmap::rules::kPdbEmbeddedInvalid);
    CHECK(directory.error().message.find("cut short") != std::string::npos);
  }
  SUBCASE("one byte more declared than the stream makes") {
    const gdmap::Bytes image = withU32(good, kEmbeddedData + 4, 10913);
    const gdmap::Error e = inflateError(image);
    CHECK(e.message == "inflates to 10912 bytes, 10913 declared");
    CHECK(e.offset == deflateAt + deflateSize);
  }
  SUBCASE("one byte fewer declared") {
    const gdmap::Bytes image = withU32(good, kEmbeddedData + 4, 10911);
    CHECK(inflateError(image).message == "inflates to more than the 10911 bytes declared");
  }
  SUBCASE("garbage instead of deflate") {
    gdmap::Bytes image = good;
    image[deflateAt] = 0xFF;  // a final block of the reserved type 3
    const gdmap::Error e = inflateError(image);
    CHECK(e.message == "no raw deflate stream: invalid block type");
    CHECK(e.offset >= deflateAt);
    CHECK(e.offset <= deflateAt + 1);
  }
  SUBCASE("a deflate stream cut short") {
    const gdmap::Bytes image = withU32(good, kEmbeddedEntry + 16, 6367 - 100);
    const gdmap::Error e = inflateError(image);
    CHECK(e.message.find("the deflate stream is cut short after") == 0);
    CHECK(e.offset <= deflateAt + deflateSize - 92);
  }
  SUBCASE("a declared size over 256 MiB") {
    const gdmap::Bytes image = withU32(good, kEmbeddedData + 4, (256u << 20) + 1);
    const gdmap::Error e = inflateError(image);
    CHECK(e.message.find("over the 256 MiB") != std::string::npos);
    CHECK(e.offset == deflateAt);
  }
  SUBCASE("a declared size no deflate stream of that length can make") {
    const gdmap::Bytes image = withU32(good, kEmbeddedData + 4, 200u << 20);
    CHECK(inflateError(image).message.find("more than raw deflate can make of 6359 bytes") != std::string::npos);
  }
}
