// The plain JSON parser (schema/internal/gdmap/internal/plain_json_sax.hpp), which
// reads plain descriptions instead of nlohmann's parser: the same events
// for every plain text, the same verdict, and nlohmann's own words for a
// syntax error; MappedFile::release, which lets `build` drop what it read.
#include <gdmap/internal/plain_json_sax.hpp>
#include "tests/support/json_event_log.hpp"

#include <gdmap/description/description_json.hpp>
#include <gdmap/io/mapped_file.hpp>

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

using gdmap::internal::isPlainJson;
using gdmap::testing::plainParserDisagreement;

TEST_CASE("plain json: which texts are plain") {
  CHECK(isPlainJson(""));
  CHECK(isPlainJson("{\"a\": [1, 2.5e3, true, null]}\r\n\t// comment"));
  CHECK(isPlainJson(std::string(10000, ' ') + "\x7f"));       // DEL is printable to JSON
  CHECK_FALSE(isPlainJson("\"\\n\""));                        // an escape
  CHECK_FALSE(isPlainJson("\"\xc3\xa9\""));                   // UTF-8
  CHECK_FALSE(isPlainJson(std::string("{}\0", 3)));           // NUL: nlohmann's end of input
  CHECK_FALSE(isPlainJson(std::string(9000, ' ') + "\x01"));  // past the first block
}

TEST_CASE("plain json: agrees with nlohmann on every edge of the grammar") {
  const std::vector<std::string> texts = {
      "",
      " ",
      "{}",
      "[]",
      "{ }",
      "[ ]",
      "0",
      "-0",
      "1",
      "-",
      "--1",
      "01",
      "1.",
      ".5",
      "1.5",
      "1e",
      "1e+",
      "1E-2",
      "1.5e300",
      "1e400",
      "-1e400",
      "18446744073709551615",
      "18446744073709551616",
      "-9223372036854775808",
      "-9223372036854775809",
      "12345678901234567890123",
      "0x10",
      "true",
      "tru",
      "truex",
      "false",
      "null",
      "nul",
      "\"",
      "\"abc",
      "\"abc\"",
      "\"a\tb\"",
      "\"a\nb\"",
      "\"\"",
      "{\"a\":1}",
      "{\"a\" :1,}",
      "{\"a\":1,\"a\":2}",
      "[1,]",
      "[,1]",
      "[1 2]",
      "{\"a\"}",
      "{\"a\":}",
      "{1:2}",
      "{\"a\":1}}",
      "[[[[]]]]",
      "[[[[]]]",
      "{}{}",
      "{} x",
      "// c\n{}",
      "{}// c",
      "{}/* c */",
      "/* c */ {} /* d */",
      "{}/",
      "{}/x",
      "{} /* open",
      "/**/1",
      "/*/1",
      "/***/1",
      "//\r1",
      "[1 // c\n, 2]",
      "{\"a\" /* c */ : /* d */ 1}",
      "[1e5, -0.0, 2E+3, 0.1e-1]",
      "{\"dictionaries\": [{\"rva\": \"0x10\", \"types\": [\"int32\", {\"hex\": \"08\"}]}]}",
      "\x7f",
      "[\"\x7f\"]",
  };
  for (const std::string& text : texts) {
    CAPTURE(text);
    CHECK(plainParserDisagreement(text) == "");
  }
}

namespace {

// A random JSON value of the kinds descriptions hold, with random white
// space and comments between tokens.
class RandomJson {
 public:
  explicit RandomJson(unsigned seed) : random_(seed) {}

  std::string document() {
    std::string out;
    value(out, 0);
    space(out);
    return out;
  }

 private:
  unsigned pick(unsigned n) { return std::uniform_int_distribution<unsigned>(0, n - 1)(random_); }

  void space(std::string& out) {
    static const char* const kSpaces[] = {"", " ", "\n", "\t", "\r\n", "  ", "/* c */", "// line\n", "/**/"};
    const unsigned n = pick(3);
    for (unsigned i = 0; i < n; ++i) out += kSpaces[pick(9)];
  }
  void string(std::string& out) {
    static const char kChars[] = "abcXYZ019 _-.,:{}[]/*!?<>'`~#$%^&()+=|@\x7f";
    out += '"';
    const unsigned n = pick(12);
    for (unsigned i = 0; i < n; ++i) out += kChars[pick(sizeof kChars - 1)];
    out += '"';
  }
  void number(std::string& out) {
    static const char* const kNumbers[] = {
        "0",   "-0",      "7",     "4294967295",           "4294967296", "-1",           "1.5",
        "1e3", "-2.5E-3", "1e308", "99999999999999999999", "0.000001",   "123456789012", "-9223372036854775808"};
    out += kNumbers[pick(sizeof kNumbers / sizeof kNumbers[0])];
  }
  void value(std::string& out, unsigned depth) {
    space(out);
    switch (depth > 4 ? pick(4) : pick(7)) {
      case 0: string(out); break;
      case 1: number(out); break;
      case 2: out += pick(2) != 0 ? "true" : (pick(2) != 0 ? "false" : "null"); break;
      case 3: string(out); break;
      case 4:
      case 5: {
        out += '{';
        const unsigned n = pick(4);
        for (unsigned i = 0; i < n; ++i) {
          if (i != 0) out += ',';
          space(out);
          string(out);
          space(out);
          out += ':';
          value(out, depth + 1);
          space(out);
        }
        space(out);
        out += '}';
        break;
      }
      default: {
        out += '[';
        const unsigned n = pick(4);
        for (unsigned i = 0; i < n; ++i) {
          if (i != 0) out += ',';
          value(out, depth + 1);
          space(out);
        }
        space(out);
        out += ']';
      }
    }
  }

  std::mt19937 random_;
};

}  // namespace

TEST_CASE("plain json: agrees with nlohmann on random documents and their mutations (seeded)") {
  RandomJson generator(20261123);
  std::mt19937 random(7);
  static const char kAlphabet[] = "{}[],:\"/*\n 0123456789-+.eEtrufalsn\\\t";
  std::size_t accepted = 0;
  std::size_t rejected = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string doc = generator.document();
    CAPTURE(doc);
    REQUIRE(plainParserDisagreement(doc) == "");
    ++accepted;
    for (int m = 0; m < 6 && !doc.empty(); ++m) {
      std::string mutated = doc;
      const std::size_t at = std::uniform_int_distribution<std::size_t>(0, mutated.size() - 1)(random);
      const char c = kAlphabet[std::uniform_int_distribution<std::size_t>(0, sizeof kAlphabet - 2)(random)];
      switch (m % 4) {
        case 0: mutated.erase(at, 1); break;
        case 1: mutated.insert(mutated.begin() + static_cast<std::ptrdiff_t>(at), c); break;
        case 2: mutated[at] = c; break;
        default: mutated.resize(at); break;
      }
      CAPTURE(mutated);
      REQUIRE(plainParserDisagreement(mutated) == "");
      if (nlohmann::json::accept(mutated, true)) ++accepted;
      else ++rejected;
    }
  }
  // Both verdicts were compared, many times each.
  CHECK(accepted > 3000);
  CHECK(rejected > 3000);
}

TEST_CASE("plain json: nesting a million deep costs no stack") {
  // Run under the sanitizers' small stacks too: recursion would overflow.
  const std::size_t depth = 1000000;
  const std::string arrays = std::string(depth, '[') + std::string(depth, ']');
  const std::string objects = [&] {
    std::string text;
    for (std::size_t i = 0; i < depth; ++i) text += "{\"a\":";
    text += "1";
    text += std::string(depth, '}');
    return text;
  }();
  for (const std::string* text : {&arrays, &objects}) {
    gdmap::testing::JsonEventLog log;
    const char* readTo = text->data();
    CHECK(gdmap::internal::PlainJsonParser<gdmap::testing::JsonEventLog>(*text, log, readTo).parse());
    CHECK(readTo == text->data() + text->size());
    const std::string open = text->substr(0, text->size() - depth);  // never closed
    gdmap::testing::JsonEventLog unclosed;
    CHECK_FALSE(gdmap::internal::PlainJsonParser<gdmap::testing::JsonEventLog>(open, unclosed, readTo).parse());
  }
  CHECK(plainParserDisagreement(std::string(20000, '[') + std::string(19999, ']')) == "");
}

TEST_CASE("plain json: a syntax error reads the same whichever parser found it") {
  // The same broken description, plain and (a comment with UTF-8 in it)
  // not plain: one goes through the plain parser, the other through
  // nlohmann's; the diagnostic must be the same, word for word and place.
  const std::string broken = "{\"dictionaries\": [\n  {\"rva\": 1, \"raw\": \"00\"},\n  {\"rva\" 2}\n]}";
  const std::string notPlain = "/* caf\xc3\xa9 */" + broken;
  REQUIRE(isPlainJson(broken));
  REQUIRE_FALSE(isPlainJson(notPlain));
  const gdmap::DescriptionParse plain = gdmap::parseDescription(broken);
  const gdmap::DescriptionParse other = gdmap::parseDescription(notPlain);
  REQUIRE(plain.diagnostics.size() == 1);
  REQUIRE(other.diagnostics.size() == 1);
  const gdmap::Diagnostic& a = plain.diagnostics[0];
  const gdmap::Diagnostic& b = other.diagnostics[0];
  CHECK(a.rule == "invalid-json");
  CHECK(a.message == b.message);
  CHECK(a.message.find("expected ':'") != std::string::npos);
  CHECK(a.line == 3);
  CHECK(a.line == b.line);
  CHECK(a.column == b.column);
  CHECK(a.offset + std::string("/* caf\xc3\xa9 */").size() == b.offset);
}

TEST_CASE("plain json: an unused instantiation is found from where its name ends") {
  // Comments and white space between the name and its value: the warning
  // is at the value, as the full scan would have found it.
  const std::string text =
      "{\"instantiations\": {\"used\": [\"int32\"],\n  \"spare\" /* : [ */ :\n   // x\n   [\"string\"]},\n"
      " \"dictionaries\": [{\"rva\": 1, \"instantiation\": \"used\"}]}";
  for (const std::string& variant : {text, text + "// \xc3\xa9"}) {  // plain, and nlohmann's
    const gdmap::DescriptionParse p = gdmap::parseDescription(variant);
    REQUIRE(p.diagnostics.size() == 1);
    const gdmap::Diagnostic& d = p.diagnostics[0];
    CHECK(d.rule == "unused-instantiation");
    CHECK(d.path == "/instantiations/spare");
    CHECK(variant.substr(d.offset, 10) == "[\"string\"]");
    CHECK(d.line == 4);
    CHECK(d.column == 4);
    const gdmap::DescriptionBuild built = gdmap::buildMapFromDescription(variant);
    REQUIRE(built.diagnostics.size() == 1);
    CHECK(built.diagnostics[0].offset == d.offset);
  }
}

TEST_CASE("plain json: build reports its progress and the bytes read ascend to the end") {
  std::string text = "{\"dictionaries\": [";
  for (int i = 0; i < 200000; ++i)
    text += (i != 0 ? ",\n" : "") + std::string("{\"rva\": ") + std::to_string(i) + ", \"types\": [\"int32\"]}";
  text += "]}";
  std::vector<std::size_t> reported;
  gdmap::DescriptionBuildOptions options;
  options.onProgress = [&](std::size_t read) { reported.push_back(read); };
  const gdmap::DescriptionBuild built = gdmap::buildMapFromDescription(text, options);
  REQUIRE(built.map);
  CHECK(*built.map == *gdmap::buildMapFromDescription(text).map);
  // About every 4 MiB of a ~6 MiB text.
  REQUIRE(reported.size() >= 1);
  for (std::size_t i = 1; i < reported.size(); ++i) CHECK(reported[i] > reported[i - 1]);
  CHECK(reported.back() <= text.size());
  CHECK(reported.front() >= (std::size_t{4} << 20));
}

TEST_CASE("mapped file: released pages read back the same") {
  const std::string path = "/tmp/gdmap_plain_json_test_" + std::to_string(::getpid());
  std::string content;
  for (int i = 0; content.size() < 300000; ++i) content += std::to_string(i) + ' ';
  {
    std::ofstream out(path, std::ios::binary);
    out << content;
  }
  auto file = gdmap::MappedFile::open(path);
  REQUIRE(file.ok());
  const auto read = [&] {
    return std::string(reinterpret_cast<const char*>(file->bytes().data()), file->bytes().size());
  };
  REQUIRE(read() == content);
  file->release(100000);
  CHECK(read() == content);
  file->release(content.size() + 5);  // past the end: clamped
  CHECK(read() == content);
  file->release(0);
  CHECK(read() == content);
  std::remove(path.c_str());
}
