// Where a map's build fails: the writer names the part of its input
// (MapPart, in Error::path and Error::index), the description layer turns
// the part into the description's JSON pointer (mapPartPointer).
#include <gdmap/description/description_json.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/writer/map_builder.hpp>

#include <doctest/doctest.h>

#include <string>

namespace gdmap {
namespace {

const Type kInt32 = Type::primitive(ElementType::I4);
const Type kBad = Type::genericInstance(false, Token{0x02000001}, {});  // no arguments: does not encode

// Two dictionaries, each with an item of its own.
MapBuilder twoItems() {
  MapBuilder b;
  const Type string = Type::primitive(ElementType::String);
  REQUIRE(b.add(0x10, std::span(&kInt32, 1)).ok());
  REQUIRE(b.add(0x20, std::span(&string, 1)).ok());
  return b;
}

}  // namespace

TEST_CASE("map part: a layout override's error names its fill piece or the truncation, not in its message") {
  MapBuilder fill = twoItems();
  LayoutOverrides layout;
  layout.fill = {{0, Bytes{0x02}}, {1, Bytes{0xFF}}};  // piece 1 disagrees with the first item's byte 1
  fill.setLayout(layout);
  Expected<Bytes> map = fill.finish();
  REQUIRE_FALSE(map.ok());
  CHECK(map.error().rule == rules::kPlacementConflict);
  CHECK(map.error().path == "layout.fill[1]");
  CHECK(map.error().index == 1u);
  CHECK(map.error().message.starts_with("heap byte 0x1 would be 0xff, but dictionaries[0] puts 0x01 there"));

  MapBuilder cut = twoItems();
  layout = {};
  layout.truncate = 1000;
  cut.setLayout(layout);
  map = cut.finish();
  REQUIRE_FALSE(map.ok());
  CHECK(map.error().rule == rules::kTruncatePastEnd);
  CHECK(map.error().path == "layout.truncate");
  CHECK_FALSE(map.error().index.has_value());
  CHECK(mapPartOf(map.error()).kind == MapPart::Kind::Truncate);
  CHECK(map.error().message.starts_with("1000 bytes asked for"));

  MapBuilder far = twoItems();
  far.addOffset(0x30, 0);
  Expected<MapBuilder::ItemId> item = far.internEncoded(1, Bytes{0x08});
  REQUIRE(item.ok());
  far.addItemAt(0x40, *item, 0x7FFFFFFF);  // a gap of 2 GiB nothing writes
  map = far.finish();
  REQUIRE_FALSE(map.ok());
  CHECK(map.error().rule == rules::kGapTooLarge);
  CHECK(map.error().path == "dictionaries[3]");
  CHECK(map.error().index == 3u);
}

TEST_CASE("map part: the description layer makes the JSON pointer") {
  MapDescription d;
  d.instantiations.push_back({"List/Of~Int", {kInt32}, std::nullopt});
  d.instantiations.push_back({"", {kInt32, kInt32}, std::nullopt});  // inline, in dictionary 1
  d.instantiations.push_back({"", {}, Bytes{0x02, 0x01, 0x08}});     // raw, in dictionary 2
  d.instantiations.push_back({"", {kBad}, std::nullopt});            // used by no dictionary
  d.dictionaries = {{0x10, 0}, {0x20, 1}, {0x30, 2}};
  using Kind = MapPart::Kind;
  CHECK(mapPartPointer(d, {Kind::Type, 0, 1}) == "/instantiations/List~1Of~0Int/1");
  CHECK(mapPartPointer(d, {Kind::Instantiation, 0}) == "/instantiations/List~1Of~0Int");
  CHECK(mapPartPointer(d, {Kind::Type, 1, 0}) == "/dictionaries/1/types/0");
  CHECK(mapPartPointer(d, {Kind::Instantiation, 1}) == "/dictionaries/1/types");
  CHECK(mapPartPointer(d, {Kind::Instantiation, 2}) == "/dictionaries/2/raw");
  CHECK(mapPartPointer(d, {Kind::Type, 3, 0}) == "instantiation[3]/types/0");
  CHECK(mapPartPointer(d, {Kind::Dictionary, 2}) == "/dictionaries/2");
  CHECK(mapPartPointer(d, {Kind::Fill, 4}) == "/layout/fill/4");
  CHECK(mapPartPointer(d, {Kind::Truncate}) == "/layout/truncate");
  CHECK(mapPartPointer(d, {Kind::Offset, 0}).empty());
  CHECK(mapPartPointer(d, {Kind::Map}).empty());

  // buildMap's error, turned into the pointer a reader of the text wants.
  Expected<Bytes> map = buildMap(d);
  REQUIRE_FALSE(map.ok());
  CHECK(mapPartPointer(d, mapPartOf(map.error())) == "instantiation[3]/types/0");
  d.instantiations[0].types.push_back(kBad);
  map = buildMap(d);
  REQUIRE_FALSE(map.ok());
  CHECK(mapPartPointer(d, mapPartOf(map.error())) == "/instantiations/List~1Of~0Int/1");
}

TEST_CASE("map part: a streamed description's layout errors are at their pointers") {
  const DescriptionBuild b = buildMapFromDescription(R"({"dictionaries": [{"rva": 16, "raw": "020108"}],
    "layout": {"fill": [{"offset": 0, "raw": "02"}, {"offset": 1, "raw": "ff"}], "truncate": 3}})");
  REQUIRE(b.errorCount == 1);
  const Diagnostic* conflict = nullptr;
  for (const Diagnostic& d : b.diagnostics)
    if (d.rule == rules::kPlacementConflict) conflict = &d;
  REQUIRE(conflict != nullptr);
  CHECK(conflict->path == "/layout/fill/1");
  CHECK(conflict->message.starts_with("heap byte 0x1 would be 0xff, but /dictionaries/0 puts 0x01 there"));

  const DescriptionBuild cut =
      buildMapFromDescription(R"({"dictionaries": [{"rva": 16, "raw": "020108"}], "layout": {"truncate": 99}})");
  REQUIRE(cut.errorCount == 1);
  bool found = false;
  for (const Diagnostic& d : cut.diagnostics)
    if (d.rule == rules::kTruncatePastEnd) {
      found = true;
      CHECK(d.path == "/layout/truncate");
      CHECK(d.message == "99 bytes asked for, but the map has only 15");
    }
  CHECK(found);
}

}  // namespace gdmap
