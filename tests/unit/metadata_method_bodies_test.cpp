// metadata::methodIlBodies and hasIntrinsicAttribute: each MethodDef's IL
// size and runtime-async flag (what il extract's IL-offset self-check
// compares bounds with), and the [Intrinsic] methods whose IL the compiler
// may replace, on real assemblies.
#include <gdmap/metadata/assembly_type_names.hpp>
#include <gdmap/metadata/method_bodies.hpp>

#include "r2r_test_images.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

using gdmap::Bytes;

TEST_CASE("method bodies: IL sizes and runtime async of the .NET 11 sample") {
  const Bytes async = r2r_test::readImage("sample/net11/Sample.Async.x64.dll");
  const auto bodies = gdmap::metadata::methodIlBodies(async);
  REQUIRE(bodies.ok());
  REQUIRE(bodies->size() == 1);  // Waiter::AddLater
  CHECK(bodies->front().runtimeAsync);
  CHECK(bodies->front().codeSize == 9u);  // the 9 bytes of IL its thunk's bounds run past
  const auto intrinsic = gdmap::metadata::hasIntrinsicAttribute(async, 1);
  REQUIRE(intrinsic.ok());
  CHECK_FALSE(*intrinsic);

  const Bytes sample = r2r_test::readImage("sample/net11/Sample.A.x64.dll");
  const auto a = gdmap::metadata::methodIlBodies(sample);
  REQUIRE(a.ok());
  REQUIRE(a->size() == 6);
  CHECK(a->at(2).codeSize == 26u);  // Shapes::SafeDivide's fat header (file 0xa48)
  CHECK_FALSE(a->at(2).runtimeAsync);
  CHECK(a->at(1).codeSize.has_value());  // Shapes::Area, a tiny header

  // Not an assembly: the PE reader's error.
  CHECK(gdmap::metadata::methodIlBodies(Bytes{'M', 'Z'}).error().rule == "r2r-not-pe");
}

TEST_CASE("method bodies: [Intrinsic] methods of Mono's corlib") {
  const std::string path = "/usr/lib/mono/4.5/mscorlib.dll";  // Debian's mono-devel (tools/install-deps.sh test)
  if (!std::filesystem::exists(path)) {
    MESSAGE("skipped: no " << path);
    return;
  }
  std::ifstream in(path, std::ios::binary);
  const Bytes corlib((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto names = gdmap::metadata::AssemblyTypeNames::open(corlib);
  const auto bodies = gdmap::metadata::methodIlBodies(corlib);
  REQUIRE(names.ok());
  REQUIRE(bodies.ok());
  std::size_t intrinsics = 0;
  bool vectorCount = false, plainConcat = false;
  for (std::uint32_t row = 1; row <= bodies->size(); ++row) {
    const auto intrinsic = gdmap::metadata::hasIntrinsicAttribute(corlib, row);
    REQUIRE(intrinsic.ok());
    intrinsics += *intrinsic;
    const std::string name = names->methodName(0x06000000u | row);
    if (name == "System.Numerics.Vector`1::get_Count") vectorCount = *intrinsic;
    if (name == "System.String::Concat" && !*intrinsic) plainConcat = true;
  }
  CHECK(vectorCount);  // [Intrinsic] in Mono's corlib
  CHECK(plainConcat);  // String.Concat is not
  CHECK(intrinsics > 10);
  CHECK(intrinsics < bodies->size() / 10);
}
