// metadata::MethodSignatures: a method's name as SOS prints it (the
// runtime's TypeString::AppendMethodInternal with FormatNamespace |
// FormatSignature | FormatFullInst), on the in-tree samples, the ReadyToRun
// reader's instantiations of them, and Mono's corlib when it is installed.
// The expected texts are SOS's own (dotnet-dump `dumpmd`) for the same
// shapes: docs/r2r.md says how they were compared.
#include <gdmap/metadata/assembly_type_names.hpp>
#include <gdmap/metadata/method_signature.hpp>
#include <gdmap/reader/r2r_image.hpp>

#include "r2r_test_images.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

using gdmap::Bytes;
using gdmap::il::Instantiation;
using gdmap::metadata::MethodSignatures;

namespace {

MethodSignatures signaturesOf(const Bytes& file) {
  auto signatures = MethodSignatures::open(file);
  REQUIRE_MESSAGE(signatures.ok(), signatures.error().message);
  return std::move(signatures).value();
}

Instantiation instantiation(std::vector<std::string> type, std::vector<std::string> method) {
  Instantiation inst;
  inst.typeArguments = std::move(type);
  inst.methodArguments = std::move(method);
  return inst;
}

}  // namespace

TEST_CASE("method signatures: the sample's methods, as SOS names them") {
  const Bytes file = r2r_test::readImage("sample/Sample.A.x64.dll");
  const MethodSignatures sigs = signaturesOf(file);
  CHECK(sigs.assemblyName() == "Sample.A");
  CHECK(sigs.coreLibraryName() == "System.Private.CoreLib");
  CHECK(sigs.methodCount() == 6);
  CHECK(sigs.signatureOf(0x06000001) == "Sample.A.Point..ctor(Int32, Int32)");
  CHECK(sigs.signatureOf(0x06000002) == "Sample.A.Shapes.Area(Int32, Int32)");
  // A generic method definition: its parameter as `!!0`, no instantiation.
  CHECK(sigs.signatureOf(0x06000004) == "Sample.A.Shapes.Max(System.Collections.Generic.List`1<!!0>)");
  CHECK(sigs.signatureOf(0x06000005) == "Sample.A.Shapes.Sum(Sample.A.Point[])");
  CHECK(sigs.signatureOf(0x06000006) == "Sample.A.Shapes.Use()");

  // An instantiation: the method's arguments after its name, each with its
  // assembly, and its parameters as the arguments.
  const Instantiation shared = instantiation({}, {"__Canon"});
  CHECK(sigs.signatureOf(0x06000004, &shared) ==
        "Sample.A.Shapes.Max[[System.__Canon, "
        "System.Private.CoreLib]](System.Collections.Generic.List`1<System.__Canon>)");
  const Instantiation exact = instantiation({}, {"int32"});
  CHECK(sigs.signatureOf(0x06000004, &exact) ==
        "Sample.A.Shapes.Max[[System.Int32, System.Private.CoreLib]](System.Collections.Generic.List`1<Int32>)");
  // This assembly's types, by name (--names) or by token.
  const Instantiation named = instantiation({}, {"valuetype Sample.A.Point"});
  CHECK(sigs.signatureOf(0x06000004, &named) ==
        "Sample.A.Shapes.Max[[Sample.A.Point, Sample.A]](System.Collections.Generic.List`1<Sample.A.Point>)");
  const Instantiation byToken = instantiation({}, {"valuetype 0x02000002[]"});
  CHECK(sigs.signatureOf(0x06000004, &byToken) ==
        "Sample.A.Shapes.Max[[Sample.A.Point[], Sample.A]](System.Collections.Generic.List`1<Sample.A.Point[]>)");
  // Another assembly's types, named as the process reader names them.
  const Instantiation other =
      instantiation({}, {"class [System.Private.CoreLib]System.Collections.Generic.List`1<valuetype "
                         "[System.Private.CoreLib]System.Collections.Generic.KeyValuePair`2<int32, __Canon>>"});
  CHECK(sigs.signatureOf(0x06000004, &other) ==
        "Sample.A.Shapes.Max[[System.Collections.Generic.List`1[[System.Collections.Generic.KeyValuePair`2[[System."
        "Int32, System.Private.CoreLib],[System.__Canon, System.Private.CoreLib]], System.Private.CoreLib]], "
        "System.Private.CoreLib]](System.Collections.Generic.List`1<System.Collections.Generic.List`1<System."
        "Collections.Generic.KeyValuePair`2<Int32,System.__Canon>>>)");
}

TEST_CASE("method signatures: what cannot be named gives no text") {
  const Bytes file = r2r_test::readImage("sample/Sample.A.x64.dll");
  const MethodSignatures sigs = signaturesOf(file);
  CHECK(sigs.signatureOf(0x06000000).empty());  // row 0
  CHECK(sigs.signatureOf(0x06000007).empty());  // past the table
  CHECK(sigs.signatureOf(0x02000002).empty());  // a TypeDef
  // Another module's token ([module N]), or text that is no type.
  const Instantiation otherModule = instantiation({}, {"[module 2] valuetype 0x02000004"});
  CHECK(sigs.signatureOf(0x06000004, &otherModule).empty());
  const Instantiation garbage = instantiation({}, {"int32<"});
  CHECK(sigs.signatureOf(0x06000004, &garbage).empty());
  // Not an assembly: the PE reader's error.
  CHECK(MethodSignatures::open(Bytes{'M', 'Z'}).error().rule == "r2r-not-pe");
}

TEST_CASE("method signatures: a generic type's methods and the ReadyToRun reader's instantiations") {
  const Bytes component = r2r_test::readImage("sample/composite/Sample.B.dll");
  const MethodSignatures sigs = signaturesOf(component);
  CHECK(sigs.signatureOf(0x06000001) == "Sample.B.Greeter`1..ctor(!0)");
  const Instantiation exact = instantiation({"int32"}, {});
  CHECK(sigs.signatureOf(0x06000001, &exact) ==
        "Sample.B.Greeter`1[[System.Int32, System.Private.CoreLib]]..ctor(Int32)");

  // Each instantiated body of the composite image, with the instantiation
  // the reader gives it: the component's own metadata names it.
  const Bytes composite = r2r_test::readImage("sample/composite/Sample.r2r.dll");
  const gdmap::r2r::R2RImage image = r2r_test::parsed(composite);
  std::set<std::string> greeters;
  for (const gdmap::r2r::MethodBody& body : image.methods) {
    if (!body.instantiated || body.component != 1) continue;
    Instantiation inst = instantiation(body.typeArguments, body.methodArguments);
    greeters.insert(sigs.signatureOf(body.token, &inst));
  }
  CHECK(greeters == std::set<std::string>{
                        "Sample.B.Greeter`1[[System.Int32, System.Private.CoreLib]]..ctor(Int32)",
                        "Sample.B.Greeter`1[[System.Int32, System.Private.CoreLib]].Greet(System.String)",
                        "Sample.B.Greeter`1[[System.__Canon, System.Private.CoreLib]]..ctor(System.__Canon)",
                        "Sample.B.Greeter`1[[System.__Canon, System.Private.CoreLib]].Greet(System.String)",
                    });
}

TEST_CASE("method signatures: every method of Mono's corlib, overloads told apart") {
  const std::string path = "/usr/lib/mono/4.5/mscorlib.dll";  // Debian's mono-devel (tools/install-deps.sh test)
  if (!std::filesystem::exists(path)) {
    MESSAGE("skipped: no " << path);
    return;
  }
  std::ifstream in(path, std::ios::binary);
  const Bytes corlib((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const MethodSignatures sigs = signaturesOf(corlib);
  const auto names = gdmap::metadata::AssemblyTypeNames::open(corlib);
  REQUIRE(names.ok());
  CHECK(sigs.assemblyName() == "mscorlib");
  CHECK(sigs.coreLibraryName() == "mscorlib");
  std::set<std::string> concat;
  std::size_t concats = 0, unnamed = 0;
  for (std::uint32_t row = 1; row <= sigs.methodCount(); ++row) {
    const std::string signature = sigs.signatureOf(0x06000000u | row);
    unnamed += signature.empty();
    if (names->methodName(0x06000000u | row) != "System.String::Concat") continue;
    ++concats;
    concat.insert(signature);
  }
  CHECK(unnamed == 0);
  CHECK(concats > 8);
  CHECK(concat.size() == concats);  // one text per overload
  CHECK(concat.count("System.String.Concat(System.String, System.String)") == 1);
  CHECK(concat.count("System.String.Concat(System.Object[])") == 1);
}
