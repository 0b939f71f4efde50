// ReadyToRun 26 (.NET 11.0.0) on the images crossgen2 11.0.0 made of the
// in-tree sample (tests/data/r2r/README.md, "net11"), each fact checked by
// hand there: code ranges, code sizes, funclets' PROLOG bounds, and runtime
// async's three bodies (the Task-returning thunk, the async variant, the
// resumption stub no entry point lists). Then what has no version ceiling
// means: a major version past the newest known is read as the newest with
// a warning, and a misreading it causes is a located error, never a wrong
// answer; and methods sharing one body (.NET Core 3.1's CoreLib).
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/reader/r2r_image.hpp>

#include <gdmap/schema/rules.hpp>
#include "r2r_test_images.hpp"

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

using gdmap::Bytes;
using gdmap::r2r::MethodBody;
using gdmap::r2r::R2RImage;
namespace r2r = gdmap::r2r;
using r2r_test::contains;
using r2r_test::errorOf;
using r2r_test::methodAt;
using r2r_test::parsed;
using r2r_test::readImage;

namespace {

const Bytes& net11Sample() {
  static const Bytes bytes = readImage("sample/net11/Sample.A.x64.dll");
  return bytes;
}
const Bytes& net11Async() {
  static const Bytes bytes = readImage("sample/net11/Sample.Async.x64.dll");
  return bytes;
}

// (begin RVA, size) of each runtime function of a body: hot, then cold.
std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges(const R2RImage& image, const MethodBody& m) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  for (std::uint32_t f = m.firstRuntimeFunction; f < m.firstRuntimeFunction + m.runtimeFunctionCount; ++f)
    out.emplace_back(image.runtimeFunctions[f].begin, image.runtimeFunctions[f].size());
  return out;
}

// "native:il" of each bound (il: hex, or prolog/epilog/no_mapping).
std::vector<std::string> bounds(const R2RImage& image, const MethodBody& m) {
  std::vector<std::string> out;
  const auto view = gdmap::il::openBounds(m.bounds, image.profile.bounds);
  REQUIRE(view.ok());
  for (const gdmap::il::Bound& b : view->toVector()) {
    const std::string_view special = gdmap::il::specialIlName(b.ilOffset);
    out.push_back(std::to_string(b.nativeOffset) + ":" +
                  (special.empty() ? gdmap::shortHex(b.ilOffset) : std::string(special)));
  }
  return out;
}

using Ranges = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
using Strings = std::vector<std::string>;

}  // namespace

TEST_CASE("r2r net11: Sample.A compiled by crossgen2 11.0.0 is R2R 26.1, read as by hand") {
  const R2RImage image = parsed(net11Sample());
  CHECK(image.majorVersion == 26);
  CHECK(image.minorVersion == 1);
  CHECK(image.readAsMajorVersion == 26);
  CHECK(image.warnings.empty());
  CHECK(image.headerOffset == 0x560);
  CHECK(image.profile.bounds == gdmap::il::BoundsForm::Packed3);
  CHECK(image.machine == r2r::machine::kAmd64);
  CHECK(image.os == r2r::TargetOs::Linux);

  const MethodBody& area = methodAt(image, 0x06000002);
  CHECK(ranges(image, area) == Ranges{{0x10790, 6}});
  CHECK(area.codeSize == 6);
  CHECK(bounds(image, area) == Strings{"0:prolog", "0:0x0", "5:epilog"});

  const MethodBody& safeDivide = methodAt(image, 0x06000003);
  CHECK(ranges(image, safeDivide) == Ranges{{0x107a0, 38}, {0x107c6, 18}, {0x107d8, 14}});
  CHECK(safeDivide.codeSize == 70);
  std::vector<std::uint32_t> prologs;
  for (const std::string& b : bounds(image, safeDivide)) {
    if (contains(b, ":prolog")) prologs.push_back(static_cast<std::uint32_t>(std::stoul(b)));
  }
  CHECK(prologs == std::vector<std::uint32_t>{0, 38, 56});  // each funclet's PROLOG at its own start
  CHECK(image.summary.asyncVariants == 0);
  CHECK(image.summary.resumptionStubs == 0);
}

TEST_CASE("r2r net11: runtime async: the thunk, the async variant and its resumption stub") {
  const R2RImage image = parsed(net11Async());
  CHECK(image.majorVersion == 26);
  REQUIRE(image.methods.size() == 3);
  CHECK(image.summary.asyncVariants == 1);
  CHECK(image.summary.resumptionStubs == 1);

  // Waiter::AddLater's Task-returning body (section 103): a thunk the
  // runtime makes, a body and two funclets.
  const MethodBody& thunk = image.methods[0];
  CHECK(thunk.token == 0x06000001);
  CHECK_FALSE(thunk.instantiated);
  CHECK_FALSE(thunk.asyncVariant);
  CHECK_FALSE(thunk.resumptionStub);
  CHECK(ranges(image, thunk) == Ranges{{0x10790, 143}, {0x1081f, 23}, {0x10836, 22}});
  CHECK(thunk.codeSize == 188);

  // The async variant (section 109, flags 0x100 and nothing else): a body
  // and one funclet; the stub after them is not its code.
  const MethodBody& variant = image.methods[1];
  CHECK(variant.token == 0x06000001);
  CHECK(variant.asyncVariant);
  CHECK(variant.signatureFlags == r2r::method_sig::kAsyncVariant);
  CHECK(variant.typeArguments.empty());
  CHECK(variant.methodArguments.empty());
  CHECK(ranges(image, variant) == Ranges{{0x10850, 210}, {0x10922, 28}});
  CHECK(variant.codeSize == 238);
  CHECK(bounds(image, variant) == Strings{"0:prolog", "86:no_mapping", "111:epilog", "120:0x1", "185:epilog", "194:0x1",
                                          "210:prolog", "233:epilog"});

  // The resumption stub: listed by no entry point, found by its own
  // debug-info element, named like the variant it belongs to; its bounds
  // name the stub's own IL.
  const MethodBody& stub = image.methods[2];
  CHECK(stub.token == 0x06000001);
  CHECK(stub.resumptionStub);
  CHECK(stub.asyncVariant);
  CHECK(stub.firstRuntimeFunction == variant.firstRuntimeFunction + 2);
  CHECK(ranges(image, stub) == Ranges{{0x10940, 25}});
  CHECK(stub.codeSize == 25);
  CHECK(stub.hasDebugInfo);
  CHECK(stub.debugInfoOffset != variant.debugInfoOffset);
  CHECK(bounds(image, stub) == Strings{"0:prolog", "13:0x1e", "18:0x2a", "20:0x31", "23:epilog"});
}

TEST_CASE("r2r net11: no ceiling: a major version past the newest known is read as the newest, with a warning") {
  Bytes file = net11Sample();
  const R2RImage known = parsed(file);
  const std::uint64_t majorAt = known.headerOffset + 4;
  REQUIRE(file[majorAt] == r2r::kNewestMajorVersion);
  file[majorAt] = static_cast<std::uint8_t>(r2r::kNewestMajorVersion + 1);
  const R2RImage newer = parsed(file);
  CHECK(newer.majorVersion == r2r::kNewestMajorVersion + 1);
  CHECK(newer.readAsMajorVersion == r2r::kNewestMajorVersion);
  REQUIRE(newer.warnings.size() == 1);
  const gdmap::Error& w = newer.warnings.front();
  CHECK(w.rule == gdmap::rules::kR2rNewerVersion);
  CHECK(w.offset == majorAt);
  CHECK(contains(w.message, "version 27.1 is newer than the newest gdmap knows (26"));
  CHECK(contains(w.message, "read as 26"));
  // Read exactly as 26 is.
  REQUIRE(newer.methods.size() == known.methods.size());
  for (std::size_t i = 0; i < known.methods.size(); ++i) {
    CHECK(newer.methods[i].token == known.methods[i].token);
    CHECK(newer.methods[i].codeSize == known.methods[i].codeSize);
    CHECK(bounds(newer, newer.methods[i]) == bounds(known, known.methods[i]));
  }
  file[majorAt] = 0xFF;  // any major: no ceiling
  file[majorAt + 1] = 0x7F;
  CHECK(parsed(file).warnings.size() == 1);
}

TEST_CASE("r2r net11: a misreading the newest rules cause is a located error, not a wrong answer") {
  // A .NET Core 2.0 image (nibble bounds) labelled as a version past the
  // newest: read with packed3 rules, its first blob cannot decode.
  Bytes file = readImage("Microsoft.Win32.Primitives.dll");
  const R2RImage image = parsed(file);
  file[image.headerOffset + 4] = static_cast<std::uint8_t>(r2r::kNewestMajorVersion + 1);
  const gdmap::Error e = errorOf(file);
  CHECK(e.rule.rfind("il-", 0) == 0);
  CHECK(e.offset > image.headerOffset);
  CHECK(contains(e.message, "debugInfo[0] (method 0x06000001): bounds blob"));
}

TEST_CASE("r2r net11: two methods sharing one body are both listed with it") {
  // .NET Core 3.1's CoreLib starts two MethodDefs at one runtime function
  // (138 methods, 43 bodies); the same made here: Shapes::Area's entry
  // (native 2, runtime function 1) names Point::.ctor's runtime function 0.
  Bytes file = net11Sample();
  const R2RImage image = parsed(file);
  const MethodBody& area = methodAt(image, 0x06000002);
  REQUIRE(file[area.entryPointOffset] == 0x04);
  file[area.entryPointOffset] = 0x00;
  const R2RImage shared = parsed(file);
  const MethodBody& ctor = methodAt(shared, 0x06000001);
  const MethodBody& alias = methodAt(shared, 0x06000002);
  CHECK(alias.firstRuntimeFunction == 0);
  CHECK(ctor.sharedBody);
  CHECK(alias.sharedBody);
  CHECK(alias.codeSize == ctor.codeSize);
  CHECK(alias.runtimeFunctionCount == ctor.runtimeFunctionCount);
  CHECK(alias.debugInfoOffset == ctor.debugInfoOffset);
  CHECK(shared.summary.sharedBodies == 2);
  // Runtime function 1, now no entry's, keeps its debug info: in R2R 26 a
  // body of its own (what a resumption stub is).
  CHECK(shared.summary.resumptionStubs == 1);

  // Before 26 such an element is an error: no body could own it.
  Bytes old = readImage("Microsoft.Win32.Primitives.dll");
  const R2RImage oldImage = parsed(old);
  const MethodBody& last = methodAt(oldImage, 0x0600000b);
  REQUIRE(old[last.entryPointOffset] == 0x24);  // native 18 = runtime function 9 << 1
  old[last.entryPointOffset] = 0x00;            // runtime function 0: runtime function 9 keeps its element
  const gdmap::Error e = errorOf(old);
  CHECK(e.rule == "r2r-bad-entry-point");
  CHECK(contains(e.message, "runtime function 9 has debug info of its own but no entry point starts it"));
}

TEST_CASE("r2r net11: an image cut short is r2r-truncated at the section whose data is missing") {
  // 7,168 bytes -> 6,500: the end of .data ([0x1400, 0x1a00)) and all of
  // .reloc are gone; the R2R sections, in .text, are whole.
  const Bytes& whole = net11Sample();
  REQUIRE(whole.size() == 7168);
  const Bytes cut(whole.begin(), whole.begin() + 6500);
  const gdmap::Error e = errorOf(cut);
  CHECK(e.rule == "r2r-truncated");
  CHECK(contains(e.message,
                 "section '.data' has its raw data at [0x1400, 0x1a00), past the end of the file (6500 "
                 "bytes): the file is truncated"));
  CHECK(e.offset < 0x400);  // the section header's SizeOfRawData
}
