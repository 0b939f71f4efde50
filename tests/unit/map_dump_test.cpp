// describeMap() and matchesDescription(): a map's content as a description,
// rebuilding canonical maps byte for byte and explaining why non-canonical
// ones will differ.
#include <doctest/doctest.h>

#include <gdmap/description/description_json.hpp>
#include <gdmap/reader/map_dump.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/instantiation_names.hpp>
#include <gdmap/schema/map_format.hpp>
#include <gdmap/schema/type_text.hpp>
#include <gdmap/writer/map_builder.hpp>

#include "reader/map/map_match_work.hpp"
#include "tests/support/random_type.hpp"

#include <random>
#include <set>
#include <string>

namespace gdmap {
namespace {

DumpResult dumpOk(ByteSpan map) {
  Expected<DumpResult> r = describeMap(map);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
  return *r;
}

Bytes buildOk(const MapDescription& d) {
  Expected<Bytes> m = buildMap(d);
  REQUIRE_MESSAGE(m.ok(), (m.ok() ? "" : m.error().message));
  return *m;
}

std::string typesOf(const MapDescription& d, std::size_t dictionary) {
  const InstantiationDescription& inst = d.instantiations.at(d.dictionaries.at(dictionary).instantiation);
  std::string out;
  for (const Type& t : inst.types) out += (out.empty() ? "" : ", ") + formatType(t);
  return out;
}

bool mentions(const std::vector<std::string>& reasons, const std::string& rule) {
  for (const std::string& r : reasons)
    if (r.find("[" + rule + "]") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("dump: the issue's example, every item inline") {
  // See map_compare_test.cpp for this map's bytes.
  const Bytes map = *parseHex(
      "03000080 00100000 00000000 10100000 07000000 20100000 0c000000"
      "06011512490108 04020e1d08 020108");
  const DumpResult r = dumpOk(map);
  const MapDescription& d = r.description;
  CHECK(d.sorted);
  CHECK(r.rebuildDifferences.empty());
  REQUIRE(d.dictionaries.size() == 3);
  CHECK(d.dictionaries[0].rva == 0x1000);
  CHECK(d.dictionaries[1].rva == 0x1010);
  CHECK(d.dictionaries[2].rva == 0x1020);
  CHECK(dictionaryPointer(2) == "/dictionaries/2");
  CHECK(instantiationPointer(d, d.dictionaries[2].instantiation) == "/dictionaries/2/types");
  CHECK(typesOf(d, 0) == "class 0x01000012<int32>");
  CHECK(typesOf(d, 1) == "string, int32[]");
  CHECK(typesOf(d, 2) == "int32");
  for (const InstantiationDescription& inst : d.instantiations) CHECK(inst.name.empty());
  CHECK(buildOk(d) == map);
  CHECK(matchesDescription(map, d).ok());
}

TEST_CASE("dump: shared items become instantiations named from their bytes") {
  MapBuilder b(false);
  const std::uint8_t str[] = {0x0e}, i4[] = {0x08}, obj[] = {0x1c};
  REQUIRE(b.addEncoded(0x50, 1, obj).ok());  // heap 0, once
  REQUIRE(b.addEncoded(0x40, 1, i4).ok());   // heap 3, twice
  REQUIRE(b.addEncoded(0x30, 1, str).ok());  // heap 6, twice
  REQUIRE(b.addEncoded(0x20, 1, str).ok());
  REQUIRE(b.addEncoded(0x10, 1, i4).ok());
  const Bytes map = *b.finish();
  const DumpResult r = dumpOk(map);
  const MapDescription& d = r.description;
  CHECK_FALSE(d.sorted);
  CHECK(r.rebuildDifferences.empty());
  REQUIRE(d.dictionaries.size() == 5);
  CHECK(d.dictionaries[0].rva == 0x50);  // the map's order
  CHECK(d.instantiations[d.dictionaries[0].instantiation].name.empty());
  // The int32 item (02 01 08) and the string item (02 01 0e), named by
  // content: `i` and 12 hex digits.
  const std::string int32Name = d.instantiations[d.dictionaries[1].instantiation].name;
  const std::string stringName = d.instantiations[d.dictionaries[2].instantiation].name;
  CHECK(int32Name == InstantiationNamer().next(*parseHex("020108")));
  CHECK(stringName == InstantiationNamer().next(*parseHex("02010e")));
  CHECK(int32Name.size() == 13);
  CHECK(int32Name != stringName);
  CHECK(d.instantiations[d.dictionaries[4].instantiation].name == int32Name);
  CHECK(d.instantiations[d.dictionaries[3].instantiation].name == stringName);
  CHECK(instantiationPointer(d, d.dictionaries[1].instantiation) == "/instantiations/" + int32Name);
  CHECK(instantiationPointer(d, d.dictionaries[0].instantiation) == "/dictionaries/0/types");
  CHECK(typesOf(d, 1) == "int32");
  CHECK(typesOf(d, 2) == "string");
  CHECK(buildOk(d) == map);
  CHECK(matchesDescription(map, d).ok());
}

TEST_CASE("dump: names stay when unrelated dictionaries come and go") {
  // The same two shared items, with and without unrelated dictionaries
  // before and between them: their names do not change (a running number
  // would), in describeMap and in the streamed text alike.
  const std::uint8_t str[] = {0x0e}, i4[] = {0x08}, obj[] = {0x1c}, u8[] = {0x0b};
  MapBuilder small(true);
  REQUIRE(small.addEncoded(0x10, 1, i4).ok());
  REQUIRE(small.addEncoded(0x20, 1, i4).ok());
  REQUIRE(small.addEncoded(0x30, 1, str).ok());
  REQUIRE(small.addEncoded(0x40, 1, str).ok());
  MapBuilder large(true);
  REQUIRE(large.addEncoded(0x08, 1, obj).ok());  // new, shared, first in the heap
  REQUIRE(large.addEncoded(0x09, 1, obj).ok());
  REQUIRE(large.addEncoded(0x10, 1, i4).ok());
  REQUIRE(large.addEncoded(0x18, 1, u8).ok());  // new, between
  REQUIRE(large.addEncoded(0x20, 1, i4).ok());
  REQUIRE(large.addEncoded(0x30, 1, str).ok());
  REQUIRE(large.addEncoded(0x40, 1, str).ok());
  const Bytes a = *small.finish();
  const Bytes b = *large.finish();
  const MapDescription da = dumpOk(a).description;
  const MapDescription db = dumpOk(b).description;
  const auto nameAt = [](const MapDescription& d, std::uint32_t rva) {
    for (const DictionaryDescription& dict : d.dictionaries)
      if (dict.rva == rva) return d.instantiations[dict.instantiation].name;
    return std::string();
  };
  CHECK(nameAt(da, 0x10) == nameAt(db, 0x10));
  CHECK(nameAt(da, 0x30) == nameAt(db, 0x30));
  CHECK(nameAt(db, 0x08) != nameAt(db, 0x10));
  const std::string text = *dumpDescription(b);
  CHECK(text == writeDescription(db));
  CHECK(text.find("\"" + nameAt(da, 0x30) + "\"") != std::string::npos);
}

TEST_CASE("dump: instantiation names that meet on 48 bits get a suffix, deterministically") {
  InstantiationNamer namer;
  const Bytes item = *parseHex("020108");
  const std::string first = namer.next(item);
  CHECK(namer.next(item) == first + "_2");  // as a colliding item would be
  CHECK(namer.next(item) == first + "_3");
  CHECK(InstantiationNamer().next(item) == first);
}

TEST_CASE("dump: a map check rejects is an error with its offset") {
  Expected<DumpResult> r = describeMap(*parseHex("01000000"));  // no room for the entry
  CHECK_FALSE(r.ok());
  r = describeMap(*parseHex("01000080 00000000 00000000 0201ff"));  // no element type 0xff
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().offset == 14);
}

namespace {

MapDescription randomDescription(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  testing::RandomTypeGenerator types(seed + 99);
  MapDescription d;
  d.sorted = rng() % 3 != 0;
  const std::size_t pool = 1 + rng() % 10;
  for (std::size_t j = 0; j < pool; ++j) {
    InstantiationDescription inst;
    inst.name = "t";  // not "t" + ...: g++ 12 warns falsely (-Wrestrict) at -O2
    inst.name += std::to_string(j);
    for (std::size_t k = 0, n = 1 + rng() % 3; k < n; ++k) inst.types.push_back(types.next());
    d.instantiations.push_back(std::move(inst));
  }
  std::set<std::uint32_t> used;
  for (std::size_t i = 0, n = rng() % 30; i < n; ++i) {
    const auto rva = static_cast<std::uint32_t>(rng());
    if (used.insert(rva).second) d.dictionaries.push_back({rva, static_cast<std::size_t>(rng() % pool)});
  }
  return d;
}

}  // namespace

TEST_CASE("dump: describing a built map rebuilds it byte for byte") {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    CAPTURE(seed);
    const MapDescription original = randomDescription(seed);
    const Bytes map = buildOk(original);
    CHECK(matchesDescription(map, original).ok());
    const DumpResult r = dumpOk(map);
    CHECK(r.rebuildDifferences.empty());
    CHECK(r.description.sorted == original.sorted);
    CHECK(buildOk(r.description) == map);
    CHECK(matchesDescription(map, r.description).ok());
  }
}

TEST_CASE("dump: matchesDescription names the first dictionary that differs") {
  MapDescription d;
  InstantiationDescription a, c;
  a.types = {Type::primitive(ElementType::I4)};
  c.raw = Bytes{0x02, 0x01, 0x0e};
  d.instantiations = {a, c};
  d.dictionaries = {{0x20, 0}, {0x10, 1}};
  const Bytes map = buildOk(d);
  CHECK(matchesDescription(map, d).ok());

  MapDescription other = d;
  other.sorted = false;
  Status s = matchesDescription(map, other);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message.rfind("/sorted: ", 0) == 0);

  other = d;
  other.dictionaries[0].rva = 0x21;
  s = matchesDescription(map, other);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message == "/dictionaries/0: RVA 0x00000021, but directory[1] has 0x00000020");

  other = d;
  other.instantiations[0].types = {Type::primitive(ElementType::I8)};
  s = matchesDescription(map, other);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message == "/dictionaries/0: types [int32] in the map, [int64] in the description");

  other = d;
  other.instantiations[1].raw = Bytes{0x02, 0x01, 0x08};
  s = matchesDescription(map, other);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message.rfind("/dictionaries/1: ", 0) == 0);

  other = d;
  other.dictionaries.pop_back();
  CHECK_FALSE(matchesDescription(map, other).ok());
}

TEST_CASE("dump: matchesDescription errors carry rules") {
  MapDescription d;
  InstantiationDescription a;
  a.types = {Type::primitive(ElementType::I4)};
  d.instantiations = {a};
  d.dictionaries = {{0x10, 0}};
  const Bytes map = buildOk(d);
  MapDescription other = d;
  other.instantiations[0].types = {Type::primitive(ElementType::I8)};
  Status s = matchesDescription(map, other);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().rule == "description-mismatch");
  other = d;
  other.dictionaries[0].instantiation = 5;
  s = matchesDescription(map, other);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().rule == "undefined-instantiation");
  // describeMap passes on checkMap's rule.
  Expected<DumpResult> r = describeMap(*parseHex("01000080 00000000 05000000 020108"));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().rule == "offset-outside-heap");
}

namespace {

// Two unshared copies of one large item (`types` types), referenced
// alternately by `dictionaries` dictionaries of one instantiation, and the
// description of that content.
std::pair<Bytes, MapDescription> twoCopiesOfOneItem(std::uint32_t types, std::uint32_t dictionaries) {
  Bytes item = {0xC0,
                0x00,
                0x00,
                0x00,
                static_cast<std::uint8_t>(0x80 | (types >> 8)),
                static_cast<std::uint8_t>(types & 0xFF)};  // L (4-byte form) set below, T (2-byte form)
  item.insert(item.end(), types, 0x08);
  const std::uint32_t length = static_cast<std::uint32_t>(item.size() - 4);
  item[1] = static_cast<std::uint8_t>(length >> 16);
  item[2] = static_cast<std::uint8_t>(length >> 8);
  item[3] = static_cast<std::uint8_t>(length);
  Bytes map;
  appendU32(map, dictionaries | kSortedFlag);
  for (std::uint32_t i = 0; i < dictionaries; ++i) {
    appendU32(map, 0x1000 + i);
    appendU32(map, i % 2 == 0 ? 0 : static_cast<std::uint32_t>(item.size()));
  }
  map.insert(map.end(), item.begin(), item.end());
  map.insert(map.end(), item.begin(), item.end());
  MapDescription d;
  InstantiationDescription inst;
  inst.types.assign(types, Type::primitive(ElementType::I4));
  d.instantiations = {inst};
  for (std::uint32_t i = 0; i < dictionaries; ++i) d.dictionaries.push_back({0x1000 + i, 0});
  return {std::move(map), std::move(d)};
}

}  // namespace

TEST_CASE("dump: matchesDescription compares each copy of an item once (issue 7 defect 4)") {
  // The work is counted, not timed: comparing at each dictionary would
  // decode dictionaries x types (3.2 * 10^8 here); each (offset,
  // instantiation) pair is compared once, so twice the dictionaries cost
  // the same two items.
  constexpr std::uint32_t kTypes = 16000;  // a 2-byte count
  for (const std::uint32_t dictionaries : {20000u, 40000u}) {
    CAPTURE(dictionaries);
    auto [map, d] = twoCopiesOfOneItem(kTypes, dictionaries);
    gdmap::detail::MatchWork work;
    CHECK(gdmap::detail::matchesDescription(map, d, work).ok());
    CHECK(work.itemsCompared == 2);
    CHECK(work.typesDecoded == 2 * kTypes);
    // A difference is still found, and its message quotes a bounded part of
    // the 16,000 types.
    d.instantiations[0].types.back() = Type::primitive(ElementType::I8);
    const Status s = matchesDescription(map, d);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().message.size() < 400);
  }
}

TEST_CASE("dump: non-minimal integers still match their content") {
  // L written as 80 02: the same content as 02 01 08.
  const Bytes map = *parseHex("01000080 10000000 00000000 80020108");
  MapDescription d;
  InstantiationDescription a;
  a.types = {Type::primitive(ElementType::I4)};
  d.instantiations = {a};
  d.dictionaries = {{0x10, 0}};
  CHECK(matchesDescription(map, d).ok());
  const DumpResult r = dumpOk(map);
  CHECK(typesOf(r.description, 0) == "int32");
  CHECK(mentions(r.rebuildDifferences, "canonical-non-minimal-integer"));
  CHECK(buildOk(r.description) != map);
}

TEST_CASE("dump: says why a non-canonical map will not rebuild identically") {
  struct Case {
    const char* hex;
    const char* rule;
  };
  const Case cases[] = {
      // A byte no entry reaches after the one item.
      {"01000080 10000000 00000000 020108ff", "canonical-gap"},
      // 0x10 references heap 3 first, but heap 0 holds 0x20's item.
      {"02000080 10000000 03000000 20000000 00000000 02010e020108", "canonical-item-order"},
      // The same item stored twice.
      {"02000080 10000000 00000000 20000000 03000000 020108020108", "canonical-duplicate-item"},
      // heap@0x3 (02 01 08) lies inside heap@0x0 (05 03 1d02 01 08).
      {"02000080 10000000 00000000 20000000 03000000 05031d020108", "canonical-overlap"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.rule);
    const Bytes map = *parseHex(c.hex);
    const DumpResult r = dumpOk(map);
    CHECK(mentions(r.rebuildDifferences, c.rule));
    const Bytes rebuilt = buildOk(r.description);
    CHECK(rebuilt != map);
    CHECK(matchesDescription(map, r.description).ok());
    CHECK(matchesDescription(rebuilt, r.description).ok());
    CHECK(dumpOk(rebuilt).rebuildDifferences.empty());
  }
}

}  // namespace gdmap

namespace gdmap {

TEST_CASE("dump: every mutated map that check accepts dumps, matches and rebuilds") {
  std::mt19937_64 rng(77);
  std::size_t accepted = 0, canonical = 0;
  for (std::uint64_t round = 0; round < 4000; ++round) {
    CAPTURE(round);
    Bytes map = buildOk(randomDescription(1000 + round % 50));
    switch (rng() % 4) {
      case 0:  // flip bits
        for (std::uint64_t k = 0, n = 1 + rng() % 3; k < n && !map.empty(); ++k)
          map[rng() % map.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
        break;
      case 1:  // insert a byte
        map.insert(map.begin() + static_cast<std::ptrdiff_t>(rng() % (map.size() + 1)),
                   static_cast<std::uint8_t>(rng()));
        break;
      case 2:  // delete a byte
        if (!map.empty()) map.erase(map.begin() + static_cast<std::ptrdiff_t>(rng() % map.size()));
        break;
      default:  // truncate
        map.resize(rng() % (map.size() + 1));
        break;
    }
    Expected<DumpResult> r = describeMap(map);
    if (!r) continue;
    ++accepted;
    const Bytes rebuilt = buildOk(r->description);
    CHECK(matchesDescription(map, r->description).ok());
    CHECK(matchesDescription(rebuilt, r->description).ok());
    if (r->rebuildDifferences.empty()) {
      ++canonical;
      CHECK(rebuilt == map);
    } else {
      CHECK(rebuilt != map);
    }
  }
  MESSAGE("accepted " << accepted << " of 4000 mutated maps, " << canonical << " canonical");
  CHECK(accepted > 100);
}

}  // namespace gdmap
