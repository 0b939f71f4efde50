// Descriptions with // and /* */ comments (issue 10, "CLI that helps"):
// the parser skips them, and the locator that turns JSON pointers into
// line:column treats them as white space too, so positions stay right.
// The CLI side (suggestions, wrong-kind notes, the caret line) is covered
// by tests/cli/friendly_cli.sh.
#include <gdmap/internal/json_locator.hpp>

#include <gdmap/description/description_json.hpp>
#include <gdmap/description/il_description_json.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>

namespace {

const char* const kPlain =
    R"({"sorted": true, "instantiations": {"L": ["class 0x01000012<int32>"]},
"dictionaries": [{"rva": "0x1000", "instantiation": "L"}, {"rva": 4112, "types": ["string", {"hex": "1d08"}]},
{"rva": 32, "raw": "020108"}]})";

// The same description with comments wherever white space may be, holding
// what would confuse a scanner that did not know them: quotes, brackets,
// braces, commas, colons and a "*/" look-alike inside a // comment.
const char* const kCommented = R"(// a map for the tests "quoted" { [
/* block */ { /* "sorted": false, */ "sorted" /*k*/ : /*v*/ true // ]}
, "instantiations": {"L": [/* first */ "class 0x01000012<int32>" /* last */]},
"dictionaries": [ // */ is nothing here
{"rva": "0x1000", "instantiation": "L"}/*,*/, {"rva": 4112/*no space*/, "types": ["string", {"hex": "1d08"}]},
{"rva": 32, "raw": "020108"}]} /* trailing */
// end)";

}  // namespace

TEST_CASE("comments: a description with comments everywhere builds the map it builds without them") {
  const gdmap::DescriptionBuild plain = gdmap::buildMapFromDescription(kPlain);
  const gdmap::DescriptionBuild commented = gdmap::buildMapFromDescription(kCommented);
  REQUIRE(plain.map.has_value());
  REQUIRE(commented.map.has_value());
  CHECK(commented.diagnostics.empty());
  CHECK(*commented.map == *plain.map);
}

TEST_CASE("comments: a diagnostic after comments has the line and column of its value") {
  // The unknown key's value sits on line 3 after a block comment that holds
  // a quote and a brace, and a line comment before it holds more.
  const std::string text =
      "{ // \"x\": {\n"
      "  \"dictionaries\": [], /* \"extra\": [ */\n"
      "  /* { */ \"extra\": /* ] */ 1 }\n";
  const gdmap::DescriptionParse parsed = gdmap::parseDescription(text);
  REQUIRE(parsed.diagnostics.size() == 1);
  const gdmap::Diagnostic& d = parsed.diagnostics[0];
  CHECK(d.rule == "unknown-key");
  CHECK(d.path == "/extra");
  CHECK(d.line == 3);
  CHECK(d.column == 28);  // the 1, after "/* ] */ "
  CHECK(text.substr(d.offset, 1) == "1");
}

TEST_CASE("comments: a value right after a literal and a comment is located") {
  // "16/*x*/" has no space between the number and the comment: the literal
  // ends at the '/'.
  const std::string text = "{\"dictionaries\": [{\"rva\": 16/*x*/, \"raw\": \"0201\", \"bad\": 2}]}";
  const gdmap::DescriptionParse parsed = gdmap::parseDescription(text);
  REQUIRE(!parsed.diagnostics.empty());
  const gdmap::Diagnostic& d = parsed.diagnostics[0];
  CHECK(d.rule == "unknown-key");
  CHECK(d.path == "/dictionaries/0/bad");
  CHECK(text.substr(d.offset, 1) == "2");
}

TEST_CASE("comments: the locator skips comments inside skipped values") {
  using gdmap::json_location::locatePointers;
  // The first member's value is skipped whole: a comment inside it that
  // holds a closing bracket must not end it early.
  const std::string text = R"({"a": [1, /* ] } */ {"b": "]"} // ]
], "c": /* "c": 0 */ [7, 8]})";
  const auto found = locatePointers(text, {"/c/1", "/a/1/b"});
  REQUIRE(found.size() == 2);
  REQUIRE(found[0] != gdmap::json_location::npos);
  CHECK(text.substr(found[0], 1) == "8");
  REQUIRE(found[1] != gdmap::json_location::npos);
  CHECK(text.substr(found[1], 3) == "\"]\"");
}

TEST_CASE("comments: an unterminated block comment is invalid-json with a position") {
  const std::string text = "{\"dictionaries\": []\n/* never closed\n";
  const gdmap::DescriptionParse parsed = gdmap::parseDescription(text);
  REQUIRE(parsed.diagnostics.size() == 1);
  const gdmap::Diagnostic& d = parsed.diagnostics[0];
  CHECK(d.rule == "invalid-json");
  CHECK(d.line >= 2);
  CHECK(d.column >= 1);
  CHECK(d.offset != gdmap::Diagnostic::npos);
  CHECK(d.message.find("comment") != std::string::npos);
}

TEST_CASE("comments: a lone slash is still invalid-json") {
  const gdmap::DescriptionParse parsed = gdmap::parseDescription("{\"dictionaries\": [] / }");
  REQUIRE(parsed.diagnostics.size() == 1);
  CHECK(parsed.diagnostics[0].rule == "invalid-json");
  CHECK(parsed.diagnostics[0].line == 1);
}

TEST_CASE("comments: an IL description may carry comments, positions after them right") {
  const std::string commented =
      "// one method\n"
      "{ \"methods\": [ /* the only one */ { \"token\": \"0x06000001\", \"codeSize\": 8,\n"
      "  \"bounds\": [ { \"native\": 0, \"il\": 0 } /* , { \"native\": 4 } */ ] } ] }\n";
  const gdmap::il::IlDescriptionParse parsed = gdmap::il::parseIlDescription(commented);
  REQUIRE(parsed.methods.has_value());
  REQUIRE(parsed.methods->size() == 1);
  CHECK((*parsed.methods)[0].bounds.size() == 1);

  const std::string bad =
      "{ /* \"methods\": */ \"methods\": [ { \"token\": \"0x06000001\",\n"
      "  /* \"x\": 1 */ \"oops\": 1, \"bounds\": [] } ] }\n";
  const gdmap::il::IlDescriptionParse wrong = gdmap::il::parseIlDescription(bad);
  REQUIRE(!wrong.diagnostics.empty());
  const gdmap::Diagnostic& d = wrong.diagnostics[0];
  CHECK(d.rule == "unknown-key");
  CHECK(d.line == 2);
  CHECK(bad.substr(d.offset, 1) == "1");
}
