// The ReadyToRun reader on corrupted copies of the real images: one test
// per r2r-* rule, each checking the rule, the file offset and what the
// message names; then every truncation and a few thousand seeded byte
// changes, which must fail cleanly or read, never crash or hang.
#include <gdmap/reader/pe_image.hpp>
#include <gdmap/reader/r2r_image.hpp>

#include <gdmap/schema/rules.hpp>
#include "r2r_test_images.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

using gdmap::Bytes;
using gdmap::r2r::MethodBody;
using gdmap::r2r::R2RImage;
using gdmap::r2r::readR2RImage;
namespace section = gdmap::r2r::section;
using r2r_test::contains;
using r2r_test::errorOf;
using r2r_test::methodAt;
using r2r_test::parsed;
using r2r_test::put32;
using r2r_test::readImage;

namespace {

// File offset of the READYTORUN_SECTION entry of `type`.
std::uint64_t sectionEntry(const R2RImage& image, std::uint32_t type) {
  for (std::size_t i = 0; i < image.sections.size(); ++i) {
    if (image.sections[i].type == type) return image.headerOffset + 16 + 12 * i;
  }
  FAIL("no section");
  return 0;
}

const Bytes& primitives() {
  static const Bytes bytes = readImage("Microsoft.Win32.Primitives.dll");
  return bytes;
}
const Bytes& extensions() {
  static const Bytes bytes = readImage("System.Threading.Tasks.Extensions.dll");
  return bytes;
}
const Bytes& visualC() {
  static const Bytes bytes = readImage("x86/System.Runtime.CompilerServices.VisualC.dll");
  return bytes;
}

}  // namespace

TEST_CASE("r2r negative: r2r-not-pe") {
  Bytes file = primitives();
  file[0] = 'X';
  gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-not-pe");
  CHECK(e.offset == 0);
  CHECK(contains(e.message, "no MZ signature"));

  file = primitives();
  put32(file, 0x3C, 0x7FFFFFF0);  // e_lfanew past the end
  e = errorOf(file);
  CHECK(e.rule == "r2r-not-pe");
  CHECK(contains(e.message, "no PE signature"));

  CHECK(errorOf(Bytes{}).rule == "r2r-not-pe");
}

TEST_CASE("r2r negative: r2r-no-header") {
  Bytes file = primitives();
  const auto pe = gdmap::pe::PeImage::open(file);
  REQUIRE(pe.ok());
  const auto cli = pe->cliHeader();
  REQUIRE(cli.ok());
  put32(file, cli->managedNativeHeaderAt, 0);
  put32(file, cli->managedNativeHeaderAt + 4, 0);
  const gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-no-header");
  CHECK(e.offset == cli->managedNativeHeaderAt);
  CHECK(contains(e.message, "IL-only"));
}

TEST_CASE("r2r negative: r2r-bad-signature") {
  const R2RImage image = parsed(primitives());
  Bytes file = primitives();
  put32(file, image.headerOffset, 0x0045474E);  // "NGE": a fragile NGen image
  const gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-bad-signature");
  CHECK(e.offset == image.headerOffset);
  CHECK(contains(e.message, "NGen"));
}

TEST_CASE("r2r negative: r2r-unsupported-version") {
  const R2RImage image = parsed(primitives());
  Bytes file = primitives();
  file[image.headerOffset + 4] = 1;  // ReadyToRun 1.x (2015) predates .NET Core 2.0
  gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-unsupported-version");
  CHECK(e.offset == image.headerOffset + 4);
  CHECK(contains(e.message, "version 1.2 is not supported"));
  CHECK(contains(e.message, "2 (.NET Core 2.0) and newer"));
  file[image.headerOffset + 4] = 0;
  CHECK(errorOf(file).rule == "r2r-unsupported-version");
}

TEST_CASE("r2r negative: r2r-newer-version (a warning: the image is read as the newest known)") {
  const R2RImage image = parsed(primitives());
  Bytes file = primitives();
  file[image.headerOffset + 4] = 27;
  file[image.headerOffset + 6] = 0;
  // Read with R2R 26's rules, this .NET Core 2.0 image's nibble bounds do
  // not decode as packed3 (r2r_net11_test.cpp has one that reads).
  CHECK(errorOf(file).rule != "r2r-newer-version");
}

TEST_CASE("r2r negative: r2r-unsupported-machine") {
  Bytes file = primitives();
  const std::uint32_t pe = file[0x3C] | file[0x3D] << 8;
  gdmap::Error e;
  file[pe + 4] = 0x34;
  file[pe + 5] = 0x12;
  e = errorOf(file);
  CHECK(e.rule == "r2r-unsupported-machine");
  CHECK(contains(e.message, "unknown architecture"));
}

TEST_CASE("r2r negative: r2r-section-outside-image") {
  const R2RImage image = parsed(primitives());
  Bytes file = primitives();
  const std::uint64_t entry = sectionEntry(image, section::kDebugInfo);
  put32(file, entry + 8, 0x100000);  // 1 MB of debug info in an 8 KB file
  const gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-section-outside-image");
  CHECK(e.offset == entry);
  CHECK(contains(e.message, "(type 105)"));
}

TEST_CASE("r2r negative: r2r-truncated") {
  const R2RImage image = parsed(primitives());
  // The runtime functions table: 120 bytes, 10 entries; 116 is no whole number.
  Bytes file = primitives();
  put32(file, sectionEntry(image, section::kRuntimeFunctions) + 8, 116);
  gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-truncated");
  CHECK(contains(e.message, "runtimeFunctions: 116 bytes"));

  // The debug-info section cut just after the header of the last blob
  // (method 0x0600000b's `35`: cbBounds 5, cbVars 3): its bounds no longer fit.
  file = primitives();
  const MethodBody& m = methodAt(image, 0x0600000b);
  const gdmap::r2r::Section* debug = image.findSection(section::kDebugInfo);
  for (const MethodBody& other : image.methods) REQUIRE(other.debugInfoOffset <= m.debugInfoOffset);
  REQUIRE(m.bounds.data() == m.debugInfo.data() + 1);
  put32(file, sectionEntry(image, section::kDebugInfo) + 8,
        static_cast<std::uint32_t>(m.debugInfoOffset + 1 - debug->fileOffset));
  e = errorOf(file);
  CHECK(e.rule == "r2r-truncated");
  CHECK(e.offset == m.debugInfoOffset);
  CHECK(contains(e.message, "debugInfo[9] (method 0x0600000b)"));
  CHECK(contains(e.message, "cbBounds 5, cbVars 3"));

  // More sections than the header's directory holds.
  file = primitives();
  put32(file, image.headerOffset + 12, 1000);
  e = errorOf(file);
  CHECK(e.rule == "r2r-truncated");
  CHECK(e.offset == image.headerOffset + 12);
}

TEST_CASE("r2r negative: r2r-bad-varint") {
  const R2RImage image = parsed(primitives());
  Bytes file = primitives();
  const gdmap::r2r::Section* debug = image.findSection(section::kDebugInfo);
  file[debug->fileOffset] = 0x1F;  // five low bits set: no such native integer
  const gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-bad-varint");
  CHECK(e.offset == debug->fileOffset);
  CHECK(contains(e.message, "debugInfo: "));
}

TEST_CASE("r2r negative: r2r-bad-native-array") {
  const R2RImage image = parsed(primitives());
  const gdmap::r2r::Section* debug = image.findSection(section::kDebugInfo);
  // `50` = 10 elements, 1-byte block index; `56` = 10 elements, width code 3.
  Bytes file = primitives();
  REQUIRE(file[debug->fileOffset] == 0x50);
  file[debug->fileOffset] = 0x56;
  gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-bad-native-array");
  CHECK(contains(e.message, "width code 3"));
  // A count whose block index cannot fit: `f1 ff` = 0x3FFC, 4095 elements
  // with a 256-byte block index in a 250-byte section.
  file = primitives();
  file[debug->fileOffset] = 0xF1;
  file[debug->fileOffset + 1] = 0xFF;
  e = errorOf(file);
  CHECK(e.rule == "r2r-bad-native-array");
  CHECK(contains(e.message, "block index"));
}

TEST_CASE("r2r negative: r2r-bad-hashtable") {
  const R2RImage image = parsed(extensions());
  const gdmap::r2r::Section* table = image.findSection(section::kInstanceMethodEntryPoints);
  REQUIRE(table != nullptr);
  Bytes file = extensions();
  file[table->fileOffset] |= 3;  // entry width code 3
  gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-bad-hashtable");
  CHECK(e.offset == table->fileOffset);
  CHECK(contains(e.message, "instanceEntryPoints: "));
  // 2^40 buckets.
  file = extensions();
  file[table->fileOffset] = static_cast<std::uint8_t>(40 << 2);
  e = errorOf(file);
  CHECK(e.rule == "r2r-bad-hashtable");
  CHECK(contains(e.message, "2^40 buckets"));
}

TEST_CASE("r2r negative: r2r-bad-instance-signature") {
  const R2RImage image = parsed(extensions());
  const MethodBody* instance = nullptr;
  for (const MethodBody& m : image.methods) {
    if (m.instantiated) instance = &m;
  }
  REQUIRE(instance != nullptr);
  Bytes file = extensions();
  file[instance->signatureOffset] = 0x08;  // SlotInsteadOfToken
  gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-bad-instance-signature");
  CHECK(e.offset == instance->signatureOffset);
  CHECK(contains(e.message, "instanceEntryPoints@"));
  // The owner type's element type: 0x15 GENERICINST -> 0x42, no type.
  file = extensions();
  REQUIRE(file[instance->signatureOffset + 1] == 0x15);
  file[instance->signatureOffset + 1] = 0x42;
  e = errorOf(file);
  CHECK(e.rule == "r2r-bad-instance-signature");
  CHECK(e.offset == instance->signatureOffset + 1);
  CHECK(contains(e.message, "element type 0x42"));
}

TEST_CASE("r2r negative: r2r-index-out-of-range") {
  const R2RImage image = parsed(primitives());
  const MethodBody& m = methodAt(image, 0x06000001);
  Bytes file = primitives();
  REQUIRE(file[m.entryPointOffset] == 0x00);  // runtime function 0
  file[m.entryPointOffset] = 0x50;            // 40 -> runtime function 20 of 10
  const gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-index-out-of-range");
  CHECK(e.offset == m.entryPointOffset);
  CHECK(contains(e.message, "methodDefEntryPoints[0] (method 0x06000001)"));
  CHECK(contains(e.message, "runtime function 20"));
}

TEST_CASE("r2r negative: r2r-bad-entry-point") {
  // Method 0x06000001's entry moved to runtime function 1: function 0 keeps
  // debug info of its own, but no method's code precedes it.
  const R2RImage image = parsed(primitives());
  const MethodBody& first = methodAt(image, 0x06000001);
  Bytes file = primitives();
  REQUIRE(file[first.entryPointOffset] == 0x00);
  file[first.entryPointOffset] = 0x04;  // native 2 = runtime function 1 << 1
  const gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-bad-entry-point");
  CHECK(e.offset == first.debugInfoElementOffset);
  CHECK(contains(e.message, "no method's code precedes it"));
}

TEST_CASE("r2r negative: r2r-bad-runtime-function") {
  const R2RImage image = parsed(primitives());
  const std::uint64_t table = image.findSection(section::kRuntimeFunctions)->fileOffset;
  Bytes file = primitives();
  put32(file, table + 12, image.runtimeFunctions[0].begin);  // function 1 starts inside function 0
  gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-bad-runtime-function");
  CHECK(e.offset == table + 12);
  CHECK(contains(e.message, "runtimeFunctions[1]"));
  file = primitives();
  put32(file, table + 4, image.runtimeFunctions[0].begin);  // empty
  e = errorOf(file);
  CHECK(e.rule == "r2r-bad-runtime-function");
  CHECK(contains(e.message, "is empty"));
  // x86: the GC info's code length runs function 0 into function 1.
  const R2RImage x86 = parsed(visualC());
  file = visualC();
  const auto pe = gdmap::pe::PeImage::open(file);
  REQUIRE(pe.ok());
  const auto gcInfo = pe->rvaToOffset(x86.runtimeFunctions[0].unwindRva);
  REQUIRE(gcInfo.has_value());
  REQUIRE(file[*gcInfo] == 0x06);
  file[*gcInfo] = 0x7F;
  e = errorOf(file);
  CHECK(e.rule == "r2r-bad-runtime-function");
}

TEST_CASE("r2r negative: r2r-lookback-outside") {
  const R2RImage image = parsed(primitives());
  const MethodBody& m = methodAt(image, 0x06000001);
  Bytes file = primitives();
  REQUIRE(file[m.debugInfoElementOffset] == 0x00);
  file[m.debugInfoElementOffset] = 0x7E;  // lookback 63, the element is 9 bytes into the section
  const gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-lookback-outside");
  CHECK(e.offset == m.debugInfoElementOffset);
  CHECK(contains(e.message, "debugInfo[0] (method 0x06000001): lookback 0x3f points 0x36 bytes before the section"));
}

TEST_CASE("r2r negative: r2r-lookback-chain") {
  // x86 image: methods 2, 3 and 4 look back to method 1's blob. Point
  // method 3's lookback at method 2's element instead.
  const R2RImage image = parsed(visualC());
  const MethodBody& two = methodAt(image, 0x06000002);
  const MethodBody& three = methodAt(image, 0x06000003);
  REQUIRE(two.sharedDebugInfo);
  REQUIRE(three.sharedDebugInfo);
  REQUIRE(three.debugInfoElementOffset > two.debugInfoElementOffset);
  const std::uint64_t distance = three.debugInfoElementOffset - two.debugInfoElementOffset;
  REQUIRE(distance < 128);
  Bytes file = visualC();
  REQUIRE((file[three.debugInfoElementOffset] & 1) == 0);  // a one-byte lookback
  file[three.debugInfoElementOffset] = static_cast<std::uint8_t>(distance << 1);
  const gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-lookback-chain");
  CHECK(e.offset == three.debugInfoElementOffset);
  CHECK(contains(e.message, "(method 0x06000003)"));
  CHECK(contains(e.message, "lands on another lookback element"));
}

TEST_CASE("r2r negative: r2r-bad-debug-info") {
  const R2RImage image = parsed(primitives());
  const MethodBody& m = methodAt(image, 0x06000001);
  // Header `69 07`: nibbles 9 6 | 7 | 0 (padding); make the padding 1.
  Bytes file = primitives();
  REQUIRE(file[m.debugInfoOffset + 1] == 0x07);
  file[m.debugInfoOffset + 1] = 0x17;
  gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-bad-debug-info");
  CHECK(e.offset == m.debugInfoOffset + 1);
  CHECK(contains(e.message, "padding"));
  // cbBounds 14 -> 16 (`0a`: nibbles a 0): the 25-byte blob now overlaps
  // the next one, which starts 24 bytes after it.
  file = primitives();
  file[m.debugInfoOffset] = 0x0A;
  e = errorOf(file);
  CHECK(e.rule == "r2r-bad-debug-info");
  CHECK(contains(e.message, "overlaps"));
}

TEST_CASE("r2r negative: r2r-bound-past-code") {
  // Method 0x06000001's last bound is at native 98 (its epilog); end its
  // runtime function 60 bytes after the start.
  const R2RImage image = parsed(primitives());
  const MethodBody& m = methodAt(image, 0x06000001);
  Bytes file = primitives();
  put32(file, image.findSection(section::kRuntimeFunctions)->fileOffset + 4, image.runtimeFunctions[0].begin + 60);
  const gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-bound-past-code");
  CHECK(e.offset == m.debugInfoOffset);
  CHECK(contains(e.message,
                 "debugInfo[0] (method 0x06000001): a bound at native offset 98 lies past the method's 60 bytes"));
}

TEST_CASE("r2r negative: bounds that do not decode keep the bounds rule") {
  const R2RImage image = parsed(primitives());
  const MethodBody& m = methodAt(image, 0x06000001);
  Bytes file = primitives();
  const std::uint64_t boundsAt = m.debugInfoOffset + 2;
  REQUIRE(file[boundsAt] == 0x06);
  file[boundsAt] = 0x07;  // 7 bounds announced, 6 present: the last runs into the padding
  const gdmap::Error e = errorOf(file);
  CHECK(e.rule.rfind("il-", 0) == 0);
  CHECK(contains(e.message, "debugInfo[0] (method 0x06000001): bounds blob: bounds[6].il: "));
  CHECK(e.offset >= boundsAt);
  CHECK(e.offset <= boundsAt + 14);
}

TEST_CASE("r2r negative: every truncation and seeded byte changes fail cleanly") {
  for (const Bytes* image : {&primitives(), &extensions(), &visualC()}) {
    // Cutting into the R2R sections' data must be noticed: every prefix
    // short of the end of the last one fails.
    const R2RImage whole = parsed(*image);
    std::uint64_t needed = 0;
    for (const gdmap::r2r::Section& s : whole.sections) needed = std::max(needed, s.fileOffset + s.size);
    REQUIRE(needed > image->size() / 4);
    for (std::size_t length = 0; length < image->size(); ++length) {
      const Bytes cut(image->begin(), image->begin() + static_cast<std::ptrdiff_t>(length));
      const auto result = readR2RImage(cut);
      if (length < needed) REQUIRE_FALSE(result.ok());
      if (!result) CHECK(!result.error().rule.empty());
    }
  }
  std::mt19937 random(11);
  const Bytes& base = extensions();
  std::size_t read = 0;
  for (int round = 0; round < 3000; ++round) {
    Bytes file = base;
    for (int k = 0; k < 4; ++k) {
      file[random() % file.size()] = static_cast<std::uint8_t>(random());
    }
    const auto result = readR2RImage(file);
    if (result) {
      ++read;
      for (const MethodBody& m : result->methods) CHECK(m.runtimeFunctionCount >= 1);
    } else {
      CHECK(!result.error().rule.empty());
      CHECK(result.error().offset <= file.size());
    }
  }
  CHECK(read > 0);  // most changes land in bytes the reader does not interpret
}
