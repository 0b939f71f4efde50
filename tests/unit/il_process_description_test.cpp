// The IL description of a process's methods (`il extract --pid`, a core
// dump; docs/il-map.md "Methods of a process"): module, MethodDesc, code
// version, dynamic methods and code at absolute addresses, read, written
// back byte for byte, each error located, and part of a method's identity.
#include <gdmap/description/il_description_json.hpp>
#include <gdmap/schema/il_map.hpp>

#include <doctest/doctest.h>
#include "text_position.hpp"

#include <random>
#include <string>
#include <vector>

namespace {

using namespace gdmap;
using il::CodeKind;
using il::CodeRange;
using il::CodeVersion;
using il::IlDescriptionParse;
using il::Method;
using il::OptimizationTier;
using il::parseIlDescription;
using il::writeIlDescription;
using test::where;

// Every new key, as the writer lays it out: a tiered JIT body, a dynamic
// method and a ReadyToRun body of a process.
const char* const kProcessDescription = R"({
  "methods": [
    {
      "module": "/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.0/System.Private.CoreLib.dll",
      "token": "0x06000123",
      "codeSize": 64,
      "methodDesc": "0x7f66c1a0b2c0",
      "codeVersion": { "kind": "jit", "tier": "tier1-osr", "ilVersion": 0, "active": true },
      "name": "System.Collections.Generic.List`1::Add",
      "instantiation": { "type": ["int32"] },
      "code": [{ "address": "0x7f66c2f01a40", "size": 48 }, { "address": "0x7f66c2f01b00", "size": 16 }],
      "bounds": [
        { "native": 0, "il": "prolog" },
        { "native": 4, "il": 0, "source": ["stack_empty"] },
        { "native": 40, "il": "epilog" }
      ]
    },
    {
      "module": "/app/App.dll",
      "token": "0x06000000",
      "methodDesc": "0xffffffffffffffff",
      "dynamic": true,
      "codeVersion": { "kind": "jit", "ilVersion": 0, "active": false },
      "code": [{ "address": "0x0", "size": 12 }],
      "map": [
        { "il": 0, "nativeStart": 0, "nativeEnd": 12 }
      ]
    },
    {
      "module": "/app/App.dll",
      "token": "0x06000002",
      "codeVersion": { "kind": "r2r", "tier": "optimized", "ilVersion": 18446744073709551615, "active": true },
      "code": [{ "rva": "0x00002120", "size": 8 }],
      "bounds": [
        { "native": 0, "il": 0 }
      ]
    }
  ]
}
)";

// The one diagnostic of `p` with `rule`; fails unless exactly one has it.
Diagnostic only(const IlDescriptionParse& p, std::string_view rule) {
  std::vector<Diagnostic> found;
  for (const Diagnostic& d : p.diagnostics)
    if (d.rule == rule) found.push_back(d);
  REQUIRE_MESSAGE(found.size() == 1, "rule " << rule << ": " << found.size() << " diagnostics");
  return found.front();
}

// One method with `members` besides its token and empty bounds.
std::string oneMethod(const std::string& members) {
  return "{\"methods\": [\n  {\"token\": \"0x06000001\", \"bounds\": [],\n   " + members + "}]}";
}

// `d` is at the first `needle` of `text` (plus `extra` bytes): its line and
// column counted by hand.
void at(const Diagnostic& d, const std::string& text, const std::string& needle, std::size_t extra = 0) {
  const auto [line, column] = where(text, needle, extra);
  CHECK(d.offset == text.find(needle) + extra);
  CHECK(d.line == line);
  CHECK(d.column == column);
}

TEST_CASE("il process description: every new key is read") {
  const IlDescriptionParse p = parseIlDescription(kProcessDescription);
  REQUIRE(p.errorCount == 0);
  CHECK(p.diagnostics.empty());
  REQUIRE(p.methods);
  REQUIRE(p.methods->size() == 3);
  const Method& jit = (*p.methods)[0];
  CHECK(jit.module == "/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.0/System.Private.CoreLib.dll");
  CHECK(jit.token == 0x06000123u);
  CHECK(jit.methodDesc == 0x7f66c1a0b2c0u);
  CHECK_FALSE(jit.dynamicMethod);
  REQUIRE(jit.codeVersion);
  CHECK(*jit.codeVersion == CodeVersion{CodeKind::Jit, OptimizationTier::Tier1Osr, 0, true});
  CHECK(jit.code == std::vector<CodeRange>{{0x7f66c2f01a40u, 48, true}, {0x7f66c2f01b00u, 16, true}});
  const Method& dynamic = (*p.methods)[1];
  CHECK(dynamic.token == 0x06000000u);  // RID 0: no metadata
  CHECK(dynamic.dynamicMethod);
  CHECK(dynamic.methodDesc == 0xffffffffffffffffu);
  CHECK(*dynamic.codeVersion == CodeVersion{CodeKind::Jit, std::nullopt, 0, false});
  CHECK(dynamic.code == std::vector<CodeRange>{{0, 12, true}});
  const Method& r2r = (*p.methods)[2];
  CHECK(*r2r.codeVersion == CodeVersion{CodeKind::ReadyToRun, OptimizationTier::Optimized, ~std::uint64_t{0}, true});
  CHECK(r2r.code == std::vector<CodeRange>{{0x2120, 8, false}});
  CHECK_FALSE(r2r.methodDesc);
}

TEST_CASE("il process description: read then written gives the same bytes") {
  const IlDescriptionParse p = parseIlDescription(kProcessDescription);
  REQUIRE(p.methods);
  CHECK(writeIlDescription(*p.methods) == kProcessDescription);
}

TEST_CASE("il process description: the names of kinds and tiers, both ways") {
  CHECK(std::string(il::codeKindName(CodeKind::Jit)) == "jit");
  CHECK(std::string(il::codeKindName(CodeKind::ReadyToRun)) == "r2r");
  CHECK(il::parseCodeKind("r2r") == CodeKind::ReadyToRun);
  CHECK_FALSE(il::parseCodeKind("JIT"));
  const std::vector<std::pair<OptimizationTier, std::string>> tiers = {
      {OptimizationTier::Tier0, "tier0"},
      {OptimizationTier::Tier1, "tier1"},
      {OptimizationTier::Tier1Osr, "tier1-osr"},
      {OptimizationTier::Optimized, "optimized"},
      {OptimizationTier::Tier0Instrumented, "tier0-instrumented"},
      {OptimizationTier::Tier1Instrumented, "tier1-instrumented"},
  };
  for (const auto& [tier, name] : tiers) {
    CHECK(il::tierName(tier) == name);
    CHECK(il::parseTier(name) == tier);
  }
  CHECK_FALSE(il::parseTier("tier2"));
}

TEST_CASE("il process description: a code range has exactly one of rva and address") {
  const std::string both = oneMethod(R"("code": [{"rva": 1, "address": "0x10", "size": 1}])");
  const IlDescriptionParse p = parseIlDescription(both);
  CHECK_FALSE(p.methods);
  const Diagnostic d = only(p, "conflicting-fields");
  CHECK(d.path == "/methods/0/code/0");
  CHECK(d.message.find("exactly one of \"rva\" or \"address\"") != std::string::npos);
  at(d, both, "{\"rva\"");

  const std::string neither = oneMethod(R"("code": [{"size": 1}])");
  const Diagnostic missing = only(parseIlDescription(neither), "missing-field");
  CHECK(missing.path == "/methods/0/code/0");
  CHECK(missing.message.find("one of \"rva\" or \"address\"") != std::string::npos);
  at(missing, neither, "{\"size\"");
}

TEST_CASE("il process description: an rva fits 32 bits, an address 64") {
  const std::string wide = oneMethod(R"("code": [{"rva": "0x100000000", "size": 1}])");
  const Diagnostic rva = only(parseIlDescription(wide), "invalid-number");
  CHECK(rva.path == "/methods/0/code/0/rva");
  at(rva, wide, "\"0x100000000\"");
  const std::string decimal = oneMethod(R"("code": [{"rva": 4294967296, "size": 1}])");
  at(only(parseIlDescription(decimal), "invalid-number"), decimal, "4294967296");

  CHECK(parseIlDescription(oneMethod(R"("code": [{"address": 18446744073709551615, "size": 1}])")).errorCount == 0);
  for (const char* bad : {"\"0x10000000000000000\"", "\"0x\"", "\"7f00\"", "-1", "1.5", "18446744073709551616"}) {
    CAPTURE(bad);
    const std::string text = oneMethod(std::string(R"("code": [{"address": )") + bad + R"(, "size": 1}])");
    const Diagnostic d = only(parseIlDescription(text), "invalid-number");
    CHECK(d.path == "/methods/0/code/0/address");
    at(d, text, bad);
  }
  const std::string methodDesc = oneMethod(R"("methodDesc": "0xfffffffffffffffff")");
  const Diagnostic md = only(parseIlDescription(methodDesc), "invalid-number");
  CHECK(md.path == "/methods/0/methodDesc");
  CHECK(md.message.find("MethodDesc address") != std::string::npos);
  CHECK(md.message.find("1 to 16 hex digits") != std::string::npos);
  at(md, methodDesc, "\"0xfff");
}

TEST_CASE("il process description: a method's code ranges are all of one kind") {
  const std::string text = oneMethod(
      R"("code": [{"rva": "0x1000", "size": 4}, {"rva": "0x1010", "size": 4}, {"address": "0x7f00", "size": 4}])");
  const IlDescriptionParse p = parseIlDescription(text);
  CHECK_FALSE(p.methods);
  const Diagnostic d = only(p, "il-mixed-code-ranges");
  CHECK(d.path == "/methods/0/code/2/address");
  CHECK(d.message.find("code range 2 has an address but the method's first has an RVA") != std::string::npos);
  at(d, text, "\"0x7f00\"");
  // Each method on its own: an image's and a process's side by side.
  CHECK(parseIlDescription(R"({"methods": [
    {"token": 1, "map": [], "code": [{"rva": 16, "size": 1}]},
    {"token": 2, "map": [], "code": [{"address": 16, "size": 1}]}]})")
            .errorCount == 0);
}

TEST_CASE("il process description: a code version's kind and tier are names") {
  const std::string kind = oneMethod(R"("codeVersion": {"kind": "jitted"})");
  const Diagnostic k = only(parseIlDescription(kind), "il-unknown-code-version");
  CHECK(k.path == "/methods/0/codeVersion/kind");
  CHECK(k.message == "unknown code kind 'jitted': expected \"jit\" or \"r2r\"");
  at(k, kind, "\"jitted\"");

  const std::string tier = oneMethod(R"("codeVersion": {"kind": "jit", "tier": "tier2"})");
  const Diagnostic t = only(parseIlDescription(tier), "il-unknown-code-version");
  CHECK(t.path == "/methods/0/codeVersion/tier");
  CHECK(t.message.find("\"tier1-osr\"") != std::string::npos);
  at(t, tier, "\"tier2\"");

  const std::string noKind = oneMethod(R"("codeVersion": {"tier": "tier0", "active": true})");
  const Diagnostic m = only(parseIlDescription(noKind), "missing-field");
  CHECK(m.path == "/methods/0/codeVersion");
  CHECK(m.message == "a code version needs a \"kind\"");
  at(m, noKind, "{\"tier\"");

  const std::string unknown = oneMethod(R"("codeVersion": {"kind": "jit", "rejit": 1})");
  const Diagnostic u = only(parseIlDescription(unknown), "unknown-key");
  CHECK(u.path == "/methods/0/codeVersion/rejit");
  CHECK(u.message.find("in a code version (expected \"kind\", \"tier\", \"ilVersion\" or \"active\")") !=
        std::string::npos);
}

TEST_CASE("il process description: wrong JSON types are located") {
  const std::string text = oneMethod(
      R"("module": 7, "dynamic": "yes", "codeVersion": {"kind": "jit", "active": 1, "ilVersion": true}, "methodDesc": [])");
  const IlDescriptionParse p = parseIlDescription(text);
  std::vector<std::string> paths;
  for (const Diagnostic& d : p.diagnostics)
    if (d.rule == "wrong-type") paths.push_back(d.path);
  CHECK(paths == std::vector<std::string>{"/methods/0/module", "/methods/0/dynamic", "/methods/0/codeVersion/active",
                                          "/methods/0/codeVersion/ilVersion", "/methods/0/methodDesc"});
  const Diagnostic version = only(parseIlDescription(oneMethod(R"("codeVersion": "tier1")")), "wrong-type");
  CHECK(version.message.find("an object with \"kind\" and optionally \"tier\", \"ilVersion\", \"active\"") !=
        std::string::npos);
}

TEST_CASE("il process description: module, MethodDesc, code version and first code range are the identity") {
  const auto twice = [](const std::string& a, const std::string& b) {
    return parseIlDescription("{\"methods\": [\n{\"token\": \"0x06000001\", \"map\": [], " + a +
                              "},\n{\"token\": \"0x06000001\", \"map\": [], " + b + "}]}");
  };
  const std::string jit =
      R"("module": "/a.dll", "methodDesc": "0x10", "codeVersion": {"kind": "jit", "tier": "tier0"})";
  const std::string code = R"("code": [{"address": "0x7f00", "size": 4}])";
  const IlDescriptionParse same = twice(jit + ", " + code, jit + ", " + code);
  const Diagnostic d = only(same, "il-duplicate-token");
  CHECK(d.path == "/methods/1/token");
  CHECK(d.line == 3);
  CHECK(d.message.find("same module, component, MethodDesc, instantiation, code version and first code range") !=
        std::string::npos);
  // Any one of them differing makes another method.
  CHECK(twice(jit, R"("module": "/b.dll", "methodDesc": "0x10", "codeVersion": {"kind": "jit", "tier": "tier0"})")
            .errorCount == 0);
  CHECK(twice(jit, R"("module": "/a.dll", "methodDesc": "0x20", "codeVersion": {"kind": "jit", "tier": "tier0"})")
            .errorCount == 0);
  CHECK(twice(jit, R"("module": "/a.dll", "methodDesc": "0x10", "codeVersion": {"kind": "jit", "tier": "tier1"})")
            .errorCount == 0);
  CHECK(twice(jit, R"("module": "/a.dll", "methodDesc": "0x10", "codeVersion": {"kind": "jit", "tier": "tier0",
                       "ilVersion": 1})")
            .errorCount == 0);
  CHECK(twice(jit + ", " + code, jit + R"(, "code": [{"address": "0x8f00", "size": 4}])").errorCount == 0);
  // The code after the first range, the name and `dynamic` are not.
  CHECK(twice(jit + ", " + code,
              jit + ", " + R"("code": [{"address": "0x7f00", "size": 4}, {"address": "0x1", "size": 1}])")
            .errorCount == 1);
  CHECK(twice(R"("dynamic": true)", R"("name": "x")").errorCount == 1);
}

TEST_CASE("il process description: a dynamic method has token RID 0") {
  const IlDescriptionParse p =
      parseIlDescription(R"({"methods": [{"token": "0x06000000", "dynamic": true, "map": []}]})");
  REQUIRE(p.methods);
  CHECK(p.methods->front().dynamicMethod);
  CHECK(p.methods->front().token == 0x06000000u);
}

Method randomProcessMethod(std::mt19937& rawRng, std::uint32_t token) {
  const auto rng = [&] { return static_cast<std::uint32_t>(rawRng()); };
  Method m;
  m.token = token;
  const auto wide = [&] { return std::uint64_t{rng()} << 32 | rng(); };
  if (rng() % 2 == 0) m.module = "/app/m" + std::to_string(rng() % 100) + ".dll";
  if (rng() % 2 == 0) m.methodDesc = wide();
  m.dynamicMethod = rng() % 5 == 0;
  if (rng() % 3 != 0) {
    CodeVersion v;
    v.kind = rng() % 2 == 0 ? CodeKind::Jit : CodeKind::ReadyToRun;
    if (rng() % 3 != 0) v.tier = static_cast<OptimizationTier>(rng() % 6);
    v.ilVersion = rng() % 3 == 0 ? wide() : 0;
    v.active = rng() % 2 == 0;
    m.codeVersion = v;
  }
  if (rng() % 4 != 0) m.codeSize = rng();
  const bool absolute = rng() % 2 == 0;
  for (std::size_t i = rng() % 4; i > 0; --i)
    m.code.push_back({absolute ? wide() : std::uint64_t{rng()}, static_cast<std::uint32_t>(rng()), absolute});
  if (rng() % 3 == 0) m.instantiation = il::Instantiation{{"int32"}, {}, false};
  m.verbatimMap = rng() % 3 == 0;
  std::uint32_t native = 0;
  for (std::size_t i = rng() % 6; i > 0; --i) {
    native += rng() % 40;
    if (m.verbatimMap) m.map.push_back({rng() % 100, native, native + 1});
    else m.bounds.push_back({native, rng() % 100, 0});
  }
  return m;
}

TEST_CASE("il process description: write then parse gives the same methods (seeded random)") {
  std::mt19937 rng(20260401);
  for (int round = 0; round < 300; ++round) {
    std::vector<Method> methods;
    for (std::size_t i = rng() % 5; i > 0; --i)
      methods.push_back(randomProcessMethod(rng, 0x06000000 + static_cast<std::uint32_t>(rng() % 4)));
    const std::string text = writeIlDescription(methods);
    const IlDescriptionParse p = parseIlDescription(text);
    // Random identities may repeat: then the repeat is the one error.
    bool repeated = false;
    for (const Diagnostic& d : p.diagnostics) repeated |= d.rule == "il-duplicate-token";
    if (repeated) continue;
    REQUIRE_MESSAGE(p.errorCount == 0, text);
    REQUIRE(p.methods);
    CHECK(*p.methods == methods);
    CHECK(writeIlDescription(*p.methods) == text);
  }
}

}  // namespace
