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
