// The JSON description: parsing every form, every diagnostic with its rule,
// pointer and position, the JSON-pointer locator, the write -> parse round
// trip, and the shipped JSON Schema.
#include <gdmap/description/description_json.hpp>
#include <gdmap/internal/json_locator.hpp>
#include <gdmap/schema/type_text.hpp>
#include "description/map/description_parse.hpp"

#include <doctest/doctest.h>
#include "text_position.hpp"
// Header-only and on the include path; the test only checks that the
// shipped schema is well-formed JSON.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace gdmap;

using test::where;

std::vector<Diagnostic> withRule(const DescriptionParse& p, const std::string& rule) {
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : p.diagnostics)
    if (d.rule == rule) out.push_back(d);
  return out;
}

// Exactly one diagnostic with `rule`, at `pointer`, located at `needle`.
Diagnostic expectOne(const std::string& text, const std::string& rule, const std::string& pointer,
                     const std::string& needle, std::size_t extra = 0) {
  const DescriptionParse p = parseDescription(text);
  CAPTURE(text);
  for (const Diagnostic& d : p.diagnostics) CAPTURE(formatDiagnostic(d, "f"));
  const std::vector<Diagnostic> found = withRule(p, rule);
  REQUIRE(found.size() == 1);
  const Diagnostic& d = found[0];
  INFO(formatDiagnostic(d, "f"));
  CHECK(d.path == pointer);
  const auto [line, column] = where(text, needle, extra);
  CHECK(d.line == line);
  CHECK(d.column == column);
  CHECK(d.offset == text.find(needle) + extra);
  if (d.severity == Severity::Error) CHECK_FALSE(p.description.has_value());
  return d;
}

bool sameType(const std::vector<Type>& a, const std::vector<Type>& b) { return a == b; }

bool sameDescription(const MapDescription& a, const MapDescription& b) {
  if (a.sorted != b.sorted || a.instantiations.size() != b.instantiations.size() ||
      a.dictionaries.size() != b.dictionaries.size())
    return false;
  for (std::size_t i = 0; i < a.instantiations.size(); ++i) {
    const auto& x = a.instantiations[i];
    const auto& y = b.instantiations[i];
    if (x.name != y.name || !sameType(x.types, y.types) || x.raw != y.raw) return false;
    if (instantiationPointer(a, i) != instantiationPointer(b, i)) return false;
  }
  // Dictionaries compared index by index: equal indexes are equal pointers.
  for (std::size_t i = 0; i < a.dictionaries.size(); ++i) {
    const auto& x = a.dictionaries[i];
    const auto& y = b.dictionaries[i];
    if (x.rva != y.rva || x.instantiation != y.instantiation) return false;
  }
  return true;
}

Type int32() { return Type::primitive(ElementType::I4); }
Type str() { return Type::primitive(ElementType::String); }

}  // namespace

// ---------------------------------------------------------------- locator

TEST_CASE("description: locator finds values by pointer") {
  namespace loc = json_location;
  const std::string text =
      "{\"a\": [1, [2, 3], {\"b\": \"x\\\"]}\"}],\n"
      " \"c/d\": {\"e~f\": true},\n"
      " \"q\\\"k\": null, \"\\u0041\": 7, \"empty\": [], \"o\": {}}";
  const std::vector<loc::Target> pointers = {"",           "/a",       "/a/0",  "/a/1/1", "/a/2/b", "/c~1d",
                                             "/c~1d/e~0f", "/q\"k",    "/A",    "/empty", "/o",     "/a/3",
                                             "/nope",      "/a/1/1/2", "/a/01", "bad"};
  const std::vector<std::size_t> found = loc::locatePointers(text, pointers);
  CHECK(found[0] == 0);
  CHECK(found[1] == text.find("[1,"));
  CHECK(found[2] == text.find("1,"));
  CHECK(found[3] == text.find("3]"));
  CHECK(found[4] == text.find("\"x\\\""));
  CHECK(found[5] == text.find("{\"e~f"));
  CHECK(found[6] == text.find("true"));
  CHECK(found[7] == text.find("null"));
  CHECK(found[8] == text.find("7"));
  CHECK(found[9] == text.find("[]"));
  CHECK(found[10] == text.find("{}"));
  for (std::size_t i = 11; i < pointers.size(); ++i) CHECK(found[i] == loc::npos);
}

TEST_CASE("description: locator takes the first of duplicate keys, or one by ordinal, and skips deep nesting") {
  namespace loc = json_location;
  std::string deep(10000, '[');
  deep += std::string(10000, ']');
  const std::string text = "{\"k\": 1, \"deep\": " + deep + ", \"k\": 2, \"z\": [[[\"]\"]], \"w\"], \"k\": {\"k\": 3}}";
  std::size_t scanned = 0;
  const auto found = loc::locatePointers(text,
                                         {"/k",
                                          "/z/1",
                                          "/z/0/0/0",
                                          "/deep/0/0/0",
                                          {"/k", 2},
                                          {"/k", 0},
                                          {"/anything", 4},
                                          {"/k", 5},
                                          {"/k/k", 0},
                                          {"/k/k", 1},
                                          {"", 0}},
                                         &scanned);
  // The reader reads the first of duplicate keys and skips the others.
  CHECK(found[0] == text.find("1"));
  CHECK(found[1] == text.find("\"w\""));
  CHECK(found[2] == text.find("\"]\""));
  CHECK(found[3] == 20);
  // By ordinal: the member's position in its object, whatever its key.
  CHECK(found[4] == text.find("2"));
  CHECK(found[5] == text.find("1"));
  CHECK(found[6] == text.find("{\"k\": 3"));
  CHECK(found[7] == loc::npos);  // no sixth member
  // Below the first "k" (a number): nothing; the third "k" is not the first.
  CHECK(found[8] == loc::npos);
  CHECK(found[9] == loc::npos);
  CHECK(found[10] == loc::npos);  // the document is no member
  CHECK(scanned == text.size());
}

TEST_CASE("description: locator escapes pointer tokens and maps string indexes") {
  namespace loc = json_location;
  // The locator reads the tokens schema/ escapes.
  CHECK(escapePointerToken("a/b~c") == "a~1b~0c");
  CHECK(escapePointerToken("plain") == "plain");
  std::string escaped = "/";  // appended: g++ 12 warns falsely (-Wrestrict) on "/" + std::string
  escaped += escapePointerToken("a/b~c");
  CHECK(loc::locatePointers(R"({"a/b~c": 1})", {escaped})[0] == 10);
  // "a\"b\u00e9c": decoded bytes a " b 0xC3 0xA9 c
  const std::string text = R"(  "a\"b\u00e9c\ud83d\ude00d")";
  CHECK(loc::stringCharacterOffset(text, 2, 0) == 3);  // a
  CHECK(loc::stringCharacterOffset(text, 2, 1) == 4);  // \"
  CHECK(loc::stringCharacterOffset(text, 2, 2) == 6);  // b
  CHECK(loc::stringCharacterOffset(text, 2, 3) == 7);  // \u00e9 (2 bytes)
  CHECK(loc::stringCharacterOffset(text, 2, 4) == 7);
  CHECK(loc::stringCharacterOffset(text, 2, 5) == 13);   // c
  CHECK(loc::stringCharacterOffset(text, 2, 6) == 14);   // the surrogate pair (4 bytes)
  CHECK(loc::stringCharacterOffset(text, 2, 10) == 26);  // d
  CHECK(loc::stringCharacterOffset(text, 2, 11) == 27);  // past the end: the closing quote
}

TEST_CASE("description: locator line and column count code points") {
  namespace loc = json_location;
  const std::string text = "ab\n\xc3\xa9x\n\nz";
  const auto lc = loc::lineColumns(text, {5, 0, 1, 3, 8, 100});
  CHECK(lc[0].line == 2);
  CHECK(lc[0].column == 2);  // x after a 2-byte é
  CHECK(lc[1].line == 1);
  CHECK(lc[1].column == 1);
  CHECK(lc[2].column == 2);
  CHECK(lc[3].line == 2);
  CHECK(lc[3].column == 1);
  CHECK(lc[4].line == 4);
  CHECK(lc[4].column == 1);
  CHECK(lc[5].line == 4);  // clamped to the end
  CHECK(lc[5].column == 2);
}

// ---------------------------------------------------------------- parsing

TEST_CASE("description: parses the raw form and RVAs without types") {
  const std::string text = R"({
  "$schema": "https://example.org/gdmap-description.schema.json",
  "sorted": false,
  "dictionaries": [
    { "rva": "0x00001000", "raw": "02 01 08" },
    { "rva": 4112, "raw": "0201" },
    { "rva": "0XfFfFfFfF", "raw": "00" }
  ]
})";
  const DescriptionParse p = parseDescription(text);
  REQUIRE(p.diagnostics.empty());
  REQUIRE(p.description);
  const MapDescription& d = *p.description;
  CHECK_FALSE(d.sorted);
  REQUIRE(d.dictionaries.size() == 3);
  REQUIRE(d.instantiations.size() == 3);
  CHECK(d.dictionaries[0].rva == 0x1000);
  CHECK(d.dictionaries[1].rva == 4112);
  CHECK(d.dictionaries[2].rva == 0xFFFFFFFFu);
  CHECK(dictionaryPointer(1) == "/dictionaries/1");
  CHECK(d.dictionaries[1].instantiation == 1);
  CHECK(d.instantiations[0].raw == Bytes{0x02, 0x01, 0x08});
  CHECK(d.instantiations[0].name.empty());
  CHECK(instantiationPointer(d, 0) == "/dictionaries/0/raw");
  CHECK(d.instantiations[2].raw == Bytes{0x00});
}

TEST_CASE("description: parses the example of the format") {
  const std::string text = R"({
  "sorted": true,
  "instantiations": { "ListOfInt": ["class 0x01000012<int32>"] },
  "dictionaries": [
    { "rva": "0x00001000", "instantiation": "ListOfInt" },
    { "rva": 4112, "types": ["string", { "hex": "1d08" }] },
    { "rva": "0x1020", "raw": "020108" }
  ]
})";
  const DescriptionParse p = parseDescription(text);
  for (const Diagnostic& d : p.diagnostics) CAPTURE(formatDiagnostic(d, "f"));
  REQUIRE(p.diagnostics.empty());
  REQUIRE(p.description);
  const MapDescription& d = *p.description;
  CHECK(d.sorted);
  REQUIRE(d.instantiations.size() == 3);
  CHECK(d.instantiations[0].name == "ListOfInt");
  CHECK(instantiationPointer(d, 0) == "/instantiations/ListOfInt");
  CHECK(d.instantiations[0].types == std::vector<Type>{Type::genericInstance(false, Token{0x01000012}, {int32()})});
  CHECK(d.instantiations[1].types == std::vector<Type>{str(), Type::szArray(int32())});
  CHECK(instantiationPointer(d, 1) == "/dictionaries/1/types");
  const InstantiationPointers pointers(d);
  CHECK(pointers(0) == "/instantiations/ListOfInt");
  CHECK(pointers(1) == "/dictionaries/1/types");
  CHECK(pointers(2) == "/dictionaries/2/raw");
  CHECK(pointers(3).empty());  // out of range
  CHECK(d.instantiations[2].raw == Bytes{0x02, 0x01, 0x08});
  REQUIRE(d.dictionaries.size() == 3);
  CHECK(d.dictionaries[0].instantiation == 0);
  CHECK(d.dictionaries[1].instantiation == 1);
  CHECK(d.dictionaries[2].instantiation == 2);
  CHECK(d.dictionaries[2].rva == 0x1020);
}

TEST_CASE("description: instantiations may come after dictionaries, and sorted defaults to true") {
  const std::string text = R"({"dictionaries": [{"rva": 1, "types": ["int32"]}, {"rva": 2, "instantiation": "a~/b"}],
      "instantiations": {"a~/b": ["string"]}})";
  const DescriptionParse p = parseDescription(text);
  for (const Diagnostic& d : p.diagnostics) CAPTURE(formatDiagnostic(d, "f"));
  REQUIRE(p.description);
  CHECK(p.description->sorted);
  // Named first, then inline, whatever the order in the file.
  REQUIRE(p.description->instantiations.size() == 2);
  CHECK(p.description->instantiations[0].name == "a~/b");
  CHECK(instantiationPointer(*p.description, 0) == "/instantiations/a~0~1b");
  CHECK(instantiationPointer(*p.description, 1) == "/dictionaries/0/types");
  CHECK(p.description->dictionaries[0].instantiation == 1);
  CHECK(p.description->dictionaries[1].instantiation == 0);
}

TEST_CASE("description: an empty dictionaries array is a valid description") {
  const DescriptionParse p = parseDescription(R"({"dictionaries": []})");
  CHECK(p.diagnostics.empty());
  REQUIRE(p.description);
  CHECK(p.description->dictionaries.empty());
}

// ---------------------------------------------------------------- errors

TEST_CASE("description: invalid JSON gives the parser's position") {
  const std::string text = "{\n  \"dictionaries\": [\n    {\"rva\": tru}\n  ]\n}";
  const DescriptionParse p = parseDescription(text);
  REQUIRE(p.diagnostics.size() == 1);
  const Diagnostic& d = p.diagnostics[0];
  CHECK(d.rule == "invalid-json");
  CHECK(d.path.empty());
  CHECK(d.line == 3);
  CHECK(d.column == 16);  // the '}' that ends the bad literal
  CHECK(d.message.find("invalid literal") != std::string::npos);
  CHECK_FALSE(p.description);

  const DescriptionParse truncated = parseDescription("{\"dictionaries\": [");
  REQUIRE(truncated.diagnostics.size() == 1);
  CHECK(truncated.diagnostics[0].rule == "invalid-json");
  CHECK(truncated.diagnostics[0].line == 1);
  CHECK(truncated.diagnostics[0].column == 19);  // the end of the text

  CHECK(parseDescription("").diagnostics.at(0).rule == "invalid-json");
  CHECK(parseDescription("{} {}").diagnostics.at(0).rule == "invalid-json");
}

TEST_CASE("description: unknown keys anywhere") {
  expectOne("{\"dictionaries\": [], \"extra\": 1}", "unknown-key", "/extra", "1}");
  expectOne("{\"dictionaries\": [{\"rva\": 1, \"raw\": \"00\", \"x/y~\": [1]}]}", "unknown-key",
            "/dictionaries/0/x~1y~0", "[1]");
  expectOne(
      "{\"instantiations\": {\"a\": [{\"hex\": \"08\", \"bytes\": 2}]},"
      " \"dictionaries\": [{\"rva\": 1, \"instantiation\": \"a\"}]}",
      "unknown-key", "/instantiations/a/0/bytes", "2}");
}

TEST_CASE("description: wrong JSON types") {
  Diagnostic d = expectOne("{\"sorted\": \"yes\", \"dictionaries\": []}", "wrong-type", "/sorted", "\"yes\"");
  CHECK(d.message == "expected true or false, found a string");
  expectOne("[]", "wrong-type", "", "[]");
  expectOne("{\"dictionaries\": {}}", "wrong-type", "/dictionaries", "{}");
  expectOne("{\"dictionaries\": [7]}", "wrong-type", "/dictionaries/0", "7");
  expectOne("{\"dictionaries\": [{\"rva\": true, \"raw\": \"\"}]}", "wrong-type", "/dictionaries/0/rva", "true");
  expectOne("{\"dictionaries\": [{\"rva\": 1, \"types\": \"int32\"}]}", "wrong-type", "/dictionaries/0/types",
            "\"int32\"");
  expectOne("{\"dictionaries\": [{\"rva\": 1, \"types\": [[\"int32\"]]}]}", "wrong-type", "/dictionaries/0/types/0",
            "[\"int32\"]");
  expectOne("{\"dictionaries\": [{\"rva\": 1, \"raw\": 2}]}", "wrong-type", "/dictionaries/0/raw", "2}");
  expectOne("{\"instantiations\": {\"a\": {}}, \"dictionaries\": [{\"rva\": 1, \"instantiation\": \"a\"}]}",
            "wrong-type", "/instantiations/a", "{}");
  expectOne("{\"$schema\": 1, \"dictionaries\": []}", "wrong-type", "/$schema", "1,");
}

TEST_CASE("description: missing and conflicting forms") {
  expectOne("{\"sorted\": true}", "missing-field", "", "{");
  Diagnostic d = expectOne("{\"dictionaries\": [\n {\"raw\": \"00\"}]}", "missing-field", "/dictionaries/0", "{\"raw");
  CHECK(d.message.find("rva") != std::string::npos);
  expectOne("{\"dictionaries\": [{\"rva\": 1}]}", "missing-field", "/dictionaries/0", "{\"rva");
  expectOne("{\"dictionaries\": [{\"rva\": 1, \"raw\": \"00\", \"types\": [\"int32\"]}]}", "conflicting-fields",
            "/dictionaries/0", "{\"rva");
  expectOne("{\"dictionaries\": [{\"rva\": 1, \"types\": [{}]}]}", "missing-field", "/dictionaries/0/types/0", "{}");
}

TEST_CASE("description: malformed and out-of-range RVAs") {
  expectOne("{\"dictionaries\": [{\"rva\": 4294967296, \"raw\": \"\"}]}", "invalid-rva", "/dictionaries/0/rva",
            "4294967296");
  expectOne("{\"dictionaries\": [{\"rva\": -1, \"raw\": \"\"}]}", "invalid-rva", "/dictionaries/0/rva", "-1");
  expectOne("{\"dictionaries\": [{\"rva\": 1.5, \"raw\": \"\"}]}", "invalid-rva", "/dictionaries/0/rva", "1.5");
  expectOne("{\"dictionaries\": [{\"rva\": 1e30, \"raw\": \"\"}]}", "invalid-rva", "/dictionaries/0/rva", "1e30");
  for (const char* bad : {"\"0x\"", "\"0x123456789\"", "\"1000\"", "\"0x10g0\"", "\" 0x1\"", "\"\""}) {
    const std::string text = std::string("{\"dictionaries\": [{\"rva\": ") + bad + ", \"raw\": \"\"}]}";
    expectOne(text, "invalid-rva", "/dictionaries/0/rva", bad);
  }
}

TEST_CASE("description: duplicate RVAs name both pointers") {
  const std::string text = R"({"dictionaries": [
  {"rva": "0x10", "raw": "00"},
  {"rva": 32, "raw": "00"},
  {"rva": 16, "raw": "00"},
  {"rva": "0x00000020", "raw": "00"},
  {"rva": "0x10", "raw": "00"}
]})";
  const DescriptionParse p = parseDescription(text);
  const auto dups = withRule(p, "duplicate-rva");
  REQUIRE(dups.size() == 3);
  CHECK(dups[0].path == "/dictionaries/2/rva");
  CHECK(dups[0].message == "duplicate RVA 0x00000010: /dictionaries/0/rva has it too");
  CHECK(dups[0].line == 4);
  CHECK(dups[0].column == 11);
  CHECK(dups[1].path == "/dictionaries/3/rva");
  CHECK(dups[1].message.find("/dictionaries/1/rva") != std::string::npos);
  CHECK(dups[2].path == "/dictionaries/4/rva");
  CHECK(dups[2].message.find("/dictionaries/0/rva") != std::string::npos);
  CHECK_FALSE(p.description);
}

TEST_CASE("description: undefined, duplicate and unused instantiation names") {
  expectOne("{\"dictionaries\": [{\"rva\": 1, \"instantiation\": \"Nope\"}]}", "undefined-instantiation",
            "/dictionaries/0/instantiation", "\"Nope\"");
  expectOne(
      "{\"instantiations\": {\"a\": [\"int32\"], \"a\": [\"string\"]},"
      " \"dictionaries\": [{\"rva\": 1, \"instantiation\": \"a\"}]}",
      "duplicate-key", "/instantiations/a", "[\"string\"]");
  expectOne("{\"dictionaries\": [{\"rva\": 1, \"rva\": 2, \"raw\": \"\"}]}", "duplicate-key", "/dictionaries/0/rva",
            "2,");

  const std::string unused =
      "{\"instantiations\": {\"used\": [\"int32\"], \"spare\": [\"int32\"]},\n"
      " \"dictionaries\": [{\"rva\": 1, \"instantiation\": \"used\"}]}";
  const Diagnostic w = expectOne(unused, "unused-instantiation", "/instantiations/spare", "[\"int32\"]}");
  CHECK(w.severity == Severity::Warning);
  const DescriptionParse p = parseDescription(unused);
  CHECK(p.diagnostics.size() == 1);
  REQUIRE(p.description);  // a warning does not stop it
  CHECK(p.description->instantiations.size() == 2);

  // The warning's pointer escapes the name, and comes with errors too.
  expectOne(
      "{\"instantiations\": {\"s~/p\": [\"int32\"]},"
      " \"dictionaries\": [{\"rva\": 1, \"instantiation\": \"Nope\"}]}",
      "unused-instantiation", "/instantiations/s~0~1p", "[\"int32\"]");
}

TEST_CASE("description: empty type lists") {
  expectOne("{\"dictionaries\": [{\"rva\": 1, \"types\": []}]}", "empty-types", "/dictionaries/0/types", "[]");
  expectOne("{\"instantiations\": {\"e\": []}, \"dictionaries\": [{\"rva\": 1, \"instantiation\": \"e\"}]}",
            "empty-types", "/instantiations/e", "[]");
}

TEST_CASE("description: bad hex") {
  Diagnostic d =
      expectOne("{\"dictionaries\": [{\"rva\": 1, \"raw\": \"0201x8\"}]}", "invalid-hex", "/dictionaries/0/raw", "x8");
  CHECK(d.message.find("column 5") != std::string::npos);
  expectOne("{\"dictionaries\": [{\"rva\": 1, \"raw\": \"021\"}]}", "invalid-hex", "/dictionaries/0/raw", "1\"");
  expectOne("{\"dictionaries\": [{\"rva\": 1, \"types\": [{\"hex\": \"1d 0q\"}]}]}", "invalid-hex",
            "/dictionaries/0/types/0/hex", "q");
  // No bytes: the decoder's "expected a type" at byte 0, the closing quote.
  expectOne("{\"dictionaries\": [{\"rva\": 1, \"types\": [{\"hex\": \"\"}]}]}", "truncated-signature",
            "/dictionaries/0/types/0/hex", "\"\"", 1);
}

TEST_CASE("description: types that do not parse say where and what was expected") {
  // The position is the character inside the string in the file; the
  // message gives the column inside the type text too.
  const std::string text = "{\"dictionaries\": [\n  {\"rva\": 1, \"types\": [\"int32\", \"class 0x01000012<int32\"]}]}";
  const Diagnostic d = expectOne(text, "type-text-syntax", "/dictionaries/0/types/1", "\"class", 23);
  CHECK(d.message.find("column 23 of the type") != std::string::npos);
  CHECK(d.line == 2);
  CHECK(d.column == 56);

  // An escape before the error shifts the file column, not the type column.
  const std::string escaped = "{\"dictionaries\": [{\"rva\": 1, \"types\": [\"\\u0069nt32 ?\"]}]}";
  const Diagnostic e = expectOne(escaped, "type-text-syntax", "/dictionaries/0/types/0", "?");
  CHECK(e.message.find("column 7 of the type") != std::string::npos);

  // A hex type that does not decode points at the offending byte's digits.
  const std::string hex = "{\"dictionaries\": [{\"rva\": 1, \"types\": [{\"hex\": \"1d 08 08\"}]}]}";
  const Diagnostic h = expectOne(hex, "bytes-after-type", "/dictionaries/0/types/0/hex", "08\"");
  CHECK(h.message.find("byte 2") != std::string::npos);
}

TEST_CASE("description: every error is reported, not only the first, up to a cap") {
  const std::string text = R"({"bogus": 1, "dictionaries": [
  {"rva": "0xZZ", "raw": "00"},
  {"rva": 1, "instantiation": "Missing"},
  {"rva": 1, "types": []},
  {"rva": 2, "raw": "0"}
]})";
  const DescriptionParse p = parseDescription(text);
  std::vector<std::string> rules;
  for (const Diagnostic& d : p.diagnostics) rules.push_back(d.rule);
  // In file order.
  CHECK(rules == std::vector<std::string>{"unknown-key", "invalid-rva", "undefined-instantiation", "duplicate-rva",
                                          "empty-types", "invalid-hex"});
  for (const Diagnostic& d : p.diagnostics) CHECK(d.line >= 1);

  std::string many = "{\"dictionaries\": [";
  for (int i = 0; i < 250; ++i) many += std::string(i ? "," : "") + "{\"rva\": -1, \"raw\": \"00\"}";
  many += "]}";
  const DescriptionParse q = parseDescription(many);
  REQUIRE(q.diagnostics.size() == 101);
  CHECK(q.diagnostics.back().rule == "too-many-diagnostics");
  CHECK(q.diagnostics.back().severity == Severity::Note);
  CHECK(q.diagnostics.back().message ==
        "150 more problem(s) not listed, after the first 100; 250 error(s) and 0 warning(s) in all");
  CHECK(q.diagnostics[99].path == "/dictionaries/99/rva");
  CHECK(q.errorCount == 250);
  CHECK(q.warningCount == 0);
}

TEST_CASE("description: formatted diagnostics read file:line:col") {
  const DescriptionParse p = parseDescription("{\"dictionaries\": [],\n \"x\": 0}");
  REQUIRE(p.diagnostics.size() == 1);
  CHECK(formatDiagnostic(p.diagnostics[0], "d.json") ==
        "d.json:2:7: error: /x: unknown key 'x' in the description [unknown-key]");
}

TEST_CASE("description: an empty raw item is an error at its string") {
  // Defect 6 of issue 7: "raw": "" used to build a dictionary whose heap
  // offset was the next item's.
  const std::string text = "{\"dictionaries\": [\n  {\"rva\": 1, \"raw\": \"\"},\n  {\"rva\": 2, \"raw\": \"0108\"}]}";
  const Diagnostic d = expectOne(text, "empty-raw-item", "/dictionaries/0/raw", "\"\"");
  CHECK(d.line == 2);
  CHECK(d.column == 21);
  CHECK(d.message ==
        "a raw item needs at least one byte, its length prefix: an empty one would share its heap "
        "offset with the next item and silently take its content");
  // White space is no digit: still empty.
  expectOne("{\"dictionaries\": [{\"rva\": 1, \"raw\": \" \\n \"}]}", "empty-raw-item", "/dictionaries/0/raw",
            "\" \\n");
  // One byte, a zero length prefix, is an item.
  CHECK(parseDescription("{\"dictionaries\": [{\"rva\": 1, \"raw\": \"00\"}]}").description.has_value());
}

TEST_CASE("description: an unused instantiation named \"\" is located at its own key") {
  // Defect 7 of issue 7: it used to point at the whole document (1:1).
  const std::string text =
      "{\"instantiations\": {\"x\": [\"int32\"],\n \"\": [\"string\"]},\n \"dictionaries\": "
      "[{\"rva\": 1, \"instantiation\": \"x\"}]}";
  const Diagnostic d = expectOne(text, "unused-instantiation", "/instantiations/", "[\"string\"]");
  CHECK(d.line == 2);
  CHECK(d.column == 6);
  CHECK(d.message == "instantiation '' is not used by any dictionary");
  // Used, it is an instantiation like any other.
  const DescriptionParse used = parseDescription(
      "{\"instantiations\": {\"\": [\"string\"]}, \"dictionaries\": [{\"rva\": 1, \"instantiation\": \"\"}]}");
  CHECK(used.diagnostics.empty());
  REQUIRE(used.description);
  CHECK(used.description->instantiations.at(0).types == std::vector<Type>{str()});
}

TEST_CASE("description: a duplicate key does not move the other diagnostics") {
  // Defect 7 of issue 7: positions were looked up by key, and the locator
  // took the last member with a key while the reader had read the first.
  {
    // The problem is in the first "rva"; the second is the duplicate.
    const std::string text = "{\"dictionaries\": [{\"rva\": \"0xZZ\", \"rva\": 2, \"raw\": \"00\"}]}";
    expectOne(text, "invalid-rva", "/dictionaries/0/rva", "\"0xZZ\"");
    expectOne(text, "duplicate-key", "/dictionaries/0/rva", "2,");
  }
  {
    // A second "dictionaries": errors inside the first stay there.
    const std::string text =
        "{\"dictionaries\": [{\"rva\": 1, \"raw\": \"012\"}],\n \"dictionaries\": [{\"rva\": 1, "
        "\"raw\": \"zz\"}]}";
    const Diagnostic hex = expectOne(text, "invalid-hex", "/dictionaries/0/raw", "2\"");
    CHECK(hex.line == 1);
    const Diagnostic dup = expectOne(text, "duplicate-key", "/dictionaries", "[{\"rva\": 1, \"raw\": \"zz");
    CHECK(dup.line == 2);
    CHECK(dup.column == 18);
  }
  {
    // A name defined twice: the first definition's type error, the second's duplicate.
    const std::string text =
        "{\"instantiations\": {\"a\": [\"int32 ?\"], \"a\": [\"bad\"]},"
        " \"dictionaries\": [{\"rva\": 1, \"instantiation\": \"a\"}]}";
    expectOne(text, "type-text-syntax", "/instantiations/a/0", "?");
    expectOne(text, "duplicate-key", "/instantiations/a", "[\"bad\"]");
  }
  {
    // A {"hex": ...} type with "hex" twice: the first is decoded.
    const std::string text = "{\"dictionaries\": [{\"rva\": 1, \"types\": [{\"hex\": \"0z\", \"hex\": \"08\"}]}]}";
    expectOne(text, "invalid-hex", "/dictionaries/0/types/0/hex", "z");
    expectOne(text, "duplicate-key", "/dictionaries/0/types/0/hex", "\"08\"");
  }
  {
    // An unknown key given twice: each report at its own member.
    const std::string text = "{\"dictionaries\": [], \"x\": 1, \"x\": 2}";
    const DescriptionParse p = parseDescription(text);
    const std::vector<Diagnostic> unknown = withRule(p, "unknown-key");
    REQUIRE(unknown.size() == 2);
    CHECK(unknown[0].offset == text.find("1,"));
    CHECK(unknown[1].offset == text.find("2}"));
    CHECK(unknown[0].path == "/x");
    CHECK(unknown[1].path == "/x");
  }
  {
    // Checks made after the whole file (duplicate RVAs, undefined names)
    // point at the members the reader took: the first ones.
    const std::string text =
        "{\"dictionaries\": [{\"rva\": 7, \"rva\": 8, \"raw\": \"00\"},\n"
        " {\"rva\": 7, \"instantiation\": \"No\", \"instantiation\": \"x\"}]}";
    const Diagnostic d = expectOne(text, "duplicate-rva", "/dictionaries/1/rva", "7, \"inst");
    CHECK(d.message == "duplicate RVA 0x00000007: /dictionaries/0/rva has it too");
    expectOne(text, "undefined-instantiation", "/dictionaries/1/instantiation", "\"No\"");
  }
}

TEST_CASE("description: type errors carry the type parser's and decoder's rules") {
  const auto rule = [](const std::string& type) {
    const DescriptionParse p = parseDescription("{\"dictionaries\": [{\"rva\": 1, \"types\": [" + type + "]}]}");
    REQUIRE(p.diagnostics.size() == 1);
    CHECK(p.diagnostics[0].path == "/dictionaries/0/types/0" + std::string(type[0] == '{' ? "/hex" : ""));
    return p.diagnostics[0].rule;
  };
  CHECK(rule("\"int32 ?\"") == "type-text-syntax");
  CHECK(rule("\"int32[rank(33)]\"") == "array-rank-too-large");
  CHECK(rule("\"method void *()[rank(65)]\"") == "array-rank-too-large");
  CHECK(rule("\"class 0x05000001\"") == "invalid-token");
  CHECK(rule("{\"hex\": \"1d\"}") == "truncated-signature");
  CHECK(rule("{\"hex\": \"08 08\"}") == "bytes-after-type");
  CHECK(rule("{\"hex\": \"14 08 ff\"}") == "invalid-compressed-int");
  CHECK(rule("{\"hex\": \"0x\"}") == "invalid-hex");
}

namespace {

// A rule as docs/errors.md shows it: a one-line description and the
// diagnostic it gives, as `gdmap` prints it for DESC.json.
struct RuleExample {
  const char* rule;
  const char* json;
  const char* printed;
};

const RuleExample kDescriptionRules[] = {
    {"invalid-json", R"({"dictionaries": [}]})",
     "DESC.json:1:19: error: syntax error while parsing value - unexpected '}'; expected '[', '{', or a literal "
     "[invalid-json]"},
    {"wrong-type", R"({"sorted": "yes", "dictionaries": []})",
     "DESC.json:1:12: error: /sorted: expected true or false, found a string [wrong-type]"},
    {"unknown-key", R"({"dictionaries": [], "extra": 1})",
     "DESC.json:1:31: error: /extra: unknown key 'extra' in the description [unknown-key]"},
    {"duplicate-key", R"({"dictionaries": [], "dictionaries": []})",
     "DESC.json:1:38: error: /dictionaries: key 'dictionaries' is given more than once [duplicate-key]"},
    {"missing-field", R"({"sorted": true})",
     "DESC.json:1:1: error: the description has no \"dictionaries\" array [missing-field]"},
    {"conflicting-fields", R"({"dictionaries": [{"rva": 1, "raw": "0108", "types": ["int32"]}]})",
     "DESC.json:1:19: error: /dictionaries/0: a dictionary has exactly one of \"instantiation\", \"types\" or "
     "\"raw\", not 2 [conflicting-fields]"},
    {"invalid-rva", R"({"dictionaries": [{"rva": "0x1g", "raw": "0108"}]})",
     "DESC.json:1:27: error: /dictionaries/0/rva: invalid RVA '0x1g': expected \"0x\" and 1 to 8 hex digits, or an "
     "integer [invalid-rva]"},
    {"undefined-instantiation", R"({"dictionaries": [{"rva": 1, "instantiation": "Nope"}]})",
     "DESC.json:1:47: error: /dictionaries/0/instantiation: instantiation 'Nope' is not defined in /instantiations "
     "[undefined-instantiation]"},
    {"empty-types", R"({"dictionaries": [{"rva": 1, "types": []}]})",
     "DESC.json:1:39: error: /dictionaries/0/types: a list of types needs at least one type [empty-types]"},
    {"invalid-hex", R"({"dictionaries": [{"rva": 1, "raw": "01x8"}]})",
     "DESC.json:1:40: error: /dictionaries/0/raw: invalid hex: column 3: expected a hex digit, found 'x' "
     "[invalid-hex]"},
    {"unused-instantiation", R"({"instantiations": {"Spare": ["int32"]}, "dictionaries": []})",
     "DESC.json:1:30: warning: /instantiations/Spare: instantiation 'Spare' is not used by any dictionary "
     "[unused-instantiation]"},
    // Rules of other sections that descriptions report too.
    {"duplicate-rva", R"({"dictionaries": [{"rva": 1, "raw": "0108"}, {"rva": "0x1", "raw": "0108"}]})",
     "DESC.json:1:54: error: /dictionaries/1/rva: duplicate RVA 0x00000001: /dictionaries/0/rva has it too "
     "[duplicate-rva]"},
    {"empty-raw-item", R"({"dictionaries": [{"rva": 1, "raw": ""}]})",
     "DESC.json:1:37: error: /dictionaries/0/raw: a raw item needs at least one byte, its length prefix: an empty "
     "one would share its heap offset with the next item and silently take its content [empty-raw-item]"},
    {"type-text-syntax", R"({"dictionaries": [{"rva": 1, "types": ["int32 foo"]}]})",
     "DESC.json:1:47: error: /dictionaries/0/types/0: invalid type 'int32 foo': column 7 of the type: unexpected "
     "text after the type, found 'foo' [type-text-syntax]"},
    {"bytes-after-type", R"({"dictionaries": [{"rva": 1, "types": [{"hex": "08 08"}]}]})",
     "DESC.json:1:52: error: /dictionaries/0/types/0/hex: invalid type signature '08 08': byte 1: 1 bytes after the "
     "end of the type [bytes-after-type]"},
};

std::string readSourceFile(const std::string& relative) {
  std::ifstream in(std::string(GDMAP_SOURCE_DIR) + "/" + relative);
  REQUIRE(in);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

TEST_CASE("description: every description rule gives what docs/errors.md shows") {
  const std::string doc = readSourceFile("docs/errors.md");
  for (const RuleExample& example : kDescriptionRules) {
    const std::string rule = example.rule;
    CAPTURE(rule);
    const DescriptionParse p = parseDescription(example.json);
    const std::vector<Diagnostic> found = withRule(p, example.rule);
    REQUIRE(found.size() == 1);
    CHECK(formatDiagnostic(found[0], "DESC.json") == example.printed);
    // The documentation shows this very example.
    CHECK(doc.find(example.json) != std::string::npos);
    CHECK(doc.find(example.printed) != std::string::npos);
  }
  // too-many-diagnostics: the note after the listed ones.
  std::string many = "{\"dictionaries\": [";
  for (int i = 0; i < 250; ++i) many += std::string(i ? "," : "") + "{\"rva\": -1, \"raw\": \"00\"}";
  many += "], \"instantiations\": {\"Spare\": [\"int32\"]}}";
  const DescriptionParse p = parseDescription(many);
  REQUIRE(p.diagnostics.size() == 101);
  const std::string note = formatDiagnostic(p.diagnostics.back(), "DESC.json");
  CHECK(note ==
        "DESC.json: note: 151 more problem(s) not listed, after the first 100; 250 error(s) and 1 "
        "warning(s) in all [too-many-diagnostics]");
  CHECK(doc.find(note) != std::string::npos);
}

TEST_CASE("description: no message quotes more than a few dozen bytes of the input") {
  // Defect 4 of issue 7: a 500 KB name was printed with each of its errors,
  // and nlohmann's "last read: '...'" quoted a whole unterminated string.
  const std::string huge(500 * 1024, 'N');
  const auto messagesAreShort = [](const DescriptionParse& p) {
    for (const Diagnostic& d : p.diagnostics) {
      CAPTURE(d.rule);
      CHECK(d.message.size() < 400);
    }
  };
  {
    // A huge name: every message short, each pointer exact (a machine
    // must be able to follow it), and only as many kept as the byte cap
    // on pointers allows, the rest counted.
    const std::string text = "{\"instantiations\": {\"" + huge + "\": [1, \"int32 " + huge + "\"], \"" + huge +
                             "\": []},\n \"dictionaries\": [{\"rva\": 1, \"instantiation\": \"" + huge + "x\"}, {\"" +
                             huge + "\": 1}]}";
    const DescriptionParse p = parseDescription(text);
    messagesAreShort(p);
    // wrong-type, type-text-syntax, duplicate-key; undefined-instantiation;
    // unknown-key and two missing-field; the name, never used: a warning.
    CHECK(p.errorCount == 7);
    CHECK(p.warningCount == 1);
    REQUIRE(p.diagnostics.size() == 2);
    CHECK(p.diagnostics[0].rule == "wrong-type");
    CHECK(p.diagnostics[0].path == "/instantiations/" + huge + "/0");
    CHECK(p.diagnostics[0].offset == text.find("1, "));
    CHECK(p.diagnostics[1].rule == "too-many-diagnostics");
    CHECK(p.diagnostics[1].message ==
          "7 more problem(s) not listed, after the first 1; 7 error(s) and 1 warning(s) in all");
  }
  {
    // A huge name whose errors are all under the cap: the messages still quote it cut.
    const std::string name(200, 'a');
    const std::string text = "{\"instantiations\": {\"" + name + "\": []}, \"dictionaries\": [{\"rva\": 1, " +
                             "\"instantiation\": \"" + name + "b\"}, {\"" + name + "\": 1}]}";
    const DescriptionParse p = parseDescription(text);
    messagesAreShort(p);
    const std::vector<Diagnostic> undefined = withRule(p, "undefined-instantiation");
    REQUIRE(undefined.size() == 1);
    CHECK(undefined[0].message == "instantiation " + quoteInput(name + "b") + " is not defined in /instantiations");
    CHECK(undefined[0].message.find("'...") != std::string::npos);
    REQUIRE(withRule(p, "unknown-key").size() == 1);
    CHECK(withRule(p, "unknown-key")[0].path == "/dictionaries/1/" + name);
    REQUIRE(withRule(p, "unused-instantiation").size() == 1);
  }
  {
    // Long values: type text, hex, RVA strings and numbers.
    const std::string text = "{\"dictionaries\": [{\"rva\": \"0x" + huge + "\", \"types\": [\"int32 " + huge +
                             "\", {\"hex\": \"08 " + std::string(huge.size() + 1, '0') + "\"}]}, {\"rva\": 1." +
                             std::string(huge.size(), '5') + ", \"raw\": \"" + std::string(huge.size() + 1, 'f') +
                             "\"}]}";
    const DescriptionParse p = parseDescription(text);
    messagesAreShort(p);
    CHECK(p.errorCount == 5);
    CHECK(withRule(p, "invalid-rva").size() == 2);
    CHECK(withRule(p, "type-text-syntax").size() == 1);
    CHECK(withRule(p, "invalid-hex").size() == 2);  // odd digits in the hex type and in raw
  }
  {
    // Syntax errors that quote a token: an unterminated string, a number
    // that overflows a double. The position stays exact.
    const std::string open = "{\"dictionaries\": [\n  \"" + huge;
    const DescriptionParse p = parseDescription(open);
    REQUIRE(p.diagnostics.size() == 1);
    const Diagnostic& d = p.diagnostics[0];
    CHECK(d.rule == "invalid-json");
    CHECK(d.message.size() < 200);
    CHECK(
        d.message.starts_with("syntax error while parsing value - invalid string: missing closing quote; last "
                              "read: '\"NNNN"));
    CHECK(d.message.ends_with("'..."));
    CHECK(d.line == 2);
    CHECK(d.column == 3 + huge.size() + 1);  // just past the end of the text

    const std::string overflow = "{\"dictionaries\": [1" + std::string(huge.size(), '0') + "]}";
    const DescriptionParse q = parseDescription(overflow);
    REQUIRE(q.diagnostics.size() == 1);
    CHECK(q.diagnostics[0].rule == "invalid-json");
    CHECK(q.diagnostics[0].message.starts_with("number overflow parsing '1000"));
    CHECK(q.diagnostics[0].message.size() < 200);
  }
}

namespace {

// Many kinds of problem at once, `n` of each, and a name of `n` bytes with
// problems under it: what made diagnostics quadratic (issue 7, defect 4).
std::string hostileDescription(std::size_t n) {
  const std::string name(n, 'N');
  std::string text = "{\"instantiations\": {\"" + name + "\": [";
  for (std::size_t i = 0; i < n; ++i) text += i ? ",1" : "1";
  text += "]";
  for (std::size_t i = 0; i < n; ++i) text += ",\"unused" + std::to_string(i) + "\": [\"int32\"]";
  text += "}, \"dictionaries\": [";
  for (std::size_t i = 0; i < n; ++i) {
    if (i != 0) text += ',';
    text += "{\"rva\": 16, \"instantiation\": \"missing\", \"bogus\": 0, \"types\": [\"int32 ?\"]}";
  }
  text += "], \"k\": 1, \"k\": 2}";
  return text;
}

std::size_t totalWork(const description::DiagnosticWork& w) {
  return w.pointersBuilt + w.pointerBytes + w.messageBytes + w.textBytesScanned;
}

}  // namespace

TEST_CASE("description: diagnostic work is linear in the text, however many problems it has") {
  using description::DiagnosticList;
  description::DiagnosticWork small;
  description::DiagnosticWork large;
  const std::string smallText = hostileDescription(20000);
  const std::string largeText = hostileDescription(40000);
  const DescriptionParse s = description::parseDescription(smallText, small);
  const DescriptionParse l = description::parseDescription(largeText, large);
  // wrong-type per element; unknown-key, type-text-syntax and
  // conflicting-fields per dictionary, duplicate-rva for all but the first;
  // unknown-key for each "k". Unused: every name (the long one's types are
  // invalid, so nothing uses it either).
  CHECK(s.errorCount == 20000 + 3 * 20000 + (20000 - 1) + 2);
  CHECK(s.warningCount == 20000 + 1);
  CHECK(l.errorCount == 40000 + 3 * 40000 + (40000 - 1) + 2);
  for (const auto& [p, w, text] : {std::tie(s, small, smallText), std::tie(l, large, largeText)}) {
    CHECK(p.diagnostics.size() <= DiagnosticList::kMaxKept + 1);
    CHECK(w.pointersBuilt <= DiagnosticList::kMaxKept);
    CHECK(w.pointerBytes <= DiagnosticList::kMaxKeptPointerBytes + text.size());
    CHECK(w.messageBytes <= DiagnosticList::kMaxKept * 400);
    CHECK(w.textBytesScanned <= 2 * text.size());
  }
  // Twice the problems and the name twice as long: per byte of text, no
  // more work (10% slack). Quadratic work would double it.
  CHECK(largeText.size() >= 2 * smallText.size());
  CAPTURE(totalWork(small));
  CAPTURE(totalWork(large));
  CHECK(totalWork(large) * smallText.size() * 10 <= totalWork(small) * largeText.size() * 11);
}

TEST_CASE("description: a description of 100000 errors is counted in full and listed in part") {
  std::string text = "{\"instantiations\": {";
  for (int i = 0; i < 1000; ++i) text += (i ? ",\"n" : "\"n") + std::to_string(i) + "\": [\"int32\"]";
  text += "}, \"dictionaries\": [";
  for (int i = 0; i < 50000; ++i) text += i ? ",{\"rva\": -1, \"raw\": \"z\"}" : "{\"rva\": -1, \"raw\": \"z\"}";
  text += "]}";
  description::DiagnosticWork work;
  const DescriptionParse p = description::parseDescription(text, work);
  CHECK_FALSE(p.description);
  CHECK(p.errorCount == 100000);
  CHECK(p.warningCount == 1000);
  REQUIRE(p.diagnostics.size() == 101);
  CHECK(p.diagnostics[0].path == "/dictionaries/0/rva");
  CHECK(p.diagnostics[1].path == "/dictionaries/0/raw");
  CHECK(p.diagnostics[99].path == "/dictionaries/49/raw");
  CHECK(p.diagnostics.back().rule == "too-many-diagnostics");
  CHECK(p.diagnostics.back().message ==
        "100900 more problem(s) not listed, after the first 100; 100000 error(s) and 1000 warning(s) in all");
  CHECK(work.pointersBuilt == 100);
}

// ---------------------------------------------------------------- writing

TEST_CASE("description: writes the fixed layout") {
  MapDescription d;
  d.instantiations.push_back({"ListOfInt", {Type::genericInstance(false, Token{0x01000012}, {int32()})}, {}});
  d.instantiations.push_back({"", {str(), Type::szArray(int32())}, {}});
  d.instantiations.push_back({"", {}, Bytes{0x02, 0x01, 0x08}});
  d.dictionaries.push_back({0x1000, 0});
  d.dictionaries.push_back({0x1010, 1});
  d.dictionaries.push_back({0x1020, 2});
  CHECK(writeDescription(d) == R"({
  "sorted": true,
  "instantiations": {
    "ListOfInt": ["class 0x01000012<int32>"]
  },
  "dictionaries": [
    {"rva": "0x00001000", "instantiation": "ListOfInt"},
    {"rva": "0x00001010", "types": ["string", "int32[]"]},
    {"rva": "0x00001020", "raw": "020108"}
  ]
}
)");
  MapDescription empty;
  empty.sorted = false;
  CHECK(writeDescription(empty) == "{\n  \"sorted\": false,\n  \"dictionaries\": []\n}\n");
  const DescriptionParse back = parseDescription(writeDescription(empty));
  REQUIRE(back.description);
  CHECK_FALSE(back.description->sorted);
}

TEST_CASE("description: names are escaped, and a shared unnamed or raw-named instantiation is written inline") {
  MapDescription d;
  d.instantiations.push_back({"we\"ird\\/\n", {int32()}, {}});
  d.instantiations.push_back({"", {str()}, {}});
  d.instantiations.push_back({"rawName", {}, Bytes{0x01, 0x08}});
  d.dictionaries.push_back({1, 0});
  d.dictionaries.push_back({2, 1});
  d.dictionaries.push_back({3, 1});
  d.dictionaries.push_back({4, 2});
  const DescriptionParse p = parseDescription(writeDescription(d));
  for (const Diagnostic& x : p.diagnostics) CAPTURE(formatDiagnostic(x, "f"));
  REQUIRE(p.description);
  const MapDescription& r = *p.description;
  REQUIRE(r.instantiations.size() == 4);
  CHECK(r.instantiations[0].name == "we\"ird\\/\n");
  CHECK(r.instantiations[1].types == std::vector<Type>{str()});
  CHECK(r.instantiations[2].types == std::vector<Type>{str()});
  CHECK(r.instantiations[3].raw == Bytes{0x01, 0x08});
  CHECK(r.dictionaries[3].instantiation == 3);
}

TEST_CASE("description: write then parse gives the same description (seeded random)") {
  std::mt19937 rng(20240611);
  auto pick = [&](std::uint32_t n) { return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng); };
  auto randomType = [&]() {
    switch (pick(6)) {
      case 0: return Type::primitive(ElementType::I4);
      case 1: return Type::classType(Token{0x01000000u + 1 + pick(1000)});
      case 2: return Type::szArray(Type::primitive(ElementType::String));
      case 3:
        return Type::genericInstance(pick(2) == 1, Token{0x02000000u + 1 + pick(50)},
                                     {Type::typeVariable(pick(3)), Type::primitive(ElementType::U8)});
      case 4: return Type::pointer(Type::valueType(Token{0x02000001}));
      default: return Type::methodVariable(pick(4));
    }
  };
  for (int round = 0; round < 40; ++round) {
    MapDescription d;
    d.sorted = pick(2) == 1;
    const std::uint32_t namedCount = pick(6);
    for (std::uint32_t i = 0; i < namedCount; ++i) {
      InstantiationDescription inst;
      inst.name = (pick(4) == 0 ? "a/b~" : "Inst") + std::to_string(i);
      for (std::uint32_t t = 0, n = 1 + pick(3); t < n; ++t) inst.types.push_back(randomType());
      d.instantiations.push_back(std::move(inst));
    }
    std::vector<std::uint32_t> rvas;
    for (std::uint32_t i = 0, n = pick(30); i < n; ++i) rvas.push_back(pick(4) == 0 ? pick(0xFFFFFFFFu) : i * 16);
    std::sort(rvas.begin(), rvas.end());
    rvas.erase(std::unique(rvas.begin(), rvas.end()), rvas.end());
    std::shuffle(rvas.begin(), rvas.end(), rng);
    std::vector<InstantiationDescription> inline_;
    // The JSON pointer each instantiation must get, spelled out here
    // independently of instantiationPointer(): named ones first, as in d.
    std::vector<std::string> pointers;
    for (const InstantiationDescription& inst : d.instantiations) {
      std::string p = "/instantiations/";
      for (char c : inst.name) {
        if (c == '~') p += "~0";
        else if (c == '/') p += "~1";
        else p += c;
      }
      pointers.push_back(p);
    }
    for (std::size_t i = 0; i < rvas.size(); ++i) {
      DictionaryDescription dict;
      dict.rva = rvas[i];
      std::string dictPointer = "/dictionaries/";
      dictPointer += std::to_string(i);
      const std::uint32_t form = namedCount == 0 ? 1 + pick(2) : pick(3);
      if (form == 0) {
        dict.instantiation = pick(namedCount);
      } else {
        InstantiationDescription inst;
        if (form == 1) {
          for (std::uint32_t t = 0, n = 1 + pick(3); t < n; ++t) inst.types.push_back(randomType());
          pointers.push_back(dictPointer + "/types");
        } else {
          Bytes raw(1 + pick(5));  // an item is at least its length prefix
          for (auto& b : raw) b = static_cast<std::uint8_t>(pick(256));
          inst.raw = raw;
          pointers.push_back(dictPointer + "/raw");
        }
        dict.instantiation = namedCount + inline_.size();
        inline_.push_back(std::move(inst));
      }
      d.dictionaries.push_back(std::move(dict));
    }
    for (InstantiationDescription& inst : inline_) d.instantiations.push_back(std::move(inst));
    REQUIRE(pointers.size() == d.instantiations.size());
    const InstantiationPointers batch(d);
    for (std::size_t j = 0; j < pointers.size(); ++j) {
      CHECK(instantiationPointer(d, j) == pointers[j]);
      CHECK(batch(j) == pointers[j]);
    }

    const std::string text = writeDescription(d);
    CAPTURE(text);
    const DescriptionParse p = parseDescription(text);
    for (const Diagnostic& x : p.diagnostics) {
      CAPTURE(formatDiagnostic(x, "f"));
      CHECK(x.rule == "unused-instantiation");
    }
    REQUIRE(p.description);
    CHECK(sameDescription(d, *p.description));
    for (std::size_t j = 0; j < pointers.size(); ++j) CHECK(instantiationPointer(*p.description, j) == pointers[j]);
    CHECK(writeDescription(*p.description) == text);
  }
}

// ---------------------------------------------------------------- schema

TEST_CASE("description: the JSON Schema is valid JSON describing the format") {
  std::ifstream in(std::string(GDMAP_SOURCE_DIR) + "/schema/gdmap-description.schema.json");
  REQUIRE(in);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const nlohmann::json schema = nlohmann::json::parse(buffer.str());
  CHECK(schema.at("$schema") == "https://json-schema.org/draft/2020-12/schema");
  CHECK(schema.contains("$id"));
  CHECK(schema.contains("title"));
  CHECK(schema.at("type") == "object");
  CHECK(schema.at("additionalProperties") == false);
  CHECK(schema.at("required") == nlohmann::json::array({"dictionaries"}));
  const auto& props = schema.at("properties");
  for (const char* key : {"$schema", "sorted", "instantiations", "dictionaries", "layout"}) CHECK(props.contains(key));
  CHECK(props.size() == 5);
  const auto& dictionary = schema.at("$defs").at("dictionary");
  // The three forms, and an "offset" alone (an override).
  CHECK(dictionary.at("oneOf").size() == 4);
  CHECK(schema.at("$defs").at("rva").at("oneOf").size() == 2);
  CHECK(schema.at("$defs").at("typeList").at("minItems") == 1);
  // A raw item has at least one byte (empty-raw-item): the pattern says so
  // too, with `+` over whole digit pairs (pairs of digits, white space
  // anywhere). Compared as text: g++ 12's std::regex trips -Wmaybe-uninitialized
  // under the sanitizers.
  CHECK(dictionary.at("oneOf").at(2).at("properties").at("raw").at("pattern").get<std::string>() ==
        "^[\\s]*([0-9a-fA-F][\\s]*[0-9a-fA-F][\\s]*)+$");

  // The description the docs start from passes our own reader, $schema
  // key included.
  const DescriptionParse p =
      parseDescription("{\"$schema\": \"" + schema.at("$id").get<std::string>() + "\", \"dictionaries\": []}");
  CHECK(p.diagnostics.empty());
}

TEST_CASE("description: mutated descriptions never crash and always locate their problems") {
  const std::string base = R"({"$schema": "x", "sorted": true,
  "instantiations": {"A~/": ["class 0x01000012<int32>", {"hex": "1d08"}], "B": ["string"]},
  "dictionaries": [{"rva": "0x10", "instantiation": "A~/"}, {"rva": 32, "types": ["int32", "!0[]"]},
                   {"rva": "0x30", "raw": "0201\u00308"}, {"rva": 64, "instantiation": "B"}]})";
  std::mt19937 rng(7);
  const std::string alphabet = "{}[]\",:0x1\\/~ tnf-e";
  for (int round = 0; round < 3000; ++round) {
    std::string text = base;
    for (int k = 0, n = 1 + static_cast<int>(rng() % 3); k < n && !text.empty(); ++k) {
      const std::size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0: text[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: text.erase(at, 1 + rng() % 4); break;
        default: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
      }
    }
    const DescriptionParse p = parseDescription(text);
    bool anyError = false;
    for (const Diagnostic& d : p.diagnostics) {
      CAPTURE(text);
      CAPTURE(formatDiagnostic(d, "f"));
      anyError = anyError || d.severity == Severity::Error;
      CHECK_FALSE(d.rule.empty());
      // Everything but the cap's note has a position in the text.
      if (d.rule != "too-many-diagnostics") {
        CHECK(d.line >= 1);
        CHECK(d.offset <= text.size());
      }
    }
    CHECK(p.description.has_value() == !anyError);
  }
}
