// gdmap::Diagnostic: the one text form, the one JSON form (checked against
// an independent parser), the Error -> Diagnostic helpers and quoteInput.
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/rules.hpp>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>

using gdmap::Diagnostic;
using gdmap::Severity;

namespace {

Diagnostic binaryExample() {
  Diagnostic d;
  d.rule = gdmap::rules::kOffsetOutsideHeap;
  d.path = "directory[1].offset";
  d.offset = 16;
  d.message = "heap offset 0x40 is outside the heap";
  return d;
}

}  // namespace

TEST_CASE("diagnostic: text form of a binary diagnostic names path, byte and rule") {
  Diagnostic d = binaryExample();
  CHECK(gdmap::formatDiagnostic(d, "m.gdmap") ==
        "m.gdmap: error: directory[1].offset (byte 0x00000010): heap offset 0x40 is outside the heap "
        "[offset-outside-heap]");
  // Without a name the line starts at the severity; the diagnostic's own
  // file is used when the caller names none.
  CHECK(gdmap::formatDiagnostic(d) ==
        "error: directory[1].offset (byte 0x00000010): heap offset 0x40 is outside the heap [offset-outside-heap]");
  d.file = "own.gdmap";
  CHECK(gdmap::formatDiagnostic(d).rfind("own.gdmap: error: ", 0) == 0);
  CHECK(gdmap::formatDiagnostic(d, "caller.gdmap").rfind("caller.gdmap: error: ", 0) == 0);
  d.path.clear();
  d.severity = Severity::Warning;
  CHECK(gdmap::formatDiagnostic(d, "m") ==
        "m: warning: byte 0x00000010: heap offset 0x40 is outside the heap [offset-outside-heap]");
  d.severity = Severity::Note;
  d.offset = Diagnostic::npos;
  d.rule.clear();
  CHECK(gdmap::formatDiagnostic(d, "m") == "m: note: heap offset 0x40 is outside the heap");
}

TEST_CASE("diagnostic: text form of a text diagnostic names line and column, not the byte") {
  const gdmap::Error error{7, "expected a type", gdmap::rules::kTypeTextSyntax};
  Diagnostic d = gdmap::textDiagnostic(error, "int32\nint32<", 1, "/dictionaries/0");
  CHECK(d.line == 2);
  CHECK(d.column == 2);
  CHECK(d.offset == 7);
  CHECK(d.rule == "type-text-syntax");
  CHECK(gdmap::formatDiagnostic(d, "f.json") ==
        "f.json:2:2: error: /dictionaries/0: expected a type [type-text-syntax]");
}

TEST_CASE("diagnostic: textDiagnostic counts columns in code points and starts at firstLine") {
  // "é" is two bytes: byte 3 is the third character.
  const Diagnostic d = gdmap::textDiagnostic(gdmap::Error{3, "m", "r"}, "\xC3\xA9xy", 41);
  CHECK(d.line == 41);
  CHECK(d.column == 3);
  // An offset past the end points just past the last character.
  const Diagnostic end = gdmap::textDiagnostic(gdmap::Error{99, "m", "r"}, "ab\ncd", 1);
  CHECK(end.offset == 5);
  CHECK(end.line == 2);
  CHECK(end.column == 3);
  const Diagnostic empty = gdmap::textDiagnostic(gdmap::Error{0, "m", "r"}, "", 1);
  CHECK(empty.line == 1);
  CHECK(empty.column == 1);
}

TEST_CASE("diagnostic: binaryDiagnostic adds the base offset and keeps the rule") {
  const Diagnostic d = gdmap::binaryDiagnostic(gdmap::Error{3, "bad", gdmap::rules::kInvalidType}, "heap@0x4.type[0]",
                                               100, Severity::Warning);
  CHECK(d.offset == 103);
  CHECK(d.path == "heap@0x4.type[0]");
  CHECK(d.rule == "invalid-type");
  CHECK(d.severity == Severity::Warning);
  CHECK(d.line == 0);
}

TEST_CASE("diagnostic: JSON form has the documented keys in order") {
  Diagnostic d = binaryExample();
  d.file = "m.gdmap";
  CHECK(gdmap::diagnosticJson(d) ==
        R"({"severity": "error", "rule": "offset-outside-heap", "message": "heap offset 0x40 is outside the heap", )"
        R"("file": "m.gdmap", "path": "directory[1].offset", "offset": 16})");
  Diagnostic t = gdmap::textDiagnostic(gdmap::Error{1, "m", "r"}, "ab", 3);
  t.severity = Severity::Note;
  CHECK(gdmap::diagnosticJson(t) ==
        R"({"severity": "note", "rule": "r", "message": "m", "path": "", "offset": 1, "line": 3, "column": 2})");
  Diagnostic none;
  none.rule = gdmap::rules::kUsage;
  none.message = "x";
  const auto parsed = nlohmann::json::parse(gdmap::diagnosticJson(none));
  CHECK(parsed["offset"].is_null());
  CHECK(parsed["rule"] == "usage");
  CHECK_FALSE(parsed.contains("line"));
  CHECK_FALSE(parsed.contains("file"));
}

TEST_CASE("diagnostic: JSON strings are valid for any bytes") {
  // Control characters, quotes, backslashes, valid UTF-8 and every kind of
  // invalid UTF-8: a lone continuation byte, a truncated sequence, an
  // overlong form, a surrogate, a code point above U+10FFFF, 0xFF.
  const std::string nasty = std::string("a\"b\\c\n\t\x01\x1f\x7f") + "\xC3\xA9" + "\xE2\x82\xAC" + "\xF0\x9F\x98\x80" +
                            "\x80" + "\xE2\x82" + "\xC0\xAF" + "\xED\xA0\x80" + "\xF4\x90\x80\x80" + "\xFF" +
                            std::string(1, '\0') + "z";
  std::string out;
  gdmap::appendJsonString(nasty, out);
  nlohmann::json parsed;
  REQUIRE_NOTHROW(parsed = nlohmann::json::parse(out));
  const std::string back = parsed.get<std::string>();
  CHECK(back.rfind(std::string("a\"b\\c\n\t\x01\x1f\x7f") + "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", 0) == 0);
  CHECK(back.find("\xEF\xBF\xBD") != std::string::npos);  // U+FFFD for the bad bytes
  CHECK(back.back() == 'z');
  CHECK(back.find(std::string(1, '\0')) != std::string::npos);
  // The parser above rejects invalid UTF-8, so none got through; 0xFF can
  // be in no UTF-8 text at all.
  CHECK(out.find('\xFF') == std::string::npos);
  CHECK(out.find('\n') == std::string::npos);

  Diagnostic d;
  d.rule = "r";
  d.message = nasty;
  d.path = nasty;
  d.file = nasty;
  CHECK(nlohmann::json::accept(gdmap::diagnosticJson(d)));
}

TEST_CASE("diagnostic: diagnosticsJson is an indented array, [] when empty") {
  CHECK(gdmap::diagnosticsJson({}) == "[]");
  Diagnostic a = binaryExample();
  Diagnostic b = binaryExample();
  b.severity = Severity::Warning;
  const std::string text = gdmap::diagnosticsJson({a, b}, 2);
  CHECK(text.rfind("[\n    {\"severity\": \"error\"", 0) == 0);
  CHECK(text.find(",\n    {\"severity\": \"warning\"") != std::string::npos);
  CHECK(text.substr(text.size() - 5) == "}\n  ]");
  const auto parsed = nlohmann::json::parse(text);
  REQUIRE(parsed.size() == 2);
  CHECK(parsed[1]["severity"] == "warning");
}

TEST_CASE("diagnostic: quoteInput caps, escapes, and never passes bad UTF-8 through") {
  CHECK(gdmap::quoteInput("int32") == "'int32'");
  CHECK(gdmap::quoteInput("a'b\\c") == "'a\\'b\\\\c'");
  CHECK(gdmap::quoteInput("a\nb\x7f") == "'a\\x0ab\\x7f'");
  CHECK(gdmap::quoteInput("\xC3\xA9") == "'\xC3\xA9'");
  CHECK(gdmap::quoteInput("a\xFF\x80z") == "'a\\xff\\x80z'");
  CHECK(gdmap::quoteInput("\xED\xA0\x80") == "'\\xed\\xa0\\x80'");  // a surrogate is not UTF-8
  const std::string huge(200'000'000 / 1000, 'x');                  // the size does not matter, the cap does
  const std::string quoted = gdmap::quoteInput(huge);
  CHECK(quoted == "'" + std::string(gdmap::kMaxQuotedBytes, 'x') + "'...");
  // The cut never splits a character.
  const std::string accents = "x\xC3\xA9\xC3\xA9";
  CHECK(gdmap::quoteInput(accents, 2) == "'x'...");
  CHECK(gdmap::quoteInput(accents, 3) == "'x\xC3\xA9'...");
}

TEST_CASE("diagnostic: a path, pointer or file name from the input is shown capped, in text and JSON") {
  CHECK(gdmap::shownPath("/dictionaries/3/types/1") == "/dictionaries/3/types/1");
  const std::string exact(gdmap::kMaxShownPathBytes, 'k');
  CHECK(gdmap::shownPath(exact) == exact);
  // A 1 MB key: its first bytes, the ellipsis, the last (the index the
  // pointer ends with), the full length.
  const std::string pointer = "/instantiations/" + std::string(1'000'000, 'N') + "/17";
  const std::string shown = gdmap::shownPath(pointer);
  CHECK(shown.size() < 2 * gdmap::kMaxShownPathBytes);
  CHECK(shown.rfind("/instantiations/NNN", 0) == 0);
  CHECK(shown.find("NNN\xE2\x80\xA6NNN") != std::string::npos);
  CHECK(shown.find("/17 (" + std::to_string(pointer.size()) + " bytes)") != std::string::npos);
  // Neither end splits a character.
  std::string accents;
  for (int i = 0; i < 200; ++i) accents += "\xC3\xA9";
  const std::string shownAccents = gdmap::shownPath(accents);
  std::string json;
  gdmap::appendJsonString(shownAccents, json);
  CHECK(json.find("\\ufffd") == std::string::npos);

  Diagnostic d;
  d.rule = "unknown-key";
  d.path = pointer;
  d.file = std::string(300, 'f');
  d.message = std::string(100'000, 'm');
  const std::string text = gdmap::formatDiagnostic(d);
  CHECK(text.size() < 2 * gdmap::kMaxShownPathBytes + gdmap::kMaxShownMessageBytes + 100);
  CHECK(text.find("(300 bytes): error: /instantiations/") != std::string::npos);
  CHECK(text.find(shown) != std::string::npos);
  const std::string object = gdmap::diagnosticJson(d);
  CHECK(object.size() < 2 * gdmap::kMaxShownPathBytes + gdmap::kMaxShownMessageBytes + 200);
  CHECK(object.find(shown) != std::string::npos);
  // The diagnostic itself keeps the exact pointer, for a program to follow.
  CHECK(d.path == pointer);
}

TEST_CASE("diagnostic: severity names") {
  CHECK(std::string(gdmap::severityName(Severity::Error)) == "error");
  CHECK(std::string(gdmap::severityName(Severity::Warning)) == "warning");
  CHECK(std::string(gdmap::severityName(Severity::Note)) == "note");
}
