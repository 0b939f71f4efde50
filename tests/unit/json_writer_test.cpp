// gdmap::JsonWriter: the three layouts, the escapes, and a text written in
// pieces by writers that resume (as the IL description is).
#include <gdmap/description/json_writer.hpp>

#include <doctest/doctest.h>

#include <string>

using gdmap::JsonWriter;
using Layout = JsonWriter::Layout;

TEST_CASE("JsonWriter: Lines indents two spaces a level, an empty container stays on its line") {
  std::string out;
  JsonWriter w(out);
  w.beginObject();
  w.key("a");
  w.beginArray();
  w.number(1);
  w.beginArray();
  w.endArray();
  w.endArray();
  w.key("b");
  w.beginObject();
  w.endObject();
  w.endObject();
  CHECK(out == "{\n  \"a\": [\n    1,\n    []\n  ],\n  \"b\": {}\n}");
}

TEST_CASE("JsonWriter: Inline and Spaced containers") {
  std::string out;
  JsonWriter w(out);
  w.beginArray(Layout::Inline);
  w.beginObject(Layout::Spaced);
  w.key("rva");
  w.hex32(0x10);
  w.key("at");
  w.shortHex(0x7f00);
  w.endObject();
  w.beginObject(Layout::Spaced);
  w.endObject();
  w.beginObject(Layout::Inline);
  w.key("raw");
  w.hexBytes(gdmap::Bytes{0x0e, 0x08});
  w.key("ok");
  w.boolean(false);
  w.key("none");
  w.null();
  w.endObject();
  w.endArray();
  CHECK(out == R"([{ "rva": "0x00000010", "at": "0x7f00" }, {}, {"raw": "0e08", "ok": false, "none": null}])");
}

TEST_CASE("JsonWriter: strings are escaped, keys only by stringKey") {
  std::string out;
  JsonWriter w(out);
  w.beginObject(Layout::Inline);
  w.stringKey("a\"b");
  w.string("line\n\x7f\xff");
  w.key("c");
  w.string("tab\t\x7f", JsonWriter::Escape::Controls);
  w.key("d");
  w.plainString("0x40");
  w.key("e");
  w.raw("[1, 2]");
  w.endObject();
  CHECK(out == "{\"a\\\"b\": \"line\\n\\u007f\\ufffd\", \"c\": \"tab\\u0009\x7f\", \"d\": \"0x40\", \"e\": [1, 2]}");
}

TEST_CASE("JsonWriter: a text written in pieces, by writers that resume") {
  std::string out;
  {
    JsonWriter head(out);
    head.beginObject();
    head.key("methods");
    head.beginArray();
  }
  for (int i = 0; i < 2; ++i) {
    JsonWriter w(out);
    w.resume(Layout::Lines, true);
    w.resume(Layout::Lines, i != 0);
    w.number(static_cast<std::uint64_t>(i));
  }
  JsonWriter tail(out);
  tail.resume(Layout::Lines, true);
  tail.resume(Layout::Lines, true);
  tail.endArray();
  tail.endObject();
  CHECK(out == "{\n  \"methods\": [\n    0,\n    1\n  ]\n}");
}

TEST_CASE("JsonWriter: hex32's digits and letters, a deep level's indentation") {
  std::string out;
  JsonWriter w(out);
  w.beginArray(Layout::Inline);
  w.hex32(0x89abcdef);
  w.hex32(0xfedcba98);
  w.hex32(0);
  w.endArray();
  CHECK(out == R"(["0x89abcdef", "0xfedcba98", "0x00000000"])");
  out.clear();
  JsonWriter deep(out);
  std::string expected;
  for (int level = 0; level < 12; ++level) {
    deep.beginArray();
    if (level != 0) expected.append("\n").append(2 * static_cast<std::size_t>(level), ' ');
    expected += '[';
  }
  deep.number(7);
  expected.append("\n").append(24, ' ').append("7");
  for (int level = 11; level >= 0; --level) {
    deep.endArray();
    expected.append("\n").append(2 * static_cast<std::size_t>(level), ' ').append("]");
  }
  CHECK(out == expected);
}

// Text inside nested containers waits in the writer; the string is whole
// between the outermost container's members and when the writer ends.
TEST_CASE("JsonWriter: the string is whole in the outermost container and at the writer's end") {
  std::string out;
  std::string expected = "{\n  \"many\": [";
  JsonWriter w(out);
  w.beginObject();
  w.key("many");
  w.beginArray(Layout::Inline);
  for (std::uint64_t i = 0; i < 5000; ++i) {
    w.number(i * 1000003);
    if (i != 0) expected += ", ";
    expected += std::to_string(i * 1000003);
  }
  CHECK(out.size() < expected.size());
  CHECK(expected.compare(0, out.size(), out) == 0);
  w.endArray();
  expected += "]";
  CHECK(out == expected);
  w.key("pair");
  w.beginObject(Layout::Spaced);
  w.member("a", 1);
  w.endObject();
  expected += ",\n  \"pair\": { \"a\": 1 }";
  CHECK(out == expected);
  std::string piece;
  {
    JsonWriter inner(piece);
    inner.resume(Layout::Lines, true);
    inner.resume(Layout::Inline, false);
    inner.plainString("x");
  }
  CHECK(piece == "\"x\"");
}
