// The ReadyToRun reader on the modern images of tests/data/r2r and on
// copies a test crafts from them: what each major version changes (packed
// bounds from 16, the fat debug-info header from 17, x86 funclets from 14),
// every architecture's code lengths, composite images and the hot/cold map,
// with one negative test per rule those paths enforce.
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/reader/pe_image.hpp>
#include <gdmap/reader/r2r_image.hpp>

#include <gdmap/schema/rules.hpp>
#include "r2r_test_images.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using gdmap::Bytes;
using gdmap::r2r::MethodBody;
using gdmap::r2r::R2RImage;
using gdmap::r2r::readR2RImage;
namespace r2r = gdmap::r2r;
using r2r_test::contains;
using r2r_test::errorOf;
using r2r_test::methodAt;
using r2r_test::parsed;
using r2r_test::put32;
using r2r_test::readImage;

namespace {

// Nibble varints (FORMAT.md §3.3), low half of each byte first.
Bytes nibbleBytes(const std::vector<std::uint32_t>& values) {
  std::vector<std::uint8_t> nibbles;
  for (std::uint32_t v : values) {
    std::vector<std::uint8_t> chunks;
    do {
      chunks.push_back(static_cast<std::uint8_t>(v & 7));
      v >>= 3;
    } while (v != 0);
    for (std::size_t i = chunks.size(); i-- > 0;) nibbles.push_back(static_cast<std::uint8_t>(chunks[i] | (i ? 8 : 0)));
  }
  if (nibbles.size() % 2) nibbles.push_back(0);
  Bytes out;
  for (std::size_t i = 0; i < nibbles.size(); i += 2)
    out.push_back(static_cast<std::uint8_t>(nibbles[i] | nibbles[i + 1] << 4));
  return out;
}

const Bytes& sampleX64() {
  static const Bytes bytes = readImage("sample/Sample.A.x64.dll");
  return bytes;
}

}  // namespace

TEST_CASE("r2r versions: what each real image's major version selects") {
  struct Case {
    const char* file;
    std::uint16_t major;
    gdmap::il::BoundsForm form;
    std::uint16_t machine;
  };
  using gdmap::il::BoundsForm;
  const Case cases[] = {
      {"netcore3.1-linux-x64/System.Diagnostics.Tools.dll", 3, BoundsForm::Nibble, r2r::machine::kAmd64},
      {"net6-win-x64/System.ComponentModel.dll", 5, BoundsForm::Nibble, r2r::machine::kAmd64},
      {"net8-linux-x64/System.ComponentModel.dll", 9, BoundsForm::Nibble, r2r::machine::kAmd64},
      {"net9-linux-x64/System.ComponentModel.dll", 10, BoundsForm::Nibble, r2r::machine::kAmd64},
      {"net10-linux-x64/System.ComponentModel.dll", 16, BoundsForm::Packed2, r2r::machine::kAmd64},
      {"net10-linux-arm64/System.ComponentModel.dll", 16, BoundsForm::Packed2, r2r::machine::kArm64},
      {"net10-win-x86/System.ComponentModel.dll", 16, BoundsForm::Packed2, r2r::machine::kI386},
      {"sample/Sample.A.arm.dll", 16, BoundsForm::Packed2, r2r::machine::kArmThumb2},
      {"sample/net11/Sample.A.x64.dll", 26, BoundsForm::Packed3, r2r::machine::kAmd64},
      {"sample/net11/Sample.Async.x64.dll", 26, BoundsForm::Packed3, r2r::machine::kAmd64},
  };
  for (const Case& c : cases) {
    CAPTURE(c.file);
    const R2RImage image = parsed(readImage(c.file));
    CHECK(image.majorVersion == c.major);
    CHECK(image.profile.bounds == c.form);
    CHECK(image.machine == c.machine);
    CHECK_FALSE(image.methods.empty());
    for (const MethodBody& m : image.methods) {
      CHECK(m.codeSize > 0);
      CHECK(m.hasDebugInfo);
    }
  }
  CHECK(r2r::formatProfile(15).bounds == BoundsForm::Nibble);
  CHECK(r2r::formatProfile(17).bounds == BoundsForm::Packed3);
  CHECK(r2r::formatProfile(17).fatDebugInfo);
  CHECK_FALSE(r2r::formatProfile(16).fatDebugInfo);
  for (std::uint16_t major = 18; major <= r2r::kNewestMajorVersion; ++major) {
    CAPTURE(major);  // nothing for how bounds or code are found changed after 17 (runtime async: a flag)
    CHECK(r2r::formatProfile(major).bounds == BoundsForm::Packed3);
    CHECK(r2r::formatProfile(major).fatDebugInfo);
  }
  CHECK(r2r::kNewestMajorVersion == 26);  // .NET 11.0.0
  CHECK(r2r::formatProfile(14).x86Funclets);
  CHECK_FALSE(r2r::formatProfile(13).x86Funclets);
}

TEST_CASE("r2r versions: code lengths per architecture (Shapes::SafeDivide: a body and two funclets)") {
  struct Case {
    const char* file;
    std::uint32_t sizes[3];
  };
  const Case cases[] = {{"sample/Sample.A.x64.dll", {38, 18, 14}},
                        {"sample/Sample.A.x86.dll", {33, 13, 10}},
                        {"sample/Sample.A.arm64.dll", {124, 20, 40}},
                        {"sample/Sample.A.arm.dll", {58, 24, 28}}};
  for (const Case& c : cases) {
    CAPTURE(c.file);
    const R2RImage image = parsed(readImage(c.file));
    const MethodBody& m = methodAt(image, 0x06000003);
    REQUIRE(m.runtimeFunctionCount == 3);
    for (std::uint32_t k = 0; k < 3; ++k)
      CHECK(image.runtimeFunctions[m.firstRuntimeFunction + k].size() == c.sizes[k]);
    CHECK(m.codeSize == c.sizes[0] + c.sizes[1] + c.sizes[2]);
    // ARM code starts at an even address: the Thumb bit is not part of it.
    CHECK(image.runtimeFunctions[m.firstRuntimeFunction].begin % 2 == 0);
  }
}

TEST_CASE("r2r versions: the ARM and ARM64 unwind forms") {
  const Bytes arm64 = readImage("sample/Sample.A.arm64.dll");
  const R2RImage image = parsed(arm64);
  const r2r::Section* functions = image.findSection(r2r::section::kRuntimeFunctions);
  REQUIRE(functions != nullptr);
  // A packed unwind word whose low bits are 3 (reserved) is an error.
  Bytes file = arm64;
  put32(file, functions->fileOffset + 4, 0x00000403);
  gdmap::Error e = errorOf(file);
  CHECK(e.rule == gdmap::rules::kR2rBadRuntimeFunction);
  CHECK(e.offset == functions->fileOffset + 4);
  CHECK(contains(e.message, "reserved packed form 3"));
  // A packed word's length (bits 2..12, in 4-byte units) of 0: empty code.
  file = arm64;
  put32(file, functions->fileOffset + 4, 0x00000001);
  e = errorOf(file);
  CHECK(e.rule == gdmap::rules::kR2rBadRuntimeFunction);
  CHECK(contains(e.message, "is empty"));
  // An .xdata RVA outside the file.
  file = arm64;
  put32(file, functions->fileOffset + 4, 0x7FFFFFF0);
  e = errorOf(file);
  CHECK(e.rule == gdmap::rules::kR2rSectionOutsideImage);
}

TEST_CASE("r2r versions: x86 funclets (R2R 14+) read a u32 FunctionLength") {
  const Bytes x86 = readImage("sample/Sample.A.x86.dll");
  const R2RImage image = parsed(x86);
  // The same image read as R2R 13 takes each unwind data for a GC-info
  // varint: the lengths come out wrong and the table stops being disjoint:
  // an error, never a silent misread.
  Bytes file = x86;
  file[image.headerOffset + 4] = 13;
  const gdmap::Error e = errorOf(file);
  CHECK(e.rule == gdmap::rules::kR2rBadRuntimeFunction);
  CHECK(contains(e.message, "sorted and disjoint"));
  // A funclet's length sums into its method's code size.
  const MethodBody& m = methodAt(image, 0x06000003);
  CHECK(m.runtimeFunctionCount == 3);
}

TEST_CASE("r2r versions: R2R 17's fat debug-info header and packed3 bounds") {
  // The x64 sample as R2R 17, with Shapes::Area's blob rewritten: the fat
  // marker, then bounds, vars, uninstrumented bounds, patchpoint, rich and
  // async sizes; then 3 packed3 bounds of its bounds (prolog@0, IL 0@0,
  // epilog@5, all stack_empty): count 3, nativeBits 3, ilBits 2.
  Bytes file = sampleX64();
  const R2RImage original = parsed(file);
  const MethodBody& area = methodAt(original, 0x06000002);
  REQUIRE(area.debugInfo.size() >= 8);
  const std::uint64_t blobAt = area.debugInfoOffset;
  file[original.headerOffset + 4] = 17;
  // packed3 entry: 3 source bits (bit 1 stack_empty), 3 native bits, 2 IL bits.
  const auto entry = [](std::uint32_t native, std::uint32_t il) { return 2u | native << 3 | il << 6; };
  const std::uint32_t bits = entry(0, 1) | entry(0, 3) << 8 | entry(5, 0) << 16;  // 8-bit entries
  Bytes blob = nibbleBytes({0, 5, 0, 0, 0, 0, 0});
  const Bytes header = nibbleBytes({3, 2, 1});
  blob.insert(blob.end(), header.begin(), header.end());
  blob.push_back(static_cast<std::uint8_t>(bits));
  blob.push_back(static_cast<std::uint8_t>(bits >> 8));
  blob.push_back(static_cast<std::uint8_t>(bits >> 16));
  REQUIRE(blob.size() <= area.debugInfo.size());
  std::copy(blob.begin(), blob.end(), file.begin() + static_cast<std::ptrdiff_t>(blobAt));

  // Every other blob (packed2, which packed3 would misread) becomes a fat
  // header with no bounds whose vars cover the blob's old bytes: the
  // image as a whole is then a valid R2R 17 image.
  for (const MethodBody& other : original.methods) {
    if (other.debugInfoOffset == blobAt || !other.hasDebugInfo) continue;
    const std::size_t length = other.debugInfo.size();
    REQUIRE(length >= 4);
    REQUIRE(length - 4 < 64);  // cbVars in at most 2 nibbles: 8 nibbles, 4 bytes
    const Bytes fat = nibbleBytes({0, 0, static_cast<std::uint32_t>(length - 4), 0, 0, 0, 0});
    REQUIRE(fat.size() == 4);
    std::copy(fat.begin(), fat.end(), file.begin() + static_cast<std::ptrdiff_t>(other.debugInfoOffset));
  }
  const auto image = readR2RImage(file);
  REQUIRE_MESSAGE(image.ok(), image.error().message);
  const MethodBody& m = methodAt(*image, 0x06000002);
  CHECK(m.fatDebugInfo);
  CHECK(image->profile.bounds == gdmap::il::BoundsForm::Packed3);
  CHECK(image->summary.fatDebugInfo == image->summary.distinctDebugInfoBlobs);
  CHECK(image->summary.withoutBounds == image->methods.size() - 1);
  REQUIRE(m.bounds.size() == 5);
  const auto view = gdmap::il::openBounds(m.bounds, gdmap::il::BoundsForm::Packed3);
  REQUIRE(view.ok());
  const std::vector<gdmap::il::Bound> bounds = view->toVector();
  REQUIRE(bounds.size() == 3);
  CHECK(bounds[0].ilOffset == 0xFFFFFFFEu);  // PROLOG
  CHECK(bounds[1].ilOffset == 0);
  CHECK(bounds[2].nativeOffset == 5);
  CHECK(bounds[2].ilOffset == 0xFFFFFFFDu);  // EPILOG

  // Fat sizes that overrun the section.
  Bytes overrun = file;
  const Bytes big = nibbleBytes({0, 5, 0, 0, 0, 0x7FFFF, 0});
  std::copy(big.begin(), big.end(), overrun.begin() + static_cast<std::ptrdiff_t>(blobAt));
  const gdmap::Error e = errorOf(overrun);
  CHECK(e.rule == gdmap::rules::kR2rTruncated);
  CHECK(e.offset == blobAt);
  CHECK(contains(e.message, "cbRichDebugInfo 524287"));
  CHECK(contains(e.message, "method 0x06000002"));

  // In R2R 16 a leading 0 is no marker: cbBounds 0 (no bounds), cbVars 5.
  Bytes v16 = sampleX64();
  std::copy(blob.begin(), blob.begin() + 4, v16.begin() + static_cast<std::ptrdiff_t>(blobAt));
  const auto slim = readR2RImage(v16);
  REQUIRE(slim.ok());
  CHECK_FALSE(methodAt(*slim, 0x06000002).fatDebugInfo);
  CHECK(methodAt(*slim, 0x06000002).bounds.empty());
  CHECK(methodAt(*slim, 0x06000002).vars.size() == 5);
}

TEST_CASE("r2r versions: truncated debug info in a packed image") {
  Bytes file = sampleX64();
  const R2RImage image = parsed(file);
  const MethodBody& m = methodAt(image, 0x06000003);
  // cbBounds 0x7FFF: past the section's end.
  const Bytes header = nibbleBytes({0x7FFF, 0});
  std::copy(header.begin(), header.end(), file.begin() + static_cast<std::ptrdiff_t>(m.debugInfoOffset));
  const gdmap::Error e = errorOf(file);
  CHECK(e.rule == gdmap::rules::kR2rTruncated);
  CHECK(e.offset == m.debugInfoOffset);
  CHECK(contains(e.message, "cbBounds 32767"));
}

TEST_CASE("r2r versions: a packed2 blob that does not decode names its field") {
  Bytes file = sampleX64();
  const R2RImage image = parsed(file);
  const MethodBody& m = methodAt(image, 0x06000003);
  // The bounds' count nibble becomes 0.
  const std::uint64_t boundsAt = m.debugInfoOffset + (m.debugInfo.size() - m.bounds.size() - m.vars.size());
  file[static_cast<std::size_t>(boundsAt)] &= 0xF0;
  const gdmap::Error e = errorOf(file);
  CHECK(e.rule == gdmap::rules::kIlEmptyBounds);
  CHECK(e.offset == boundsAt);
  CHECK(contains(e.message, "header.count"));
}

TEST_CASE("r2r versions: composite images and their components") {
  const Bytes composite = readImage("sample/composite/Sample.r2r.dll");
  const R2RImage image = parsed(composite);
  REQUIRE(image.components.size() == 2);
  CHECK(image.componentModuleBase == 2);
  std::size_t perComponent[2] = {0, 0};
  for (const MethodBody& m : image.methods) ++perComponent[m.component];
  CHECK(perComponent[0] == 7);
  CHECK(perComponent[1] == 5);
  CHECK(image.components[0].methodDefEntryPoints == 5);
  CHECK(image.components[1].methodDefEntryPoints == 1);

  const R2RImage stub = parsed(readImage("sample/composite/Sample.A.dll"));
  CHECK(stub.ownerComposite == "Sample.r2r.dll");
  CHECK(stub.methods.empty());
  CHECK((stub.flags & r2r::header_flag::kComponent) != 0);

  // Without its CLI header, a composite image is found as the runtime
  // finds it: by the export RTR_HEADER.
  {
    Bytes headless = composite;
    const auto pe = gdmap::pe::PeImage::open(composite);
    REQUIRE(pe.ok());
    REQUIRE(pe->exportRva("RTR_HEADER") == image.headerRva);
    CHECK_FALSE(pe->exportRva("RTR_HEADE").has_value());
    put32(headless, pe->directoryOffset(14), 0);
    put32(headless, pe->directoryOffset(14) + 4, 0);
    const R2RImage viaExport = parsed(headless);
    CHECK(viaExport.headerRva == image.headerRva);
    CHECK(viaExport.methods.size() == image.methods.size());
  }

  // An instantiation whose owner type's module is no component.
  const MethodBody* inst = nullptr;
  for (const MethodBody& m : image.methods) {
    if (m.instantiated && m.hasModule) inst = &m;
  }
  REQUIRE(inst != nullptr);
  Bytes file = composite;
  // The signature: flags (OwnerType), ELEMENT_TYPE_MODULE_ZAPSIG, the module index.
  REQUIRE(file[inst->signatureOffset + 1] == 0x3F);
  file[inst->signatureOffset + 2] = 9;
  gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-bad-composite");
  CHECK(contains(e.message, "module 9 is no component of the 2 (component modules are 2 to 3)"));

  // The component table must hold whole entries.
  const r2r::Section* table = image.findSection(r2r::section::kComponentAssemblies);
  REQUIRE(table != nullptr);
  file = composite;
  for (std::size_t i = 0; i < image.sections.size(); ++i) {
    if (image.sections[i].type == r2r::section::kComponentAssemblies) {
      put32(file, image.headerOffset + 16 + 12 * i + 8, table->size - 4);
    }
  }
  e = errorOf(file);
  CHECK(e.rule == gdmap::rules::kR2rBadComposite);
  CHECK(e.offset == table->fileOffset);

  // A component's core header outside the image.
  file = composite;
  put32(file, table->fileOffset + 8, 0x7FFFFFF0);
  e = errorOf(file);
  CHECK(e.rule == gdmap::rules::kR2rSectionOutsideImage);
  CHECK(contains(e.message, "componentAssemblies[0].coreHeader"));
}

TEST_CASE("r2r versions: the hot/cold map") {
  const Bytes hotcold = readImage("sample/Sample.A.hotcold.dll");
  const R2RImage image = parsed(hotcold);
  CHECK(image.summary.splitMethods == 1);
  const MethodBody& m = methodAt(image, 0x06000003);
  CHECK(m.runtimeFunctionCount == 1);
  CHECK(m.coldRuntimeFunctionCount == 2);
  CHECK(m.codeSize == 70);
  CHECK(image.runtimeFunctions[m.firstColdRuntimeFunction].cold);

  const r2r::Section* map = image.findSection(r2r::section::kHotColdMap);
  REQUIRE(map != nullptr);
  // A cold runtime function past the table.
  Bytes file = hotcold;
  put32(file, map->fileOffset, 9999);
  gdmap::Error e = errorOf(file);
  CHECK(e.rule == "r2r-bad-hot-cold-map");
  CHECK(e.offset == map->fileOffset);
  CHECK(contains(e.message, "runtime function 9999 is outside the table"));
  // A hot runtime function that is no method's entry (the cold one itself).
  file = hotcold;
  put32(file, map->fileOffset + 4, m.firstColdRuntimeFunction + 1);
  e = errorOf(file);
  CHECK(e.rule == gdmap::rules::kR2rBadHotColdMap);
  // A map of half a pair.
  file = hotcold;
  for (std::size_t i = 0; i < image.sections.size(); ++i) {
    if (image.sections[i].type == r2r::section::kHotColdMap) put32(file, image.headerOffset + 16 + 12 * i + 8, 4);
  }
  e = errorOf(file);
  CHECK(e.rule == gdmap::rules::kR2rBadHotColdMap);
  CHECK(contains(e.message, "8-byte pairs"));
}
