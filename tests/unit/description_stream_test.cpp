// The streamed paths must say exactly what the model paths say:
// buildMapFromDescription() against parseDescription() + buildMap(), and
// dumpDescription() against writeDescription(describeMap()), on seeded
// random descriptions of every form (valid and not); and the MapBuilder's
// item handles those paths use.
#include <gdmap/description/description_json.hpp>
#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/map_dump.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/writer/map_builder.hpp>
#include "description/map/map_read_back.hpp"

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

namespace {

using namespace gdmap;

// The last two are not types.
const char* const kTypes[] = {"int32",
                              "string",
                              "class 0x01000012<int32, !0[]>",
                              "valuetype 0x02000003",
                              "!!1",
                              "int32[0...4]",
                              "method int32 *(int32)",
                              "object modopt(0x1b000001)",
                              "int32<",
                              "class 0x01000012<string"};
const char* const kHexTypes[] = {"08", "1d08", "1512490108", "1e00", "c0 80 00 08" /* not a type */, "1d"};

// A description as JSON text: named instantiations before or after the
// dictionaries (or used but undefined), inline text and hex types, raw
// items (some empty, some with a wrong length prefix), RVAs as numbers and
// strings, sometimes repeated.
std::string randomDescription(std::mt19937& rng, bool allowErrors) {
  auto pick = [&](std::uint32_t n) { return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng); };
  auto typeList = [&] {
    std::string out = "[";
    for (std::uint32_t i = 0, n = 1 + pick(3); i < n; ++i) {
      if (i != 0) out += ", ";
      if (pick(4) == 0) {
        const char* hex = kHexTypes[pick(allowErrors ? 6 : 4)];
        out += std::string("{\"hex\": \"") + hex + "\"}";
      } else {
        out += std::string("\"") + kTypes[pick(allowErrors && pick(4) == 0 ? 10 : 8)] + "\"";
      }
    }
    return out + "]";
  };
  const std::uint32_t names = pick(4);
  std::string named = "\"instantiations\": {";
  for (std::uint32_t i = 0; i < names; ++i) named += (i ? ", \"n" : "\"n") + std::to_string(i) + "\": " + typeList();
  named += "}";
  std::string dictionaries = "\"dictionaries\": [";
  // Past the builders' queues (a text list or a name waits a few
  // dictionaries for its lookup).
  const std::uint32_t count = pick(40);
  for (std::uint32_t i = 0; i < count; ++i) {
    if (i != 0) dictionaries += ", ";
    const std::uint32_t rva = allowErrors && pick(10) == 0 ? 16 : 16 * i + 32;
    dictionaries += pick(2) ? "{\"rva\": " + std::to_string(rva) : "{\"rva\": \"0x" + std::to_string(rva) + "0\"";
    switch (pick(4)) {
      case 0:
        if (names != 0 || allowErrors) {
          dictionaries += ", \"instantiation\": \"n" + std::to_string(pick(names + (allowErrors ? 1 : 0))) + "\"}";
          break;
        }
        [[fallthrough]];
      case 1: dictionaries += ", \"types\": " + typeList() + "}"; break;
      case 2: dictionaries += std::string(", \"raw\": \"") + (allowErrors && pick(8) == 0 ? "" : "0501") + "\"}"; break;
      default: dictionaries += ", \"raw\": \"020108\"}"; break;
    }
  }
  dictionaries += "]";
  const std::string sorted = pick(2) ? "\"sorted\": false, " : "";
  return "{" + sorted + (pick(2) ? named + ", " + dictionaries : dictionaries + ", " + named) + "}";
}

TEST_CASE("description stream: the streamed build equals parse + buildMap, diagnostics included (seeded random)") {
  std::mt19937 rng(20261123);
  int built = 0, refused = 0;
  for (int round = 0; round < 600; ++round) {
    const std::string text = randomDescription(rng, round % 2 == 1);
    CAPTURE(text);
    const DescriptionParse parsed = parseDescription(text);
    const DescriptionBuild streamed = buildMapFromDescription(text);
    REQUIRE(streamed.diagnostics.size() == parsed.diagnostics.size());
    for (std::size_t i = 0; i < parsed.diagnostics.size(); ++i) {
      CHECK(formatDiagnostic(streamed.diagnostics[i]) == formatDiagnostic(parsed.diagnostics[i]));
      CHECK(streamed.diagnostics[i].path == parsed.diagnostics[i].path);
    }
    CHECK(streamed.errorCount == parsed.errorCount);
    CHECK(streamed.warningCount == parsed.warningCount);
    REQUIRE(streamed.map.has_value() == parsed.description.has_value());
    if (!parsed.description) {
      ++refused;
      continue;
    }
    ++built;
    const Expected<Bytes> model = buildMap(*parsed.description);
    REQUIRE(model);
    CHECK(*streamed.map == *model);

    // The dump written straight from the bytes is the model's dump.
    if (!checkMap(*streamed.map).valid) continue;
    const Expected<DumpResult> described = describeMap(*streamed.map);
    REQUIRE(described);
    const Expected<std::string> dumped = dumpDescription(*streamed.map);
    REQUIRE(dumped);
    CHECK(*dumped == writeDescription(described->description));
  }
  // Both kinds were exercised.
  CHECK(built > 100);
  CHECK(refused > 100);
}

TEST_CASE("description stream: lists of text then hex, one placed by an offset, errors in refused dictionaries") {
  // More dictionaries than the builders keep waiting (a list or a name is
  // looked up a few dictionaries late); hex after text, kept in order; one
  // dictionary placed by an offset; one refused, whose types are still
  // checked.
  std::string text = "{\"dictionaries\": [";
  for (int i = 0; i < 30; ++i) {
    if (i != 0) text += ", ";
    text += "{\"rva\": " + std::to_string(16 * i + 16) + ", \"types\": [\"int32[]\", ";
    // Dictionary 7, at offset 0, agrees with the item there (dictionary 0's).
    text += i % 3 == 0 || i == 7 ? "{\"hex\": \"0e\"}" : "\"class 0x01000" + std::to_string(100 + i) + "\"";
    text += i == 7 ? "], \"offset\": 0}" : "]}";
  }
  text += "]}";
  CAPTURE(text);
  const DescriptionParse parsed = parseDescription(text);
  REQUIRE(parsed.description);
  const Expected<Bytes> model = buildMap(*parsed.description);
  REQUIRE(model);
  const DescriptionBuild streamed = buildMapFromDescription(text);
  REQUIRE(streamed.map);
  CHECK(*streamed.map == *model);

  // An invalid text type in a waiting list, then in a refused dictionary:
  // each reported where it is, as the model reports it.
  std::string bad = text;
  const auto replace = [&](const std::string& from, const std::string& to) {
    bad.replace(bad.find(from), from.size(), to);
  };
  replace("class 0x01000102", "class 0x01000102<");
  replace("{\"rva\": 240, ", "{\"rva\": -1, ");
  replace("class 0x01000114", "int32<<");
  const DescriptionParse parsedBad = parseDescription(bad);
  const DescriptionBuild streamedBad = buildMapFromDescription(bad);
  CHECK_FALSE(streamedBad.map);
  REQUIRE(streamedBad.diagnostics.size() == parsedBad.diagnostics.size());
  for (std::size_t i = 0; i < parsedBad.diagnostics.size(); ++i)
    CHECK(formatDiagnostic(streamedBad.diagnostics[i]) == formatDiagnostic(parsedBad.diagnostics[i]));
  CHECK(streamedBad.errorCount == 3);
}

TEST_CASE("description stream: the read-back finds a map that does not hold what was added") {
  for (const bool sorted : {true, false}) {
    MapBuilder builder(sorted);
    REQUIRE(builder.addEncoded(0x20, 1, Bytes{0x08}));
    REQUIRE(builder.addRaw(0x10, Bytes{0x02, 0x01, 0x0e}));
    Expected<Bytes> map = builder.finish();
    REQUIRE(map);
    CHECK(description::readsBack(*map, builder));
    // The directory as laid out: by RVA when sorted, as added otherwise.
    CHECK(builder.directoryAt(0).rva == (sorted ? 0x10u : 0x20u));
    CHECK(builder.directoryAt(1).rva == (sorted ? 0x20u : 0x10u));
    const ByteSpan at0x20 = builder.itemBytes(builder.directoryAt(sorted ? 1 : 0).item);
    CHECK(Bytes(at0x20.begin(), at0x20.end()) == Bytes{0x02, 0x01, 0x08});

    Bytes changedItem = *map;
    changedItem.back() ^= 1;  // the last item's last type byte
    const Status item = description::readsBack(changedItem, builder);
    REQUIRE_FALSE(item);
    CHECK(item.error().rule == "description-mismatch");
    CHECK(item.error().message.find("the item at RVA") != std::string::npos);

    Bytes changedRva = *map;
    changedRva[4] ^= 0x40;  // directory[0].rva
    const Status rva = description::readsBack(changedRva, builder);
    REQUIRE_FALSE(rva);
    CHECK(!rva.error().rule.empty());

    const Status shorter = description::readsBack(Bytes(map->begin(), map->end() - 1), builder);
    CHECK_FALSE(shorter);
  }
}

TEST_CASE("map builder: items by handle, given later, shared by many dictionaries") {
  MapBuilder builder(false);
  const Bytes int32 = {0x08};
  const Expected<MapBuilder::ItemId> item = builder.internEncoded(1, int32);
  REQUIRE(item);
  CHECK(*builder.internEncoded(1, int32) == *item);  // interned once
  builder.addItem(0x20, *item);
  builder.addItem(0x10, MapBuilder::kItemLater);
  builder.addItem(0x30, *item);
  CHECK(builder.size() == 3);
  CHECK(builder.rvaAt(1) == 0x10u);
  const Bytes raw = {0x02, 0x01, 0x0e};
  const Expected<MapBuilder::ItemId> rawItem = builder.internRaw(raw);
  REQUIRE(rawItem);
  builder.setItem(1, *rawItem);
  CHECK(Bytes(builder.itemAt(1).begin(), builder.itemAt(1).end()) == raw);
  CHECK(Bytes(builder.itemAt(0).begin(), builder.itemAt(0).end()) == Bytes{0x02, 0x01, 0x08});
  builder.setSorted(true);
  const Expected<Bytes> map = builder.finish();
  REQUIRE(map);
  // Sorted after all: bit 31 set, 0x10 first, its raw item first in the heap.
  const Bytes expected = {0x03, 0x00, 0x00, 0x80, 0x10, 0, 0, 0, 0, 0, 0, 0,    0x20, 0,    0,    0,    3,
                          0,    0,    0,    0x30, 0,    0, 0, 3, 0, 0, 0, 0x02, 0x01, 0x0e, 0x02, 0x01, 0x08};
  CHECK(*map == expected);

  MapBuilder unfinished;
  unfinished.addItem(0x10, MapBuilder::kItemLater);
  const Expected<Bytes> refused = unfinished.finish();
  REQUIRE_FALSE(refused);
  CHECK(refused.error().rule == "undefined-instantiation");
  CHECK_FALSE(MapBuilder().internRaw({}));
  CHECK(MapBuilder().internRaw({}).error().rule == "empty-raw-item");
}

}  // namespace

TEST_CASE("description: a hex type with non-minimal integers is re-encoded, with one warning per spelling") {
  const std::string text = R"({"dictionaries": [{"rva": 1, "types": [{"hex": "128008"}]},
    {"rva": 2, "types": [{"hex": "128008"}, {"hex": "1208"}]}, {"rva": 3, "raw": "0401128008"}]})";
  const gdmap::DescriptionBuild built = gdmap::buildMapFromDescription(text);
  REQUIRE(built.map.has_value());
  REQUIRE(built.warningCount == 1);
  CHECK(built.diagnostics.front().rule == "non-minimal-integer");
  CHECK(built.diagnostics.front().path == "/dictionaries/0/types/0/hex");
  CHECK(built.diagnostics.front().message.find("use \"raw\" to keep the bytes verbatim") != std::string::npos);
  // The model path says the same.
  const gdmap::DescriptionParse parsed = gdmap::parseDescription(text);
  REQUIRE(parsed.description.has_value());
  REQUIRE(parsed.diagnostics.size() == 1);
  CHECK(parsed.diagnostics.front().rule == "non-minimal-integer");
  // Re-encoded: dictionaries 1 and 2's first items share the shortest form
  // (02 01 12 08); the raw item keeps its three-byte token.
  const gdmap::CheckReport check = gdmap::checkMap(*built.map);
  CHECK(check.valid);
  const std::string hex = gdmap::toHex(*built.map);
  CHECK(hex.find("03011208") != std::string::npos);
  CHECK(hex.find("0401128008") != std::string::npos);
}
