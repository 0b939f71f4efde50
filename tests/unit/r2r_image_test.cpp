// The ReadyToRun reader on real images checked in under tests/data/r2r
// (.NET Core 2.0 Linux x64, .NET Core 2.1 Windows x86): expectations
// decoded by hand from the bytes (see the comments), and every method's
// bounds decodable.
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/reader/pe_image.hpp>
#include <gdmap/reader/r2r_image.hpp>

#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/il_map.hpp>
#include "r2r_test_images.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using gdmap::Bytes;
using gdmap::ByteSpan;
using gdmap::toHex;
using gdmap::il::Bound;
using gdmap::r2r::MethodBody;
using gdmap::r2r::R2RImage;
using gdmap::r2r::readR2RImage;
namespace source = gdmap::il::source;
using r2r_test::methodAt;
using r2r_test::readImage;

namespace {

std::vector<Bound> decodeBounds(const MethodBody& m) {
  const gdmap::Expected<gdmap::il::BoundsView> opened = gdmap::il::openBounds(m.bounds, gdmap::il::BoundsForm::Nibble);
  REQUIRE(opened);
  return opened->toVector();
}

// Every method: a body, code, and bounds the project's decoder accepts,
// lying inside its code.
void checkEveryMethod(const R2RImage& image) {
  std::uint32_t claimed = 0;
  for (const MethodBody& m : image.methods) {
    CAPTURE(gdmap::hex32(m.token));
    CHECK(m.runtimeFunctionCount >= 1);
    CHECK(m.codeSize > 0);
    CHECK(m.entryRva == image.runtimeFunctions[m.firstRuntimeFunction].begin);
    claimed += m.runtimeFunctionCount;
    REQUIRE(m.hasDebugInfo);
    REQUIRE(!m.bounds.empty());
    CHECK(m.bounds.data() >= m.debugInfo.data());
    for (const Bound& b : decodeBounds(m)) CHECK(b.nativeOffset <= m.codeSize);
  }
  CHECK(claimed == image.runtimeFunctions.size());
}

}  // namespace

TEST_CASE("r2r: Microsoft.Win32.Primitives (Linux x64, 2.0): header, sections, every method") {
  const Bytes file = readImage("Microsoft.Win32.Primitives.dll");
  const auto image = readR2RImage(file);
  REQUIRE(image.ok());
  CHECK(image->peMachine == 0xFD1D);  // 0x8664 ^ 0x7B79 (Linux)
  CHECK(image->machine == gdmap::r2r::machine::kAmd64);
  CHECK(image->os == gdmap::r2r::TargetOs::Linux);
  CHECK(gdmap::r2r::describeMachine(*image) == "Linux x64");
  CHECK(image->majorVersion == 2);
  CHECK(image->minorVersion == 2);
  CHECK(image->flags == 3);
  CHECK(image->headerOffset == 1096);
  REQUIRE(image->sections.size() == 9);
  CHECK(image->findSection(gdmap::r2r::section::kDebugInfo)->fileOffset == 5760);
  CHECK(image->findSection(gdmap::r2r::section::kDebugInfo)->size == 250);
  CHECK(image->runtimeFunctions.size() == 10);
  CHECK(image->methods.size() == 10);
  CHECK(image->summary.methodDefEntryPoints == 10);
  CHECK(image->summary.instanceEntryPoints == 0);
  CHECK(image->summary.distinctDebugInfoBlobs == 10);
  checkEveryMethod(*image);

  // Method 0x06000001: runtime function 0 is {0x212d0, 0x2134f, 0x21560}.
  // Section 105 at file 5760: `50` = NativeArray of 10 one-byte-indexed
  // elements; block 0 at +1; its tree (`dd 0d`, `9d 06`, `dd 02`, `ce`) leads
  // element 0 to 5769, `00` = lookback 0, so the blob is at 5770:
  // `69 07` = cbBounds 14, cbVars 7, then the 14 bounds bytes.
  const MethodBody& m = methodAt(*image, 0x06000001);
  CHECK(m.firstRuntimeFunction == 0);
  CHECK(m.runtimeFunctionCount == 1);
  CHECK(image->runtimeFunctions[0].begin == 0x212d0);
  CHECK(image->runtimeFunctions[0].end == 0x2134f);
  CHECK(image->runtimeFunctions[0].unwindRva == 0x21560);
  CHECK(m.codeSize == 127);
  CHECK_FALSE(m.hasFixups);
  CHECK(m.debugInfoElementOffset == 5769);
  CHECK(m.debugInfoOffset == 5770);
  CHECK_FALSE(m.sharedDebugInfo);
  CHECK(toHex(m.debugInfo.first(2)) == "6907");
  CHECK(toHex(m.bounds) == "06214c19a2a6201a1b526ba20202");
  CHECK(toHex(m.vars) == "024c04c7a44670");
  // Nibbles 6 | 0 1 2 | c 4 9 1 2 | a 6 a 0 2 | a 1 b 1 2 | 5 b 6 2 | a 2 0 2:
  // six bounds; native deltas 0, 36, 22, 17, 5, 18; IL+3 values 1 (prolog),
  // 9, 16, 25, 30, 0 (epilog); every source 2 (stack_empty).
  const std::vector<Bound> expected = {{0, gdmap::il::kProlog, source::kStackEmpty},
                                       {36, 6, source::kStackEmpty},
                                       {58, 13, source::kStackEmpty},
                                       {75, 22, source::kStackEmpty},
                                       {80, 27, source::kStackEmpty},
                                       {98, gdmap::il::kEpilog, source::kStackEmpty}};
  CHECK(decodeBounds(m) == expected);

  // 0x06000002 has no precompiled body (no element in section 103).
  for (const MethodBody& each : image->methods) CHECK(each.token != 0x06000002);
  const MethodBody& last = methodAt(*image, 0x0600000b);
  CHECK(last.firstRuntimeFunction == 9);
  CHECK(last.codeSize == 17);
  CHECK(toHex(last.bounds) == "0321356220");
}

TEST_CASE("r2r: System.Threading.Tasks.Extensions (Linux x64, 2.0): instantiations and shared blobs") {
  const Bytes file = readImage("System.Threading.Tasks.Extensions.dll");
  const auto image = readR2RImage(file);
  REQUIRE(image.ok());
  CHECK(image->runtimeFunctions.size() == 39);
  CHECK(image->methods.size() == 39);
  CHECK(image->summary.methodDefEntryPoints == 2);
  CHECK(image->summary.instanceEntryPoints == 37);
  CHECK(image->summary.sharedDebugInfo == 7);
  CHECK(image->summary.distinctDebugInfoBlobs == 32);
  checkEveryMethod(*image);

  // Signature at file 13569: `40` OwnerType; `15 11 08 01 3e` GENERICINST
  // VALUETYPE TypeDef row 2, one argument, CANON_ZAPSIG; `0b` MethodDef row
  // 11; then the entry point `28` = 20 = runtime function 10 << 1.
  const MethodBody& b = methodAt(*image, 0x0600000b, true);
  CHECK(b.signatureOffset == 13569);
  CHECK(b.signatureFlags == gdmap::r2r::method_sig::kOwnerType);
  CHECK(b.ownerType == "valuetype 0x02000002<__Canon>");
  CHECK(b.typeArguments == std::vector<std::string>{"__Canon"});
  CHECK(b.methodArguments.empty());
  CHECK(b.firstRuntimeFunction == 10);
  CHECK(b.codeSize == 34);
  CHECK_FALSE(b.sharedDebugInfo);
  CHECK(b.debugInfoOffset == 15573);
  // 0x0600000c's element at 15593 is `28`: lookback 20, to 15573, the blob
  // of 0x0600000b.
  const MethodBody& c = methodAt(*image, 0x0600000c, true);
  CHECK(c.sharedDebugInfo);
  CHECK(c.debugInfoElementOffset == 15593);
  CHECK(c.debugInfoOffset == 15573);
  CHECK(c.bounds.data() == b.bounds.data());
  CHECK(toHex(c.bounds) == "0621359290237920a2270202");

  // `44` OwnerType|MethodInstantiation, owner valuetype 0x02000004<__Canon>,
  // row 0x15, one method argument `3e`; entry `a2` = 81: fixups (bit 0),
  // runtime function 81 >> 2 = 20.
  const MethodBody& g = methodAt(*image, 0x06000015, true);
  CHECK(g.signatureOffset == 13641);
  CHECK(g.signatureFlags == 0x44);
  CHECK(g.ownerType == "valuetype 0x02000004<__Canon>");
  CHECK(g.methodArguments == std::vector<std::string>{"__Canon"});
  CHECK(g.hasFixups);
  CHECK(g.firstRuntimeFunction == 20);
  CHECK(g.codeSize == 50);

  // The two MethodDef bodies are not instantiations.
  const MethodBody& plain = methodAt(*image, 0x06000012);
  CHECK(plain.ownerType.empty());
  CHECK(plain.typeArguments.empty());
}

TEST_CASE("r2r: System.Runtime.CompilerServices.VisualC (Windows x86, 2.1): code length from the GC info") {
  const Bytes file = readImage("x86/System.Runtime.CompilerServices.VisualC.dll");
  const auto image = readR2RImage(file);
  REQUIRE(image.ok());
  CHECK(image->peMachine == 0x014C);
  CHECK(gdmap::r2r::describeMachine(*image) == "Windows x86");
  CHECK_FALSE(image->pe32Plus);
  REQUIRE(image->runtimeFunctions.size() == 9);
  CHECK(image->methods.size() == 9);
  checkEveryMethod(*image);
  // runtime function 0: BeginAddress 0x331c, UnwindData 0x3448 -> GC info
  // `06 81 16 ff`: code length 6; function 7 at 0x3360, GC info `23`: 35,
  // ending right before function 8 at 0x3384.
  CHECK(image->runtimeFunctions[0].begin == 0x331c);
  CHECK(image->runtimeFunctions[0].end == 0x3322);
  CHECK(image->runtimeFunctions[7].begin == 0x3360);
  CHECK(image->runtimeFunctions[7].size() == 35);
  CHECK(image->runtimeFunctions[8].begin == 0x3384);
  // Methods 2 to 4 share method 1's blob; 6 and 7 share 5's.
  CHECK(image->summary.sharedDebugInfo == 5);
  CHECK(image->summary.distinctDebugInfoBlobs == 4);
  CHECK(methodAt(*image, 0x06000004).debugInfoOffset == methodAt(*image, 0x06000001).debugInfoOffset);
  CHECK(toHex(methodAt(*image, 0x06000001).bounds) == "032195210002");
}

TEST_CASE("r2r: the metadata reader and the R2R reader share one PE reader") {
  const Bytes file = readImage("Microsoft.Win32.Primitives.dll");
  const auto pe = gdmap::pe::PeImage::open(file);
  REQUIRE(pe.ok());
  CHECK(pe->machine() == 0xFD1D);
  CHECK(pe->pe32Plus());
  const auto cli = pe->cliHeader();
  REQUIRE(cli.ok());
  const auto root = pe->range(cli->metadata, 0, "metadata");
  REQUIRE(root.ok());
  REQUIRE(root->size() >= 4);
  CHECK(toHex(root->first(4)) == "42534a42");  // "BSJB"
  CHECK(pe->rvaToOffset(0x212d0).has_value());
  CHECK_FALSE(pe->rvaToOffset(0xFFFFFFF0).has_value());
}
