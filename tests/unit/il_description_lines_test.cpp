// The description's keys for people that `il extract --names --lines`
// writes: a method's "signature" and "document", a bound's "line",
// "column" and "document"; read back into the model, written back as they
// were, never part of a method's bytes; written whole or in pieces alike.
#include <gdmap/description/il_description_json.hpp>

#include <doctest/doctest.h>

#include <string>

namespace il = gdmap::il;

TEST_CASE("il description: signatures and source lines read back and are written as read") {
  const std::string text = R"json({
  "methods": [
    {
      "token": "0x06000001",
      "codeSize": 48,
      "name": "Sample.Helper::Twice",
      "signature": "Sample.Helper.Twice(Int32)",
      "document": "/src/sample/Helper.cs",
      "bounds": [
        { "native": 0, "il": "prolog", "source": ["stack_empty"] },
        { "native": 1, "il": 0, "source": ["stack_empty"], "line": 9, "column": 9 },
        { "native": 5, "il": 15, "line": 11 },
        { "native": 10, "il": 4, "line": 200, "column": 5, "document": "/src/sample/Generated.txt" }
      ]
    }
  ]
}
)json";
  const il::IlDescriptionParse parsed = il::parseIlDescription(text);
  REQUIRE(parsed.methods);
  CHECK(parsed.diagnostics.empty());
  const il::Method& m = parsed.methods->front();
  CHECK(m.signature == "Sample.Helper.Twice(Int32)");
  CHECK(m.document == "/src/sample/Helper.cs");
  REQUIRE(m.lines.size() == 4);
  CHECK(m.lines[0].line == 0);  // the prolog: none
  CHECK(m.lines[1] == il::BoundLine{"", 9, 9});
  CHECK(m.lines[2] == il::BoundLine{"", 11, 0});
  CHECK(m.lines[3] == il::BoundLine{"/src/sample/Generated.txt", 200, 5});
  CHECK(il::writeIlDescription(*parsed.methods) == text);

  // In pieces, the same text.
  std::string pieces;
  il::appendIlDescriptionHead(pieces);
  il::appendIlDescriptionMethod(m, 0, pieces);
  il::appendIlDescriptionTail(1, pieces);
  CHECK(pieces == text);
  std::string none;
  il::appendIlDescriptionHead(none);
  il::appendIlDescriptionTail(0, none);
  CHECK(none == il::writeIlDescription({}));
}

TEST_CASE("il description: a line of the wrong type is an error at its place") {
  const il::IlDescriptionParse parsed = il::parseIlDescription(
      R"({"methods": [{"token": 1, "bounds": [{"native": 0, "il": 0, "line": "nine", "document": 3}]}]})");
  CHECK_FALSE(parsed.methods);
  REQUIRE(parsed.diagnostics.size() == 2);
  CHECK(parsed.diagnostics[0].rule == "invalid-number");  // a number, or "0x..." hex
  CHECK(parsed.diagnostics[0].path == "/methods/0/bounds/0/line");
  CHECK(parsed.diagnostics[1].rule == "wrong-type");
  CHECK(parsed.diagnostics[1].path == "/methods/0/bounds/0/document");
}
