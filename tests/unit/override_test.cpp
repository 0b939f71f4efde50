// Overrides in a description (issue #10): dictionaries' "offset" and
// /layout write bytes a canonical build would not, each with a
// layout-override note at its place; contradictions are errors. The model
// path (parseDescription + buildMap) and the streamed one
// (buildMapFromDescription) give the same bytes, and writeDescription()
// writes the overrides back.
#include <gdmap/description/description_json.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/writer/map_builder.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

namespace {

std::string built(const std::string& json) {
  const gdmap::DescriptionBuild b = gdmap::buildMapFromDescription(json);
  for (const gdmap::Diagnostic& d : b.diagnostics) INFO(d.rule, " ", d.path, ": ", d.message);
  REQUIRE(b.map.has_value());
  // The model path agrees, and so does its text written back.
  const gdmap::DescriptionParse parsed = gdmap::parseDescription(json);
  REQUIRE(parsed.description.has_value());
  const gdmap::Expected<gdmap::Bytes> model = gdmap::buildMap(*parsed.description);
  REQUIRE(model.ok());
  CHECK(gdmap::toHex(*model) == gdmap::toHex(*b.map));
  const gdmap::DescriptionBuild again = gdmap::buildMapFromDescription(gdmap::writeDescription(*parsed.description));
  REQUIRE(again.map.has_value());
  CHECK(gdmap::toHex(*again.map) == gdmap::toHex(*b.map));
  return gdmap::toHex(*b.map);
}

std::size_t count(const std::vector<gdmap::Diagnostic>& ds, std::string_view rule, gdmap::Severity severity) {
  return static_cast<std::size_t>(std::count_if(
      ds.begin(), ds.end(), [&](const gdmap::Diagnostic& d) { return d.rule == rule && d.severity == severity; }));
}

const gdmap::Diagnostic* find(const std::vector<gdmap::Diagnostic>& ds, std::string_view path) {
  for (const gdmap::Diagnostic& d : ds)
    if (d.path == path) return &d;
  return nullptr;
}

const gdmap::Diagnostic* withRule(const std::vector<gdmap::Diagnostic>& ds, std::string_view rule) {
  for (const gdmap::Diagnostic& d : ds)
    if (d.rule == rule) return &d;
  return nullptr;
}

}  // namespace

TEST_CASE("overrides: none given builds today's bytes, with no note") {
  const std::string json = R"({"dictionaries": [{"rva": 16, "types": ["int32"]}]})";
  CHECK(built(json) == "010000801000000000000000020108");
  CHECK(gdmap::buildMapFromDescription(json).diagnostics.empty());
}

TEST_CASE("overrides: count, offset, fill, trailing, truncate each write their bytes with a note") {
  const std::string json = R"({
  "dictionaries": [
    {"rva": 16, "types": ["int32"]},
    {"rva": 32, "raw": "020108", "offset": 4},
    {"rva": 48, "offset": "0xff"}
  ],
  "layout": {"count": "0x7fffffff", "fill": [{"offset": 3, "raw": "aa"}], "trailing": "bbcc", "truncate": 36}
})";
  // count 0x7fffffff; entries; heap 020108 aa 020108 bb cc, cut by one byte.
  CHECK(built(json) ==
        "ffffff7f"
        "1000000000000000"
        "2000000004000000"
        "30000000ff000000"
        "020108aa020108bb");
  const gdmap::DescriptionBuild b = gdmap::buildMapFromDescription(json);
  CHECK(b.errorCount == 0);
  CHECK(count(b.diagnostics, "layout-override", gdmap::Severity::Note) == 6);
  const gdmap::Diagnostic* offset = find(b.diagnostics, "/dictionaries/1/offset");
  REQUIRE(offset != nullptr);
  CHECK(offset->rule == gdmap::rules::kLayoutOverride);
  CHECK(offset->line == 4);
  CHECK(offset->column == 44);
  REQUIRE(find(b.diagnostics, "/layout/count") != nullptr);
  CHECK(find(b.diagnostics, "/layout/count")->line == 7);
  CHECK(find(b.diagnostics, "/layout/fill/0") != nullptr);
  CHECK(find(b.diagnostics, "/layout/trailing") != nullptr);
  CHECK(find(b.diagnostics, "/layout/truncate") != nullptr);
  CHECK(find(b.diagnostics, "/dictionaries/2/offset") != nullptr);
}

TEST_CASE("overrides: a count equal to the canonical one is no note") {
  const gdmap::DescriptionBuild b =
      gdmap::buildMapFromDescription(R"({"dictionaries": [{"rva": 1, "raw": "00"}], "layout": {"count": 2147483649}})");
  REQUIRE(b.map.has_value());
  CHECK(b.diagnostics.empty());
}

TEST_CASE("overrides: duplicate RVAs are an error unless /layout/duplicateRvas, then a note") {
  const std::string dictionaries = R"("dictionaries": [{"rva": 16, "raw": "00"}, {"rva": 16, "raw": "01"}])";
  const gdmap::DescriptionBuild refused = gdmap::buildMapFromDescription("{" + dictionaries + "}");
  CHECK_FALSE(refused.map.has_value());
  CHECK(count(refused.diagnostics, "duplicate-rva", gdmap::Severity::Error) == 1);
  const std::string allowed = "{" + dictionaries + R"(, "layout": {"duplicateRvas": true}})";
  CHECK(built(allowed) ==
        "02000080"
        "1000000000000000"
        "1000000001000000"
        "0001");
  const gdmap::DescriptionBuild b = gdmap::buildMapFromDescription(allowed);
  REQUIRE(find(b.diagnostics, "/dictionaries/1/rva") != nullptr);
  CHECK(find(b.diagnostics, "/dictionaries/1/rva")->rule == "layout-override");
}

TEST_CASE("overrides: unsorted with bit 31 set, items out of order and overlapping") {
  // Bit 31 set over an unsorted directory; the second item is placed
  // first; the third shares bytes with the first where they overlap.
  const std::string json = R"({"sorted": false, "layout": {"count": "0x80000003"}, "dictionaries": [
    {"rva": 32, "raw": "020108", "offset": 3},
    {"rva": 16, "raw": "02010e", "offset": 0},
    {"rva": 48, "raw": "0108", "offset": 4}
  ]})";
  CHECK(built(json) ==
        "03000080"
        "2000000003000000"
        "1000000000000000"
        "3000000004000000"
        "02010e020108");
}

TEST_CASE("overrides: placed items that disagree on a byte are placement-conflict") {
  const gdmap::DescriptionBuild b = gdmap::buildMapFromDescription(R"({"dictionaries": [
    {"rva": 16, "raw": "020108", "offset": 0},
    {"rva": 32, "raw": "02010e", "offset": 0}
  ]})");
  CHECK_FALSE(b.map.has_value());
  REQUIRE(b.errorCount == 1);
  const gdmap::Diagnostic* conflict = withRule(b.diagnostics, "placement-conflict");
  REQUIRE(conflict != nullptr);
  CHECK(conflict->path == "/dictionaries/1");
  CHECK(conflict->line == 3);
  CHECK(conflict->message.find("heap byte 0x2 would be 0x0e, but /dictionaries/0 puts 0x08") == 0);
  // The same through the model.
  const gdmap::DescriptionParse parsed = gdmap::parseDescription(R"({"dictionaries": [
    {"rva": 16, "raw": "020108", "offset": 0}], "layout": {"fill": [{"offset": 1, "raw": "ff"}]}})");
  REQUIRE(parsed.description.has_value());
  const gdmap::Expected<gdmap::Bytes> model = gdmap::buildMap(*parsed.description);
  REQUIRE_FALSE(model.ok());
  CHECK(model.error().rule == gdmap::rules::kPlacementConflict);
}

TEST_CASE("overrides: truncate past the end is truncate-past-end") {
  const gdmap::DescriptionBuild b =
      gdmap::buildMapFromDescription(R"({"dictionaries": [], "layout": {"truncate": 5}})");
  CHECK_FALSE(b.map.has_value());
  REQUIRE(b.errorCount == 1);
  REQUIRE(withRule(b.diagnostics, "truncate-past-end") != nullptr);
  CHECK(withRule(b.diagnostics, "truncate-past-end")->path == "/layout/truncate");
  CHECK(built(R"({"dictionaries": [], "layout": {"truncate": 4}})") == "00000080");
  CHECK(built(R"({"dictionaries": [], "layout": {"truncate": 0}})").empty());
}

TEST_CASE("overrides: an offset far past the heap with an item is gap-too-large, without one it is fine") {
  const gdmap::DescriptionBuild b =
      gdmap::buildMapFromDescription(R"({"dictionaries": [{"rva": 1, "raw": "00", "offset": 4000000000}]})");
  CHECK_FALSE(b.map.has_value());
  REQUIRE(b.errorCount == 1);
  REQUIRE(withRule(b.diagnostics, "gap-too-large") != nullptr);
  CHECK(withRule(b.diagnostics, "gap-too-large")->path == "/dictionaries/0");
  CHECK(built(R"({"dictionaries": [{"rva": 1, "offset": 4000000000}]})") ==
        "01000080"
        "0100000000286bee");
  // Gaps up to the limit are zeros.
  CHECK(built(R"({"dictionaries": [{"rva": 1, "raw": "00", "offset": 3}]})") ==
        "01000080"
        "0100000003000000"
        "00000000");
}

TEST_CASE("overrides: one large item placed at many offsets is placements-too-large") {
  // A 4096-byte item (4092 int32s behind a 2-byte length and a 2-byte
  // count) placed at 4200 different offsets: 17 MB of writes for a
  // description that gives 4 KB of item bytes.
  const auto description = [](int copies) {
    std::string text = R"({"sorted": false, "instantiations": {"big": ["int32")";
    for (int i = 1; i < 4092; ++i) text += R"(, "int32")";
    text += R"(]}, "dictionaries": [)";
    for (int i = 0; i < copies; ++i) {
      if (i > 0) text += ", ";
      text += R"({"rva": )" + std::to_string(i + 1) + R"(, "instantiation": "big", "offset": )" +
              std::to_string(i * 4096) + "}";
    }
    return text + "]}";
  };
  const gdmap::DescriptionBuild tooMany = gdmap::buildMapFromDescription(description(4200));
  CHECK_FALSE(tooMany.map.has_value());
  REQUIRE(withRule(tooMany.diagnostics, "placements-too-large") != nullptr);
  CHECK(withRule(tooMany.diagnostics, "placements-too-large")->message.find("17203200 heap bytes") !=
        std::string::npos);
  // A few copies are a fixture, not an attack.
  const gdmap::DescriptionBuild few = gdmap::buildMapFromDescription(description(8));
  REQUIRE(few.map.has_value());
  CHECK(few.map->size() == 4 + 8 * 8 + 8 * 4096);
}

TEST_CASE("overrides: malformed override values are reported where they are") {
  const gdmap::DescriptionParse p = gdmap::parseDescription(R"({"dictionaries": [{"rva": 1, "offset": -1},
    {"rva": 2, "offset": "0x1g"}, {"rva": 3, "offset": 4294967296}],
  "layout": {"count": true, "fill": [{"raw": "zz"}, {"offset": 1}], "colour": 1, "trailing": 5}})");
  CHECK_FALSE(p.description.has_value());
  const auto at = [&](std::string_view path) -> std::string {
    const gdmap::Diagnostic* d = find(p.diagnostics, path);
    return d ? d->rule : std::string("(none)");
  };
  CHECK(at("/dictionaries/0/offset") == "invalid-number");
  CHECK(at("/dictionaries/1/offset") == "invalid-number");
  CHECK(at("/dictionaries/2/offset") == "invalid-number");
  CHECK(at("/layout/count") == "wrong-type");
  CHECK(at("/layout/fill/0/raw") == "invalid-hex");
  CHECK(at("/layout/colour") == "unknown-key");
  CHECK(at("/layout/trailing") == "wrong-type");
  CHECK(count(p.diagnostics, "missing-field", gdmap::Severity::Error) == 2);  // the two half pieces
}

TEST_CASE("overrides: MapBuilder places items and offsets, and finishes as before without them") {
  gdmap::MapBuilder builder(false);
  const auto item = builder.internRaw(std::vector<std::uint8_t>{0x02, 0x01, 0x08});
  REQUIRE(item.ok());
  builder.addItemAt(0x20, *item, 2);
  builder.addOffset(0x10, 0);
  gdmap::LayoutOverrides layout;
  layout.trailing = {0xEE};
  builder.setLayout(layout);
  CHECK(builder.hasOverrides());
  CHECK(builder.offsetAt(0) == 2u);
  CHECK(builder.offsetAt(1) == 0u);
  CHECK_FALSE(builder.hasItem(1));
  const gdmap::Expected<gdmap::Bytes> map = builder.finish();
  REQUIRE(map.ok());
  CHECK(gdmap::toHex(*map) ==
        "02000000"
        "2000000002000000"
        "1000000000000000"
        "0000020108ee");
}
