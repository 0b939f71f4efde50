// The IL-to-native description (FORMAT.md §3.4): parsing the format's
// example, every rule with its pointer and position, the write -> parse
// round trip on random methods, and the fixed layout of the writer.
#include <gdmap/description/description_json.hpp>
#include <gdmap/description/il_description_json.hpp>
#include <gdmap/schema/il_map.hpp>

#include <doctest/doctest.h>
#include "text_position.hpp"

#include <random>
#include <string>
#include <vector>

namespace {

using namespace gdmap;
using il::ApiEntry;
using il::Bound;
using il::IlDescriptionParse;
using il::Method;
using il::parseIlDescription;
using il::writeIlDescription;
namespace source = il::source;

// FORMAT.md §3.4, verbatim.
const char* const kFormatExample = R"({ "methods": [
  { "token": "0x06000001", "codeSize": 40,
    "bounds": [ { "native": 0,  "il": "prolog", "source": ["stack_empty"] },
                { "native": 4,  "il": 0,        "source": ["stack_empty"] },
                { "native": 10, "il": "0x5" },
                { "native": 12, "il": 5,        "source": ["call_instruction"] },
                { "native": 17, "il": 9,        "source": ["stack_empty"] },
                { "native": 30, "il": "epilog" } ] },
  { "token": "0x06000002",
    "map": [ { "il": 0, "nativeStart": 0, "nativeEnd": 8 } ] } ] })";

using test::where;

// The one diagnostic of `text` with `rule`; fails unless exactly one has it.
Diagnostic only(const IlDescriptionParse& p, std::string_view rule) {
  std::vector<Diagnostic> found;
  for (const Diagnostic& d : p.diagnostics)
    if (d.rule == rule) found.push_back(d);
  REQUIRE_MESSAGE(found.size() == 1, "rule " << rule << ": " << found.size() << " diagnostics");
  return found.front();
}

// A description of one method whose bounds are `bounds` (JSON text).
std::string oneMethod(const std::string& members) {
  return "{\"methods\": [{\"token\": \"0x06000001\", " + members + "}]}";
}

TEST_CASE("il description: parses the example of the format") {
  const IlDescriptionParse p = parseIlDescription(kFormatExample);
  REQUIRE(p.errorCount == 0);
  CHECK(p.warningCount == 0);
  CHECK(p.diagnostics.empty());
  REQUIRE(p.methods);
  REQUIRE(p.methods->size() == 2);
  const Method& first = (*p.methods)[0];
  CHECK(first.token == 0x06000001u);
  CHECK(first.codeSize == 40u);
  CHECK_FALSE(first.verbatimMap);
  const std::vector<Bound> expected = {
      {0, il::kProlog, source::kStackEmpty}, {4, 0, source::kStackEmpty},  {10, 5, 0},
      {12, 5, source::kCallInstruction},     {17, 9, source::kStackEmpty}, {30, il::kEpilog, 0},
  };
  CHECK(first.bounds == expected);
  const Method& second = (*p.methods)[1];
  CHECK(second.token == 0x06000002u);
  CHECK_FALSE(second.codeSize);
  CHECK(second.verbatimMap);
  CHECK(second.map == std::vector<ApiEntry>{{0, 0, 8}});
}

TEST_CASE("il description: numbers, IL names, flags by name and by value") {
  const IlDescriptionParse p = parseIlDescription(oneMethod(R"("codeSize": "0XfF", "bounds": [
    {"native": 4294967295, "il": "no_mapping", "source": ["sequence_point", "call_site", "native_end_offset_unknown", "async", "0x40"]},
    {"native": "0xffffffff", "il": 4294967293}])"));
  REQUIRE(p.errorCount == 0);
  REQUIRE(p.methods);
  const Method& m = p.methods->front();
  CHECK(m.codeSize == 255u);
  REQUIRE(m.bounds.size() == 2);
  CHECK(m.bounds[0] == Bound{0xFFFFFFFF, il::kNoMapping, 0x01 | 0x04 | 0x08 | 0x20 | 0x40});
  CHECK(m.bounds[1] == Bound{0xFFFFFFFF, il::kEpilog, 0});
}

TEST_CASE("il description: empty arrays are valid") {
  const IlDescriptionParse none = parseIlDescription(R"({"$schema": "x", "methods": []})");
  REQUIRE(none.methods);
  CHECK(none.methods->empty());
  const IlDescriptionParse empty = parseIlDescription(oneMethod(R"("bounds": [])"));
  REQUIRE(empty.methods);
  CHECK(empty.methods->front().bounds.empty());
  CHECK_FALSE(empty.methods->front().verbatimMap);
  const IlDescriptionParse emptyMap = parseIlDescription(oneMethod(R"("map": [])"));
  REQUIRE(emptyMap.methods);
  CHECK(emptyMap.methods->front().verbatimMap);
}

TEST_CASE("il description: invalid JSON is one located error") {
  const std::string text = "{\"methods\": [\n  {\"token\": 1,,}]}";
  const IlDescriptionParse p = parseIlDescription(text);
  CHECK_FALSE(p.methods);
  CHECK(p.errorCount == 1);
  const Diagnostic d = only(p, "invalid-json");
  CHECK(d.line == 2);
  CHECK(d.column == where(text, ",,", 1).second);
}

TEST_CASE("il description: unknown and repeated keys") {
  const std::string text = oneMethod(R"("bounds": [{"native": 0, "il": 0, "nativ": 1, "il": 2}], "Map": 3)");
  const IlDescriptionParse p = parseIlDescription(text);
  CHECK_FALSE(p.methods);
  CHECK(p.errorCount == 3);
  const Diagnostic unknown =
      parseIlDescription(oneMethod(R"("bounds": [{"native": 0, "il": 0, "nativ": 1}])")).diagnostics.front();
  CHECK(unknown.rule == "unknown-key");
  CHECK(unknown.path == "/methods/0/bounds/0/nativ");
  const Diagnostic repeated = only(p, "duplicate-key");
  CHECK(repeated.path == "/methods/0/bounds/0/il");
  // The second "il", not the first.
  CHECK(repeated.offset == text.find("\"il\": 2") + 6);
  bool sawMap = false;
  for (const Diagnostic& d : p.diagnostics) sawMap |= d.path == "/methods/0/Map";
  CHECK(sawMap);
}

TEST_CASE("il description: wrong JSON types") {
  const std::string text = R"({"methods": [{"token": true, "bounds": {"native": 0}},
    {"token": 1, "map": [{"il": null, "nativeStart": [], "nativeEnd": 1}]}, 7]})";
  const IlDescriptionParse p = parseIlDescription(text);
  CHECK_FALSE(p.methods);
  std::vector<std::string> paths;
  for (const Diagnostic& d : p.diagnostics)
    if (d.rule == "wrong-type") paths.push_back(d.path);
  CHECK(paths == std::vector<std::string>{"/methods/0/token", "/methods/0/bounds", "/methods/1/map/0/il",
                                          "/methods/1/map/0/nativeStart", "/methods/2"});
  CHECK(parseIlDescription("[]").diagnostics.front().rule == "wrong-type");
  CHECK(parseIlDescription(oneMethod(R"("bounds": [{"native": 0, "il": 0, "source": "stack_empty"}])"))
            .diagnostics.front()
            .path == "/methods/0/bounds/0/source");
}

TEST_CASE("il description: missing and conflicting fields") {
  CHECK(only(parseIlDescription("{}"), "missing-field").path == "");
  const IlDescriptionParse noToken = parseIlDescription(R"({"methods": [{"bounds": []}]})");
  CHECK(only(noToken, "missing-field").path == "/methods/0");
  CHECK(only(noToken, "missing-field").message.find("token") != std::string::npos);
  CHECK(only(parseIlDescription(oneMethod(R"("codeSize": 4)")), "missing-field").message.find("bounds") !=
        std::string::npos);
  const Diagnostic both = only(parseIlDescription(oneMethod(R"("bounds": [], "map": [])")), "conflicting-fields");
  CHECK(both.path == "/methods/0");
  const IlDescriptionParse bound = parseIlDescription(oneMethod(R"("bounds": [{"source": []}])"));
  CHECK(bound.errorCount == 2);
  for (const Diagnostic& d : bound.diagnostics) CHECK(d.path == "/methods/0/bounds/0");
  const IlDescriptionParse entry = parseIlDescription(oneMethod(R"("map": [{}])"));
  CHECK(entry.errorCount == 3);
}

TEST_CASE("il description: numbers outside u32 and malformed strings are invalid-number") {
  for (const char* bad : {"-1", "4294967296", "1.5", "1e3", "184467440737095516160", "\"5\"", "\"0x\"",
                          "\"0x123456789\"", "\"0x5g\"", "\" 0x5\""}) {
    CAPTURE(bad);
    const std::string text = oneMethod(std::string(R"("bounds": [{"native": )") + bad + R"(, "il": 0}])");
    const IlDescriptionParse p = parseIlDescription(text);
    CHECK_FALSE(p.methods);
    const Diagnostic d = only(p, "invalid-number");
    CHECK(d.path == "/methods/0/bounds/0/native");
    CHECK(d.offset == text.find(bad));
  }
  CHECK(only(parseIlDescription(oneMethod(R"("bounds": [{"native": 0, "il": "prologue"}])")), "invalid-number")
            .message.find("prolog") != std::string::npos);
  CHECK(only(parseIlDescription(R"({"methods": [{"token": -6, "map": []}]})"), "invalid-number").path ==
        "/methods/0/token");
  // IL names are IL offsets only.
  CHECK(only(parseIlDescription(oneMethod(R"("bounds": [{"native": "epilog", "il": 0}])")), "invalid-number").path ==
        "/methods/0/bounds/0/native");
}

TEST_CASE("il description: source flags") {
  const std::string text = oneMethod(R"("bounds": [{"native": 0, "il": 0, "source": ["stack_empty", "stackempty"]}])");
  const IlDescriptionParse p = parseIlDescription(text);
  const Diagnostic unknown = only(p, "il-unknown-source-flag");
  CHECK(unknown.path == "/methods/0/bounds/0/source/1");
  CHECK(unknown.offset == text.find("\"stackempty\""));

  const IlDescriptionParse repeated =
      parseIlDescription(oneMethod(R"("bounds": [{"native": 0, "il": 0, "source": ["async", "0x20"]}])"));
  CHECK(repeated.errorCount == 0);
  CHECK(repeated.warningCount == 1);
  const Diagnostic w = only(repeated, "il-repeated-source-flag");
  CHECK(w.severity == Severity::Warning);
  CHECK(w.path == "/methods/0/bounds/0/source/1");
  REQUIRE(repeated.methods);
  CHECK(repeated.methods->front().bounds.front().source == source::kAsync);
}

TEST_CASE("il description: bounds ascend by native offset") {
  const std::string text = oneMethod(R"("bounds": [
    {"native": 4, "il": 0}, {"native": 4, "il": 1}, {"native": 3, "il": 2}, {"native": 9, "il": 3}])");
  const IlDescriptionParse p = parseIlDescription(text);
  CHECK_FALSE(p.methods);
  const Diagnostic d = only(p, "il-bounds-not-ascending");
  CHECK(d.path == "/methods/0/bounds/2/native");
  const auto [line, column] = where(text, "\"native\": 3", 10);
  CHECK(d.line == line);
  CHECK(d.column == column);
  CHECK(d.message.find("below the previous") != std::string::npos);
  // Each method starts afresh.
  CHECK(parseIlDescription(R"({"methods": [{"token": 1, "bounds": [{"native": 9, "il": 0}]},
                                           {"token": 2, "bounds": [{"native": 0, "il": 0}]}]})")
            .errorCount == 0);
}

TEST_CASE("il description: tokens are unique, every repeat named at its own token") {
  const std::string text = R"({"methods": [
    {"token": "0x06000001", "map": []}, {"token": 100663298, "map": []},
    {"token": 100663297, "map": []}, {"token": "0x06000001", "map": []}]})";
  const IlDescriptionParse p = parseIlDescription(text);
  CHECK_FALSE(p.methods);
  CHECK(p.errorCount == 2);
  std::vector<std::string> paths;
  for (const Diagnostic& d : p.diagnostics) {
    CHECK(d.rule == "il-duplicate-token");
    CHECK(d.message.find("/methods/0") != std::string::npos);
    CHECK(d.message.find("0x06000001") != std::string::npos);
    paths.push_back(d.path);
  }
  CHECK(paths == std::vector<std::string>{"/methods/2/token", "/methods/3/token"});
  CHECK(p.diagnostics[0].line == 3);
}

TEST_CASE("il description: a code size below the last bound is a warning at codeSize") {
  const std::string text = oneMethod(R"("codeSize": 20, "bounds": [{"native": 0, "il": 0}, {"native": 30, "il": 1}])");
  const IlDescriptionParse p = parseIlDescription(text);
  CHECK(p.errorCount == 0);
  REQUIRE(p.methods);
  const Diagnostic d = only(p, "il-code-size-below-bound");
  CHECK(d.severity == Severity::Warning);
  CHECK(d.path == "/methods/0/codeSize");
  CHECK(d.offset == text.find("20"));
  CHECK(parseIlDescription(oneMethod(R"("codeSize": 30, "bounds": [{"native": 30, "il": 1}])")).warningCount == 0);
}

TEST_CASE("il description: every error is counted, a hundred listed") {
  std::string text = R"({"methods": [{"token": 1, "bounds": [)";
  const std::size_t n = 50000;
  for (std::size_t i = 0; i < n; ++i) text += i == 0 ? R"({"native": -1, "il": 0})" : R"(, {"native": -1, "il": 0})";
  text += "]}]}";
  const IlDescriptionParse p = parseIlDescription(text);
  CHECK(p.errorCount == n);
  REQUIRE(p.diagnostics.size() == 101);
  CHECK(p.diagnostics.back().rule == "too-many-diagnostics");
  CHECK(p.diagnostics[99].path == "/methods/0/bounds/99/native");
}

Method randomMethod(std::mt19937& rng, std::uint32_t token) {
  Method m;
  m.token = token;
  if (rng() % 3 != 0) m.codeSize = static_cast<std::uint32_t>(rng());
  const std::size_t n = rng() % 12;
  const std::uint32_t specials[] = {il::kProlog, il::kEpilog, il::kNoMapping};
  const auto ilOffset = [&]() -> std::uint32_t {
    return rng() % 4 == 0 ? specials[rng() % 3] : static_cast<std::uint32_t>(rng() % 3 == 0 ? rng() : rng() % 500);
  };
  m.verbatimMap = rng() % 4 == 0;
  std::uint32_t native = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (m.verbatimMap) {
      m.map.push_back({ilOffset(), static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng())});
    } else {
      native += static_cast<std::uint32_t>(rng() % 40);
      m.bounds.push_back({native, ilOffset(), static_cast<std::uint32_t>(rng() % 2 == 0 ? rng() % 0x40 : rng())});
    }
  }
  return m;
}

TEST_CASE("il description: write then parse gives the same methods (seeded random)") {
  std::mt19937 rng(20261123);
  for (int round = 0; round < 200; ++round) {
    std::vector<Method> methods;
    const std::size_t count = rng() % 5;
    for (std::size_t i = 0; i < count; ++i)
      methods.push_back(randomMethod(rng, 0x06000001 + static_cast<std::uint32_t>(i)));
    const std::string text = writeIlDescription(methods);
    const IlDescriptionParse p = parseIlDescription(text);
    REQUIRE_MESSAGE(p.errorCount == 0, text);
    // A code size below the last bound is only a warning, and survives.
    REQUIRE(p.methods);
    CHECK(*p.methods == methods);
    CHECK(writeIlDescription(*p.methods) == text);
  }
}

TEST_CASE("il description: writes the fixed layout") {
  const IlDescriptionParse p = parseIlDescription(kFormatExample);
  REQUIRE(p.methods);
  CHECK(writeIlDescription(*p.methods) == R"({
  "methods": [
    {
      "token": "0x06000001",
      "codeSize": 40,
      "bounds": [
        { "native": 0, "il": "prolog", "source": ["stack_empty"] },
        { "native": 4, "il": 0, "source": ["stack_empty"] },
        { "native": 10, "il": 5 },
        { "native": 12, "il": 5, "source": ["call_instruction"] },
        { "native": 17, "il": 9, "source": ["stack_empty"] },
        { "native": 30, "il": "epilog" }
      ]
    },
    {
      "token": "0x06000002",
      "map": [
        { "il": 0, "nativeStart": 0, "nativeEnd": 8 }
      ]
    }
  ]
}
)");
  CHECK(writeIlDescription({}) == "{\n  \"methods\": []\n}\n");
}

}  // namespace

namespace {

TEST_CASE("il description: a syntax error at the end of the text is located at the end, never past it") {
  // Found by fuzz_il_description: a `//` comment that runs to the end of
  // the text made nlohmann count a character past it.
  for (const std::string text : {"///////]}", "{\"methods\": []} //", "{\"methods\": [] /* x"}) {
    CAPTURE(text);
    const gdmap::il::IlDescriptionParse p = gdmap::il::parseIlDescription(text);
    const gdmap::DescriptionParse d = gdmap::parseDescription(text);
    for (const gdmap::Diagnostic& diagnostic : p.diagnostics) CHECK(diagnostic.offset <= text.size());
    for (const gdmap::Diagnostic& diagnostic : d.diagnostics) CHECK(diagnostic.offset <= text.size());
  }
}

}  // namespace

namespace {

using gdmap::Diagnostic;
using gdmap::il::IlDescriptionParse;
using gdmap::il::Instantiation;
using gdmap::il::Method;
using gdmap::il::parseIlDescription;
using gdmap::il::writeIlDescription;

TEST_CASE("il description: an instantiation is read, written back and round-trips") {
  const std::string text = R"({"methods": [
    {"token": "0x06000005", "codeSize": 12, "instantiation": {"type": ["int32", "__Canon"],
     "method": ["class 0x02000004<!0>", "[module 1] valuetype 0x02000009"]}, "bounds": [{"native": 0, "il": 0}]},
    {"token": "0x06000005", "codeSize": 12, "instantiation": {"type": ["int32", "__Canon"],
     "method": ["class 0x02000004<!0>", "[module 1] valuetype 0x02000009"], "unboxingStub": true},
     "bounds": [{"native": 0, "il": 0}]},
    {"token": "0x06000005", "instantiation": {}, "map": []},
    {"token": "0x06000005", "map": []}]})";
  const IlDescriptionParse p = parseIlDescription(text);
  REQUIRE_MESSAGE(p.errorCount == 0, (p.diagnostics.empty() ? "" : p.diagnostics[0].message));
  REQUIRE(p.methods);
  REQUIRE(p.methods->size() == 4);
  const Method& first = (*p.methods)[0];
  REQUIRE(first.instantiation);
  CHECK(first.instantiation->typeArguments == std::vector<std::string>{"int32", "__Canon"});
  CHECK(first.instantiation->methodArguments ==
        std::vector<std::string>{"class 0x02000004<!0>", "[module 1] valuetype 0x02000009"});
  CHECK_FALSE(first.instantiation->unboxingStub);
  CHECK((*p.methods)[1].instantiation->unboxingStub);
  CHECK((*p.methods)[2].instantiation == Instantiation{});
  CHECK_FALSE((*p.methods)[3].instantiation);
  const std::string written = writeIlDescription(*p.methods);
  CHECK(written.find(R"("instantiation": { "type": ["int32", "__Canon"], "method": ["class 0x02000004<!0>", )"
                     R"("[module 1] valuetype 0x02000009"] },)") != std::string::npos);
  CHECK(written.find(R"("unboxingStub": true })") != std::string::npos);
  CHECK(written.find(R"("instantiation": {},)") != std::string::npos);
  const IlDescriptionParse back = parseIlDescription(written);
  REQUIRE(back.methods);
  CHECK(*back.methods == *p.methods);
  CHECK(writeIlDescription(*back.methods) == written);
}

TEST_CASE("il description: without an instantiation the written text is unchanged") {
  Method m;
  m.token = 0x06000001;
  m.codeSize = 4;
  m.bounds.push_back({0, 0, 0});
  CHECK(writeIlDescription(std::vector<Method>{m}) == R"({
  "methods": [
    {
      "token": "0x06000001",
      "codeSize": 4,
      "bounds": [
        { "native": 0, "il": 0 }
      ]
    }
  ]
}
)");
}

TEST_CASE("il description: instantiation arguments are type text, located at their character") {
  const std::string text =
      R"({"methods": [{"token": 1, "instantiation": {"type": ["int32", "class 0x0200000G"], "method": [7],)"
      R"( "unboxingStub": 1, "owner": "x"}, "map": []}]})";
  const IlDescriptionParse p = parseIlDescription(text);
  CHECK_FALSE(p.methods);
  std::vector<std::string> rules;
  for (const Diagnostic& d : p.diagnostics) rules.push_back(d.rule + " " + d.path);
  CHECK(rules == std::vector<std::string>{
                     "type-text-syntax /methods/0/instantiation/type/1", "wrong-type /methods/0/instantiation/method/0",
                     "wrong-type /methods/0/instantiation/unboxingStub", "unknown-key /methods/0/instantiation/owner"});
  // The column points at the character the parser stopped at, inside the string.
  CHECK(p.diagnostics[0].offset >= text.find("class 0x0200000G"));
  CHECK(p.diagnostics[0].offset < text.find("class 0x0200000G") + 16);
  // The extensions are checked as what they stand for: `[module 1]` needs a type after it.
  const IlDescriptionParse q =
      parseIlDescription(R"({"methods": [{"token": 1, "instantiation": {"type": ["[module 1] "]}, "map": []}]})");
  REQUIRE(q.errorCount == 1);
  CHECK(q.diagnostics[0].rule == "type-text-syntax");
  CHECK(parseIlDescription(R"({"methods": [{"token": 1, "instantiation": {"type": ["__Canonical"]}, "map": []}]})")
            .errorCount == 1);
}

TEST_CASE("il description: a token repeats only with different instantiations") {
  const std::string text = R"({"methods": [
    {"token": 1, "instantiation": {"type": ["int32"]}, "map": []},
    {"token": 1, "instantiation": {"type": ["int64"]}, "map": []},
    {"token": 1, "instantiation": {"type": ["int32"]}, "map": []},
    {"token": 1, "instantiation": {"type": ["int32"], "unboxingStub": true}, "map": []},
    {"token": 1, "instantiation": {"method": ["int32"]}, "map": []},
    {"token": 1, "map": []}]})";
  const IlDescriptionParse p = parseIlDescription(text);
  REQUIRE(p.errorCount == 1);
  CHECK(p.diagnostics[0].rule == "il-duplicate-token");
  CHECK(p.diagnostics[0].path == "/methods/2/token");
  CHECK(p.diagnostics[0].message.find("/methods/0 with the same instantiation") != std::string::npos);
}

}  // namespace
