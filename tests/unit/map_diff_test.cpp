// diffMaps(): every kind of difference on small maps written by hand, the
// cap, and seeded mutations of built maps: diff(A, A) is empty and
// diff(A, mutate(A)) names what was mutated.
//
// The example map (FORMAT.md §1, as map_compare_test.cpp):
//   0x1000 -> heap@0x0  class 0x01000012<int32>
//   0x1010 -> heap@0x7  string, int32[]
//   0x1020 -> heap@0x0  (shared with 0x1000)
#include <gdmap/reader/map_compare.hpp>
#include <gdmap/reader/map_diff.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/writer/map_builder.hpp>

#include "tests/support/map_bytes.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace gdmap {
namespace {

using test::MapBytes;

Bytes exampleMap() {
  MapBytes m;
  const std::uint32_t generic = m.item(1, {0x15, 0x12, 0x49, 0x01, 0x08});
  const std::uint32_t pair = m.item(2, {0x0E, 0x1D, 0x08});
  m.entry(0x1000, generic).entry(0x1010, pair).entry(0x1020, generic);
  return m.bytes();
}

const MapDiffEntry* find(const MapDiff& d, std::string_view path) {
  for (const MapDiffEntry& e : d.differences)
    if (e.path == path) return &e;
  return nullptr;
}

std::string paths(const MapDiff& d) {
  std::string all;
  for (const MapDiffEntry& e : d.differences) all += std::string(mapDiffKindName(e.kind)) + " " + e.path + "; ";
  return all;
}

}  // namespace

TEST_CASE("map diff: identical maps have no difference") {
  const Bytes a = exampleMap();
  const MapDiff d = diffMaps(a, a);
  CHECK(d.identical);
  CHECK(d.structural);
  CHECK(d.sameContent);
  CHECK(d.total == 0);
  CHECK(d.differences.empty());
  CHECK(d.bytes.differingBytes == 0);
  CHECK_FALSE(d.bytes.firstOffset);
}

TEST_CASE("map diff: the header's bit 31") {
  MapBytes sorted, unsorted(false);
  for (MapBytes* m : {&sorted, &unsorted}) m->add(0x1000, 1, {0x08}).add(0x1010, 1, {0x0E});
  const MapDiff d = diffMaps(sorted.bytes(), unsorted.bytes());
  CHECK_FALSE(d.identical);
  CHECK(d.structural);
  CHECK_FALSE(d.sameContent);  // the order a map promises is part of its content
  REQUIRE(d.differences.size() == 1);
  const MapDiffEntry& e = d.differences[0];
  CHECK(e.kind == MapDiffKind::Header);
  CHECK(e.path == "header.count");
  CHECK(e.a == "0x80000002 (2 entries, sorted)");
  CHECK(e.b == "0x00000002 (2 entries, unsorted)");
  CHECK(e.offsetA == 0);
  CHECK(d.count(MapDiffKind::Header) == 1);
}

TEST_CASE("map diff: dictionaries added and removed, matched by RVA") {
  MapBytes b;
  const std::uint32_t generic = b.item(1, {0x15, 0x12, 0x49, 0x01, 0x08});
  const std::uint32_t single = b.item(1, {0x08});
  b.entry(0x1000, generic).entry(0x1020, generic).entry(0x1030, single);
  const MapDiff d = diffMaps(exampleMap(), b.bytes());
  CHECK(d.structural);
  INFO(paths(d));
  // The header (3 entries both) is the same; 0x1010 went, 0x1030 came.
  REQUIRE(d.differences.size() == 2);
  CHECK(d.differences[0].kind == MapDiffKind::Removed);
  CHECK(d.differences[0].path == "dictionary 0x1010");
  CHECK(d.differences[0].a == "string, int32[]");
  CHECK(d.differences[0].b.empty());
  CHECK(d.differences[0].offsetA == 12);  // directory[1].rva
  CHECK(d.differences[1].kind == MapDiffKind::Added);
  CHECK(d.differences[1].path == "dictionary 0x1030");
  CHECK(d.differences[1].b == "int32");
  CHECK(d.differences[1].rva == 0x1030u);
  CHECK(d.count(MapDiffKind::Added) == 1);
  CHECK(d.count(MapDiffKind::Removed) == 1);
}

TEST_CASE("map diff: a changed type names the dictionary, the type and both texts") {
  MapBytes b;
  const std::uint32_t generic = b.item(1, {0x15, 0x12, 0x49, 0x01, 0x08});
  const std::uint32_t pair = b.item(2, {0x0E, 0x0E});  // int32[] -> string: one byte shorter
  b.entry(0x1000, generic).entry(0x1010, pair).entry(0x1020, generic);
  const MapDiff d = diffMaps(exampleMap(), b.bytes());
  INFO(paths(d));
  REQUIRE(d.differences.size() == 1);
  const MapDiffEntry& e = d.differences[0];
  CHECK(e.kind == MapDiffKind::Changed);
  CHECK(e.path == "dictionary 0x1010.type[1]");
  CHECK(e.a == "int32[]");
  CHECK(e.b == "string");
  CHECK(e.offsetA == 38);
  CHECK(d.count(MapDiffKind::Changed) == 1);
  CHECK(e.contextA.empty());  // only asked for

  MapDiffOptions withContext;
  withContext.context = true;
  const MapDiff c1 = diffMaps(exampleMap(), b.bytes(), withContext);
  REQUIRE(c1.differences.size() == 1);
  CHECK(c1.differences[0].contextA == "string, int32[]");
  CHECK(c1.differences[0].contextB == "string, string");

  // A type more: type[2] exists on one side only.
  MapBytes c;
  const std::uint32_t g2 = c.item(1, {0x15, 0x12, 0x49, 0x01, 0x08});
  const std::uint32_t triple = c.item(3, {0x0E, 0x1D, 0x08, 0x1C});
  c.entry(0x1000, g2).entry(0x1010, triple).entry(0x1020, g2);
  const MapDiff more = diffMaps(exampleMap(), c.bytes());
  REQUIRE(more.differences.size() == 1);
  CHECK(more.differences[0].path == "dictionary 0x1010.type[2]");
  CHECK(more.differences[0].a.empty());
  CHECK(more.differences[0].b == "object");
}

TEST_CASE("map diff: an instantiation no longer shared") {
  MapBytes b;
  const std::uint32_t generic = b.item(1, {0x15, 0x12, 0x49, 0x01, 0x08});
  const std::uint32_t pair = b.item(2, {0x0E, 0x1D, 0x08});
  const std::uint32_t copy = b.item(1, {0x15, 0x12, 0x49, 0x01, 0x08});
  b.entry(0x1000, generic).entry(0x1010, pair).entry(0x1020, copy);
  const MapDiff d = diffMaps(exampleMap(), b.bytes());
  INFO(paths(d));
  REQUIRE(d.differences.size() == 1);
  const MapDiffEntry& e = d.differences[0];
  CHECK(e.kind == MapDiffKind::Sharing);
  CHECK(e.path == "dictionary 0x1020.instantiation");
  CHECK(e.a == "shared with dictionary 0x1000");
  CHECK(e.b == "not shared");
  CHECK_FALSE(d.sameContent);
  // And the other way round.
  const MapDiff back = diffMaps(b.bytes(), exampleMap());
  REQUIRE(back.differences.size() == 1);
  CHECK(back.differences[0].a == "not shared");
  CHECK(back.differences[0].b == "shared with dictionary 0x1000");
}

TEST_CASE("map diff: the same content laid out differently is a layout difference") {
  // Items in the other heap order.
  MapBytes b;
  const std::uint32_t pair = b.item(2, {0x0E, 0x1D, 0x08});
  const std::uint32_t generic = b.item(1, {0x15, 0x12, 0x49, 0x01, 0x08});
  b.entry(0x1000, generic).entry(0x1010, pair).entry(0x1020, generic);
  const MapDiff d = diffMaps(exampleMap(), b.bytes());
  INFO(paths(d));
  CHECK(d.structural);
  CHECK(d.sameContent);
  CHECK_FALSE(d.identical);
  REQUIRE(d.differences.size() == 2);
  CHECK(d.differences[0].kind == MapDiffKind::Layout);
  CHECK(d.differences[0].path == "dictionary 0x1000.item");
  CHECK(d.differences[0].a == "heap@0x0");
  CHECK(d.differences[0].b == "heap@0x5");
  CHECK(d.differences[1].path == "dictionary 0x1010.item");
  CHECK(d.count(MapDiffKind::Layout) == 2);

  // Directory order (an unsorted map) and a non-minimal length prefix.
  MapBytes x(false), y(false);
  x.add(0x1000, 1, {0x08}).add(0x1010, 1, {0x0E});
  y.entry(0x1010, 0).entry(0x1000, 4).heap({0x80, 0x02, 0x01, 0x0E}).heap({0x02, 0x01, 0x08});
  const MapDiff l = diffMaps(x.bytes(), y.bytes());
  INFO(paths(l));
  CHECK(l.sameContent);
  CHECK(find(l, "dictionary 0x1000.directory") != nullptr);
  CHECK(find(l, "dictionary 0x1000.directory")->a == "directory[0]");
  CHECK(find(l, "dictionary 0x1000.directory")->b == "directory[1]");
  REQUIRE(find(l, "dictionary 0x1010.encoding") != nullptr);
  CHECK(find(l, "dictionary 0x1010.encoding")->a == "02010e");
  CHECK(find(l, "dictionary 0x1010.encoding")->b == "8002010e");
  REQUIRE(find(l, "heap.size") != nullptr);
  CHECK(find(l, "heap.size")->a == "6 bytes");
  CHECK(find(l, "heap.size")->b == "7 bytes");
}

TEST_CASE("map diff: unreachable heap bytes") {
  MapBytes a, b;
  a.add(0x1000, 1, {0x08}).heap({0xAA});
  b.add(0x1000, 1, {0x08}).heap({0xBB});
  const MapDiff d = diffMaps(a.bytes(), b.bytes());
  CHECK(d.sameContent);
  REQUIRE(d.differences.size() == 1);
  CHECK(d.differences[0].kind == MapDiffKind::Layout);
  CHECK(d.differences[0].path == "heap@0x3 (unreachable)");
  CHECK(d.differences[0].a == "aa");
  CHECK(d.differences[0].b == "bb");
}

TEST_CASE("map diff: an input that does not read as a map is compared byte by byte") {
  MapBytes b;
  b.entry(0x1000, 0x40).heap({0x02, 0x01, 0x08});  // offset outside the heap
  MapBytes a;
  a.add(0x1000, 1, {0x08});
  const MapDiff d = diffMaps(a.bytes(), b.bytes());
  CHECK_FALSE(d.structural);
  CHECK_FALSE(d.sameContent);
  CHECK_FALSE(d.unreadableA);
  REQUIRE(d.unreadableB);
  CHECK(d.unreadableB->rule == rules::kOffsetOutsideHeap);
  CHECK(d.unreadableB->message.find("directory[0] -> heap@0x40") == 0);
  CHECK(d.unreadableB->offset == 8);  // past the end: the entry's offset field
  REQUIRE(d.differences.size() == 1);
  const MapDiffEntry& e = d.differences[0];
  CHECK(e.kind == MapDiffKind::Bytes);
  CHECK(e.path == "directory[0].offset");
  CHECK(e.offsetA == 8);
  // The quote is the named field's bytes, not the heap item after them.
  CHECK(e.a == "00000000");
  CHECK(e.b == "40000000");
  CHECK(d.bytes.differingBytes == 1);
  CHECK(d.bytes.differingRuns == 1);
  CHECK(d.bytes.pathA == "directory[0].offset");

  // Truncated: one side ends early.
  Bytes cut = exampleMap();
  cut.resize(30);
  const MapDiff t = diffMaps(exampleMap(), cut);
  CHECK_FALSE(t.structural);
  REQUIRE(t.unreadableB);
  CHECK(t.bytes.firstOffset == 30);
  CHECK(t.bytes.pathB == "end of map");
  CHECK(t.bytes.differingBytes == 10);
  CHECK(t.differences[0].b == "end of map");

  // Two entries with one RVA: dictionaries cannot be matched.
  MapBytes dup(false);
  dup.add(0x1000, 1, {0x08}).add(0x1000, 1, {0x0E});
  const MapDiff u = diffMaps(a.bytes(), dup.bytes());
  REQUIRE(u.unreadableB);
  CHECK(u.unreadableB->rule == rules::kDuplicateRva);
  CHECK(u.unreadableB->offset == 12);
}

TEST_CASE("map diff: types that do not decode are compared by their bytes") {
  MapBytes a, b, c;
  a.add(0x1000, 2, {0x08, 0x1D});  // int32, then a truncated SZARRAY
  b.add(0x1000, 2, {0x08, 0x1D});
  c.add(0x1000, 2, {0x0E, 0x1D});
  Bytes a2 = a.bytes(), b2 = b.bytes();
  b2.push_back(0x00);  // a trailing byte, so the two differ but not in the item
  const MapDiff same = diffMaps(a2, b2);
  CHECK(same.structural);
  CHECK(same.sameContent);
  const MapDiff d = diffMaps(a.bytes(), c.bytes());
  INFO(paths(d));
  REQUIRE(d.differences.size() == 1);
  CHECK(d.differences[0].path == "dictionary 0x1000.type[0]");
  CHECK(d.differences[0].a == "int32");
  CHECK(d.differences[0].b == "string");
  MapBytes e;
  e.add(0x1000, 2, {0x08, 0x1C});
  const MapDiff bad = diffMaps(a.bytes(), e.bytes());
  REQUIRE(bad.differences.size() == 1);
  CHECK(bad.differences[0].a.find("1d (does not decode: ") == 0);
  CHECK(bad.differences[0].b == "object");
}

TEST_CASE("map diff: the list is capped, the rest counted") {
  MapBuilder x, y;
  std::vector<Type> int32{Type::primitive(ElementType::I4)}, str{Type::primitive(ElementType::String)};
  for (std::uint32_t i = 0; i < 1000; ++i) {
    REQUIRE(x.add(0x1000 + 16 * i, int32));
    REQUIRE(y.add(0x1000 + 16 * i, i % 2 ? str : int32));
  }
  const Bytes a = *x.finish(), b = *y.finish();
  MapDiffOptions options;
  options.maxListed = 10;
  const MapDiff d = diffMaps(a, b, options);
  CHECK(d.differences.size() == 10);
  CHECK(d.total == 500);
  CHECK(d.notListed() == 490);
  CHECK(d.count(MapDiffKind::Changed) == 500);
  CHECK(d.differences[0].path == "dictionary 0x1010.type[0]");
  options.maxListed = MapDiffOptions::kUnlimited;
  CHECK(diffMaps(a, b, options).differences.size() == 500);
}

TEST_CASE("map diff: a large shared item compared once still names every dictionary") {
  // 50 dictionaries share one item of 100 types; B changes its last type.
  Bytes itemA = {100}, itemB = {100};
  for (int k = 0; k < 100; ++k) {
    itemA.push_back(0x08);
    itemB.push_back(k == 99 ? 0x0E : 0x08);
  }
  itemA.insert(itemA.begin(), static_cast<std::uint8_t>(itemA.size()));
  itemB.insert(itemB.begin(), static_cast<std::uint8_t>(itemB.size()));
  MapBytes a, b;
  a.heap(itemA);
  b.heap(itemB);
  for (std::uint32_t i = 0; i < 50; ++i) {
    a.entry(0x1000 + 16 * i, 0);
    b.entry(0x1000 + 16 * i, 0);
  }
  MapDiffOptions options;
  options.maxListed = 30;
  const MapDiff d = diffMaps(a.bytes(), b.bytes(), options);
  CHECK(d.count(MapDiffKind::Changed) == 50);
  CHECK(d.total == 50);
  REQUIRE(d.differences.size() == 30);
  for (std::uint32_t i = 0; i < 30; ++i) {
    CHECK(d.differences[i].path == "dictionary " + shortHex(0x1000 + 16 * i) + ".type[99]");
    CHECK(d.differences[i].rva == 0x1000 + 16 * i);
    CHECK(d.differences[i].a == "int32");
    CHECK(d.differences[i].b == "string");
  }
}

// Seeded: maps built from random content, then one thing changed in the
// content (the diff names that dictionary) or one byte changed (the diff is
// not empty and its first differing byte is that one).
TEST_CASE("map diff: random mutations are found and named") {
  std::mt19937_64 rng(20261123);
  const std::vector<Type> pool = {Type::primitive(ElementType::I4),
                                  Type::primitive(ElementType::String),
                                  Type::primitive(ElementType::Object),
                                  Type::szArray(Type::primitive(ElementType::I4)),
                                  Type::typeVariable(0),
                                  Type::classType(Token{0x01000012})};
  for (int round = 0; round < 200; ++round) {
    CAPTURE(round);
    const std::size_t n = 1 + rng() % 12;
    std::vector<std::uint32_t> rvas;
    std::vector<std::vector<Type>> types;
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t rva;
      do rva = 0x1000 + 4 * static_cast<std::uint32_t>(rng() % 64);
      while (std::ranges::find(rvas, rva) != rvas.end());
      rvas.push_back(rva);
      std::vector<Type> t;
      for (std::size_t k = 0, m = 1 + rng() % 3; k < m; ++k) t.push_back(pool[rng() % pool.size()]);
      types.push_back(std::move(t));
    }
    auto build = [&](const std::vector<std::uint32_t>& r, const std::vector<std::vector<Type>>& t) {
      MapBuilder b;
      for (std::size_t i = 0; i < r.size(); ++i) REQUIRE(b.add(r[i], t[i]));
      return *b.finish();
    };
    const Bytes a = build(rvas, types);
    REQUIRE(diffMaps(a, a).total == 0);

    auto mr = rvas;
    auto mt = types;
    const std::size_t victim = rng() % n;
    std::string expected = "dictionary " + shortHex(rvas[victim]);
    switch (rng() % 3) {
      case 0: {  // a type replaced by another
        const std::size_t k = rng() % mt[victim].size();
        Type other = mt[victim][k];
        while (other == mt[victim][k]) other = pool[rng() % pool.size()];
        mt[victim][k] = other;
        expected += typeIndexPath(k);
        break;
      }
      case 1:  // a dictionary removed
        mr.erase(mr.begin() + static_cast<std::ptrdiff_t>(victim));
        mt.erase(mt.begin() + static_cast<std::ptrdiff_t>(victim));
        break;
      default:  // a type appended
        mt[victim].push_back(pool[rng() % pool.size()]);
        expected += typeIndexPath(mt[victim].size() - 1);
        break;
    }
    if (mr.empty()) continue;
    const Bytes b = build(mr, mt);
    const MapDiff d = diffMaps(a, b);
    INFO(paths(d));
    CHECK(d.structural);
    CHECK_FALSE(d.identical);
    CHECK(d.total >= 1);
    CHECK(find(d, expected) != nullptr);

    // One byte flipped, anywhere.
    Bytes flipped = a;
    const std::size_t at = rng() % flipped.size();
    flipped[at] ^= static_cast<std::uint8_t>(1 + rng() % 255);
    const MapDiff f = diffMaps(a, flipped);
    CHECK_FALSE(f.identical);
    CHECK(f.total >= 1);
    CHECK(f.bytes.firstOffset == at);
    CHECK(f.bytes.pathA == mapFieldPath(a, at));
    if (!f.structural) CHECK(f.differences[0].offsetA == at);
    // A flipped directory RVA is a dictionary that went and one that came.
    if (f.structural && at >= 4 && at < 4 + 8 * n && (at - 4) % 8 < 4)
      CHECK(find(f, "dictionary " + shortHex(readU32(a, at - (at - 4) % 8))) != nullptr);
  }
}

// docs/library.md's diffMaps example is compiled and run from the document
// itself, with this check on what it prints (tests/docs/, CTest
// docs.library_examples); no copy of it is kept here.

}  // namespace gdmap

namespace gdmap {
namespace {

// class 0x01000012<class 0x01000013<... `depth` levels ...<leaf>>>, with
// `head` as the outermost generic type's coded token.
std::vector<std::uint8_t> nestedGeneric(int depth, std::uint8_t leaf, std::uint8_t head = 0x49) {
  std::vector<std::uint8_t> bytes;
  for (int i = 0; i < depth; ++i) bytes.insert(bytes.end(), {0x15, 0x12, i == 0 ? head : std::uint8_t{0x4D}, 0x01});
  bytes.push_back(leaf);
  return bytes;
}

Bytes oneDictionary(const std::vector<std::uint8_t>& type) {
  MapBytes m;
  m.entry(0x1000, m.item(1, type));
  return m.bytes();
}

}  // namespace

TEST_CASE("map diff: a change deep in a long type is shown where it is (issue 20)") {
  const MapDiff d = diffMaps(oneDictionary(nestedGeneric(15, 0x08)), oneDictionary(nestedGeneric(15, 0x0A)));
  REQUIRE(d.differences.size() == 1);
  const MapDiffEntry& e = d.differences[0];
  CHECK(e.path == "dictionary 0x1000.type[0]");
  // Both texts are over 250 characters: each is cut around the change.
  CHECK(e.a != e.b);
  CHECK(e.a.find("int32") != std::string::npos);
  CHECK(e.b.find("int64") != std::string::npos);
  CHECK(e.a.size() <= 100);
  CHECK(e.a.rfind("...", 0) == 0);
  std::string fifteen;
  for (int i = 0; i < 15; ++i) fifteen += ".arguments[0]";
  CHECK(e.subPath == fifteen);
  CHECK(e.partA == "int32");
  CHECK(e.partB == "int64");

  // Only the outermost generic type changed: its head is the part.
  const MapDiff h = diffMaps(oneDictionary(nestedGeneric(15, 0x08)), oneDictionary(nestedGeneric(15, 0x08, 0x51)));
  REQUIRE(h.differences.size() == 1);
  CHECK(h.differences[0].subPath == ".genericType");
  CHECK(h.differences[0].partA == "class 0x01000012");
  CHECK(h.differences[0].partB == "class 0x01000014");
  CHECK(h.differences[0].a != h.differences[0].b);

  // Short types that differ at the top: no part, the texts whole.
  const MapDiff s = diffMaps(oneDictionary({0x08}), oneDictionary({0x0A}));
  REQUIRE(s.differences.size() == 1);
  CHECK(s.differences[0].subPath.empty());
  CHECK(s.differences[0].a == "int32");
}

}  // namespace gdmap
