// checkMap() and checkCanonical(): one hand-written map per rule of
// FORMAT.md §1 that breaks exactly that rule. Expected offsets follow from
// the layout: the heap starts at 4 + 8N, and `heap@0xK` paths are relative
// to it.
#include <gdmap/reader/map_check.hpp>

#include "reader/map/map_check_analysis.hpp"
#include "tests/support/map_bytes.hpp"

#include <doctest/doctest.h>

#include <string>

using gdmap::Bytes;
using gdmap::CheckOptions;
using gdmap::CheckReport;
using gdmap::Diagnostic;
using gdmap::Severity;
using gdmap::test::MapBytes;

namespace {

// One entry at heap offset 0: the heap starts at byte 12.
Bytes oneItem(std::initializer_list<std::uint8_t> heap) { return MapBytes().entry(0x1000, 0).heap(heap).bytes(); }

// Checks that `map` breaks exactly one rule, as stated.
void expectOnly(const Bytes& map, const std::string& rule, const std::string& path, std::size_t offset,
                Severity severity) {
  const CheckReport report = gdmap::checkMap(map);
  INFO("rule ", rule);
  for (const Diagnostic& d : report.diagnostics) INFO(gdmap::formatDiagnostic(d));
  REQUIRE(report.diagnostics.size() == 1);
  const Diagnostic& d = report.diagnostics[0];
  INFO(gdmap::formatDiagnostic(d));
  CHECK(d.rule == rule);
  CHECK(d.path == path);
  CHECK(d.offset == offset);
  CHECK(d.severity == severity);
  CHECK_FALSE(d.message.empty());
  CHECK_FALSE(report.truncated);
  if (severity == Severity::Error) {
    CHECK(report.errors == 1);
    CHECK(report.warnings == 0);
    CHECK_FALSE(report.valid);
  } else {
    CHECK(report.errors == 0);
    CHECK(report.warnings == 1);
    CHECK(report.valid);
    // --strict: the same finding, now an error.
    CheckOptions strict;
    strict.strict = true;
    const CheckReport s = gdmap::checkMap(map, strict);
    REQUIRE(s.diagnostics.size() == 1);
    CHECK(s.diagnostics[0].rule == rule);
    CHECK(s.diagnostics[0].severity == Severity::Error);
    CHECK(s.errors == 1);
    CHECK(s.warnings == 0);
    CHECK_FALSE(s.valid);
  }
}

void expectError(const Bytes& map, const std::string& rule, const std::string& path, std::size_t offset) {
  expectOnly(map, rule, path, offset, Severity::Error);
}
void expectWarning(const Bytes& map, const std::string& rule, const std::string& path, std::size_t offset) {
  expectOnly(map, rule, path, offset, Severity::Warning);
}

// Three entries, two distinct items (one shared), canonical.
Bytes validMap() {
  MapBytes m;
  const std::uint32_t a = m.item(1, {0x08});                                // heap@0x0: int32
  const std::uint32_t b = m.item(2, {0x0E, 0x15, 0x12, 0x49, 0x01, 0x08});  // heap@0x3: string, class<int32>
  return m.entry(0x1000, a).entry(0x1010, b).entry(0x1020, a).bytes();
}

}  // namespace

TEST_CASE("check: a valid map has no diagnostics") {
  for (const Bytes& map : {validMap(), Bytes{0x00, 0x00, 0x00, 0x80}, Bytes{0x00, 0x00, 0x00, 0x00}}) {
    const CheckReport report = gdmap::checkMap(map);
    CHECK(report.diagnostics.empty());
    CHECK(report.errors == 0);
    CHECK(report.warnings == 0);
    CHECK(report.valid);
    CHECK_FALSE(report.truncated);
    CheckOptions strict;
    strict.strict = true;
    CHECK(gdmap::checkMap(map, strict).valid);
  }
  // Unsorted, in any order, is valid too.
  MapBytes m(false);
  const std::uint32_t a = m.item(1, {0x08});
  m.entry(0x3000, a).entry(0x1000, a);
  CHECK(gdmap::checkMap(m.bytes()).diagnostics.empty());
}

TEST_CASE("check: stream-too-short") {
  expectError({}, "stream-too-short", "header.count", 0);
  expectError({0x01, 0x00, 0x00}, "stream-too-short", "header.count", 0);
}

TEST_CASE("check: directory-truncated") {
  // Two entries announced, one present.
  expectError(MapBytes().header(0x80000002u).entry(0x1000, 0).heap({0x02, 0x01, 0x08}).bytes(), "directory-truncated",
              "header.count", 0);
  // The 4-byte map claiming 2^31-1 entries, with and without bit 31: the
  // count is compared with the bytes left before anything is read.
  for (const Bytes& map : {Bytes{0xFF, 0xFF, 0xFF, 0x7F}, Bytes{0xFF, 0xFF, 0xFF, 0xFF}}) {
    expectError(map, "directory-truncated", "header.count", 0);
  }
  // A huge count with a few bytes.
  Bytes map{0x00, 0x00, 0x00, 0x40};  // 2^30 entries
  map.resize(64, 0);
  expectError(map, "directory-truncated", "header.count", 0);
}

TEST_CASE("check: rva-not-ascending") {
  // Bit 31 set, directory[1]'s RVA below directory[0]'s: directory[1].rva at byte 4 + 8.
  MapBytes down;
  const std::uint32_t a = down.item(1, {0x08});
  const std::uint32_t b = down.item(1, {0x0E});
  expectError(down.entry(0x2000, a).entry(0x1000, b).bytes(), "rva-not-ascending", "directory[1].rva", 12);
  // Equal RVAs are not ascending either.
  MapBytes equal;
  equal.entry(0x1000, equal.item(1, {0x08})).entry(0x1000, equal.item(1, {0x0E}));
  expectError(equal.bytes(), "rva-not-ascending", "directory[1].rva", 12);
  // Only the entry that breaks the order is reported.
  MapBytes dip;
  const std::uint32_t c = dip.item(1, {0x08});
  dip.entry(0x1000, c).entry(0x3000, c).entry(0x2000, c).entry(0x4000, c);
  expectError(dip.bytes(), "rva-not-ascending", "directory[2].rva", 20);
}

TEST_CASE("check: duplicate-rva in an unsorted map") {
  MapBytes m(false);
  const std::uint32_t a = m.item(1, {0x08});
  const std::uint32_t b = m.item(1, {0x0E});
  m.entry(0x2000, a).entry(0x1000, b).entry(0x2000, a);
  expectError(m.bytes(), "duplicate-rva", "directory[2].rva", 20);
}

TEST_CASE("check: offset-outside-heap") {
  // The heap is 3 bytes; offset 3 is its end, not inside it. directory[1].offset at byte 4 + 8 + 4.
  expectError(MapBytes().entry(0x1000, 0).entry(0x1010, 3).heap({0x02, 0x01, 0x08}).bytes(), "offset-outside-heap",
              "directory[1].offset", 16);
  expectError(MapBytes().entry(0x1000, 0).entry(0x1010, 0xFFFFFFFFu).heap({0x02, 0x01, 0x08}).bytes(),
              "offset-outside-heap", "directory[1].offset", 16);
  // With an empty heap nothing is inside it.
  expectError(MapBytes().entry(0x1000, 0).bytes(), "offset-outside-heap", "directory[0].offset", 8);
}

TEST_CASE("check: invalid-compressed-int") {
  // Lead byte 111xxxxx in the length prefix (heap starts at 12).
  expectError(oneItem({0xE0, 0x01, 0x08}), "invalid-compressed-int", "heap@0x0.length", 12);
  // A 4-byte length prefix with only 2 bytes left in the heap.
  expectError(oneItem({0xC0, 0x00}), "invalid-compressed-int", "heap@0x0.length", 12);
  // The type count's lead byte is invalid.
  expectError(oneItem({0x02, 0xE0, 0x08}), "invalid-compressed-int", "heap@0x0.count", 13);
  // L = 1 but the count needs 2 bytes: the count may not borrow past the item.
  expectError(oneItem({0x01, 0x80}), "invalid-compressed-int", "heap@0x0.count", 13);
  // L = 0: no room for the count at all.
  expectError(oneItem({0x00}), "invalid-compressed-int", "heap@0x0.count", 13);
}

TEST_CASE("check: item-length-outside-heap") {
  expectError(oneItem({0x05, 0x01, 0x08}), "item-length-outside-heap", "heap@0x0.length", 12);
  expectError(oneItem({0xDF, 0xFF, 0xFF, 0xFF, 0x01, 0x08}), "item-length-outside-heap", "heap@0x0.length", 12);
}

TEST_CASE("check: zero-type-count") { expectError(oneItem({0x01, 0x00}), "zero-type-count", "heap@0x0.count", 13); }

TEST_CASE("check: type-count-exceeds-item") {
  expectError(oneItem({0x02, 0x02, 0x08}), "type-count-exceeds-item", "heap@0x0.count", 13);
  // A 4-byte count of 2^29 - 1 with one byte of types.
  expectError(oneItem({0x06, 0xDF, 0xFF, 0xFF, 0xFF, 0x08, 0x08}), "type-count-exceeds-item", "heap@0x0.count", 13);
}

TEST_CASE("check: a bad type is reported under the type decoder's own rule") {
  // The decoder names what is wrong (its rules are in docs/errors.md, "Type
  // signatures"); the checker passes that on, and says invalid-type only
  // when the decoder names nothing more specific.
  // An unknown element type: type[0] starts at byte 14.
  expectError(oneItem({0x02, 0x01, 0xFF}), "unknown-element-type", "heap@0x0.type[0]", 14);
  // CLASS with token tag 3: the token byte.
  expectError(oneItem({0x03, 0x01, 0x12, 0x03}), "invalid-token", "heap@0x0.type[0].token", 15);
  // The second type is the bad one.
  expectError(oneItem({0x03, 0x02, 0x08, 0xFF}), "unknown-element-type", "heap@0x0.type[1]", 15);
  // GENERICINST with 0 arguments: the argument count, byte 12 + 5.
  expectError(oneItem({0x05, 0x01, 0x15, 0x12, 0x49, 0x00}), "invalid-generic-instance",
              "heap@0x0.type[0].argumentCount", 17);
  // Inside a generic argument.
  expectError(oneItem({0x06, 0x01, 0x15, 0x12, 0x49, 0x01, 0xFF}), "unknown-element-type",
              "heap@0x0.type[0].arguments[0]", 18);
  // A sentinel is no type on its own.
  expectError(oneItem({0x02, 0x01, 0x41}), "invalid-sentinel", "heap@0x0.type[0]", 14);
}

TEST_CASE("check: item-length-mismatch") {
  // L = 3 but the one type (int32) ends after 2: the length is wrong.
  expectError(oneItem({0x03, 0x01, 0x08, 0x08}), "item-length-mismatch", "heap@0x0.length", 12);
  // L = 2 cuts SZARRAY int32 in half; the bytes after the item would finish
  // it. The next item (heap@0x3: L = 8, seven int32) covers them.
  expectError(MapBytes()
                  .entry(0x1000, 0)
                  .entry(0x1010, 3)
                  .heap({0x02, 0x01, 0x1D})
                  .heap({0x08, 0x07, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08, 0x08})
                  .bytes(),
              "item-length-mismatch", "heap@0x0.length", 20);
}

TEST_CASE("check: unreachable-heap-bytes") {
  // Trailing: heap bytes 3..4 (map bytes 15..16).
  expectWarning(oneItem({0x02, 0x01, 0x08, 0xFF, 0xFF}), "unreachable-heap-bytes", "heap@0x3", 15);
  // Leading: the only entry points at heap@0x2.
  expectWarning(MapBytes().entry(0x1000, 2).heap({0xAA, 0xBB, 0x02, 0x01, 0x08}).bytes(), "unreachable-heap-bytes",
                "heap@0x0", 12);
  // Between two items (heap starts at 20).
  expectWarning(
      MapBytes().entry(0x1000, 0).entry(0x1010, 5).heap({0x02, 0x01, 0x08, 0xFF, 0xFF, 0x02, 0x01, 0x0E}).bytes(),
      "unreachable-heap-bytes", "heap@0x3", 23);
  // A heap with no entry at all.
  expectWarning(MapBytes().heap({0x02, 0x01, 0x08}).bytes(), "unreachable-heap-bytes", "heap@0x0", 4);
  // Reported as a range: the message names both ends.
  const CheckReport r = gdmap::checkMap(oneItem({0x02, 0x01, 0x08, 0xFF, 0xFF}));
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].message.find("0x3..0x4") != std::string::npos);
}

TEST_CASE("check: overlapping-items") {
  // heap@0x0 is L = 6: `method unmanaged stdcall int32 *(int32)` = 1B 02 01 08 08.
  // heap@0x3 starts inside it: 02 01 08 is L = 2, one int32.
  expectWarning(MapBytes().entry(0x1000, 0).entry(0x1010, 3).heap({0x06, 0x01, 0x1B, 0x02, 0x01, 0x08, 0x08}).bytes(),
                "overlapping-items", "heap@0x3", 23);
}

TEST_CASE("check: non-minimal-integer") {
  // Length 2 written in the 2-byte form.
  expectWarning(oneItem({0x80, 0x02, 0x01, 0x08}), "non-minimal-integer", "heap@0x0.length", 12);
  // Count 1 written in the 2-byte form.
  expectWarning(oneItem({0x03, 0x80, 0x01, 0x08}), "non-minimal-integer", "heap@0x0.count", 13);
  // Inside a type: !0 with its index in the 2-byte form (byte 12 + 3).
  expectWarning(oneItem({0x04, 0x01, 0x13, 0x80, 0x00}), "non-minimal-integer", "heap@0x0.type[0].index", 15);
}

TEST_CASE("check: unusable-generic-argument") {
  // The instantiation's types themselves (type[0] at byte 14).
  expectWarning(oneItem({0x02, 0x01, 0x01}), "unusable-generic-argument", "heap@0x0.type[0]", 14);        // void
  expectWarning(oneItem({0x03, 0x01, 0x10, 0x08}), "unusable-generic-argument", "heap@0x0.type[0]", 14);  // int32&
  expectWarning(oneItem({0x02, 0x01, 0x16}), "unusable-generic-argument", "heap@0x0.type[0]", 14);        // typedref
  expectWarning(oneItem({0x03, 0x01, 0x45, 0x08}), "unusable-generic-argument", "heap@0x0.type[0]", 14);  // pinned
  // Behind a custom modifier: void modopt(0x01000012).
  expectWarning(oneItem({0x04, 0x01, 0x20, 0x49, 0x01}), "unusable-generic-argument", "heap@0x0.type[0].inner", 16);
  // As a GENERICINST argument: class 0x01000012<void>.
  expectWarning(oneItem({0x06, 0x01, 0x15, 0x12, 0x49, 0x01, 0x01}), "unusable-generic-argument",
                "heap@0x0.type[0].arguments[0]", 18);
  // As an array element: int32&[] and typedref[...].
  expectWarning(oneItem({0x04, 0x01, 0x1D, 0x10, 0x08}), "unusable-generic-argument", "heap@0x0.type[0].inner", 15);
  expectWarning(oneItem({0x06, 0x01, 0x14, 0x16, 0x01, 0x00, 0x00}), "unusable-generic-argument",
                "heap@0x0.type[0].inner", 15);
  // Two in one type: class 0x01000012<void, typedref>.
  const CheckReport two = gdmap::checkMap(oneItem({0x07, 0x01, 0x15, 0x12, 0x49, 0x02, 0x01, 0x16}));
  REQUIRE(two.diagnostics.size() == 2);
  CHECK(two.diagnostics[0].path == "heap@0x0.type[0].arguments[0]");
  CHECK(two.diagnostics[1].path == "heap@0x0.type[0].arguments[1]");
  CHECK(two.diagnostics[1].offset == 19);
}

TEST_CASE("check: void and byref where the runtime allows them are fine") {
  // void*.
  CHECK(gdmap::checkMap(oneItem({0x03, 0x01, 0x0F, 0x01})).diagnostics.empty());
  // method void *(int32&).
  CHECK(gdmap::checkMap(oneItem({0x07, 0x01, 0x1B, 0x00, 0x01, 0x01, 0x10, 0x08})).diagnostics.empty());
  // class 0x01000012<int32*>.
  CHECK(gdmap::checkMap(oneItem({0x07, 0x01, 0x15, 0x12, 0x49, 0x01, 0x0F, 0x01})).diagnostics.empty());
}

TEST_CASE("check: unshared-duplicate-items") {
  // The same item twice (heap starts at 20); the second copy is reported.
  expectWarning(MapBytes().entry(0x1000, 0).entry(0x1010, 3).heap({0x02, 0x01, 0x08, 0x02, 0x01, 0x08}).bytes(),
                "unshared-duplicate-items", "heap@0x3", 23);
  // Same types but a different length encoding are different bytes (that is
  // non-minimal-integer's business, not this rule's).
  const CheckReport r = gdmap::checkMap(
      MapBytes().entry(0x1000, 0).entry(0x1010, 3).heap({0x02, 0x01, 0x08, 0x80, 0x02, 0x01, 0x08}).bytes());
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].rule == "non-minimal-integer");
}

TEST_CASE("check: duplicate items are found through hash collisions without comparing every pair") {
  // Every item hashes alike: the worst case a crafted collision could give.
  const auto collide = [](gdmap::ByteSpan) -> std::uint64_t { return 7; };
  const Bytes a = {0x02, 0x01, 0x08}, b = {0x02, 0x01, 0x0E}, c = {0x02, 0x01, 0x1C};
  const std::vector<gdmap::ByteSpan> items = {a, b, a, c, b, a, c};
  const auto d = gdmap::detail::findDuplicateItems(items, +collide);
  using Pair = std::pair<std::uint32_t, std::uint32_t>;
  CHECK(d == std::vector<Pair>{{2, 0}, {4, 1}, {5, 0}, {6, 3}});
  // The real hash gives the same answer.
  CHECK(gdmap::detail::findDuplicateItems(items) == d);
  // Many distinct items in one collision, each twice: sorted, so each is
  // compared O(log n) times, where comparing pairs would take 10^8.
  constexpr std::uint32_t kDistinct = 10000;
  std::vector<Bytes> many;
  for (std::uint32_t i = 0; i < 2 * kDistinct; ++i) {
    const std::uint32_t v = i % kDistinct;
    many.push_back({static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8)});
  }
  const std::vector<gdmap::ByteSpan> spans(many.begin(), many.end());
  const auto pairs = gdmap::detail::findDuplicateItems(spans, +collide);
  REQUIRE(pairs.size() == kDistinct);
  for (std::uint32_t i = 0; i < kDistinct; ++i) CHECK(pairs[i] == Pair{kDistinct + i, i});
}

TEST_CASE("check: all problems are reported, in order of offset") {
  MapBytes m;
  m.entry(0x2000, 0)                                 // directory[0]
      .entry(0x1000, 3)                              // directory[1]: rva-not-ascending (byte 12)
      .entry(0x3000, 99)                             // directory[2]: offset-outside-heap (byte 24)
      .entry(0x4000, 6)                              // directory[3]
      .heap({0x02, 0x01, 0x01,                       // heap@0x0: void (unusable)
             0x02, 0x00, 0x08,                       // heap@0x3: zero-type-count
             0x02, 0x01, 0xFF,                       // heap@0x6: invalid-type
             0xEE});                                 // heap@0x9: unreachable
  const CheckReport r = gdmap::checkMap(m.bytes());  // heap starts at 36
  REQUIRE(r.diagnostics.size() == 6);
  CHECK(r.diagnostics[0].rule == "rva-not-ascending");
  CHECK(r.diagnostics[0].offset == 12);
  CHECK(r.diagnostics[1].rule == "offset-outside-heap");
  CHECK(r.diagnostics[1].offset == 24);
  CHECK(r.diagnostics[2].rule == "unusable-generic-argument");
  CHECK(r.diagnostics[2].offset == 38);
  CHECK(r.diagnostics[3].rule == "zero-type-count");
  CHECK(r.diagnostics[3].path == "heap@0x3.count");
  CHECK(r.diagnostics[3].offset == 40);
  CHECK(r.diagnostics[4].rule == "unknown-element-type");
  CHECK(r.diagnostics[4].path == "heap@0x6.type[0]");
  CHECK(r.diagnostics[4].offset == 44);
  CHECK(r.diagnostics[5].rule == "unreachable-heap-bytes");
  CHECK(r.diagnostics[5].path == "heap@0x9");
  CHECK(r.diagnostics[5].offset == 45);
  CHECK(r.errors == 4);
  CHECK(r.warnings == 2);
  CHECK_FALSE(r.valid);
}

TEST_CASE("check: maxDiagnostics truncates the list, not the counts") {
  MapBytes m;
  for (std::uint32_t i = 0; i < 10; ++i) m.entry(0x1000 + i, 0x100);
  m.heap({0x02, 0x01, 0x08});  // reached by nobody: one warning
  CheckOptions options;
  options.maxDiagnostics = 3;
  const CheckReport r = gdmap::checkMap(m.bytes(), options);
  REQUIRE(r.diagnostics.size() == 3);
  CHECK(r.truncated);
  CHECK(r.errors == 10);
  CHECK(r.warnings == 1);
  CHECK_FALSE(r.valid);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(r.diagnostics[i].rule == "offset-outside-heap");
    CHECK(r.diagnostics[i].path == "directory[" + std::to_string(i) + "].offset");
  }
  options.maxDiagnostics = 0;
  const CheckReport none = gdmap::checkMap(m.bytes(), options);
  CHECK(none.diagnostics.empty());
  CHECK(none.truncated);
  CHECK(none.errors == 10);
}

TEST_CASE("check: many entries sharing one item decode it once") {
  // The work is counted, not timed: n and 2n entries on one item read that
  // item once, and as many broken entries read none; the counts and the
  // capped diagnostics follow n.
  for (const std::uint32_t n : {50000u, 100000u}) {
    CAPTURE(n);
    MapBytes good;
    const std::uint32_t a = good.item(1, {0x15, 0x12, 0x49, 0x01, 0x08});
    for (std::uint32_t i = 0; i < n; ++i) good.entry(0x1000 + 4 * i, a);
    CheckReport r;
    const gdmap::detail::MapAnalysis analysis = gdmap::detail::analyzeMap(good.bytes(), {}, r, false);
    CHECK(r.valid);
    CHECK(r.diagnostics.empty());
    CHECK(analysis.itemsDecoded == 1);
    CHECK(analysis.itemBytesRead == 7);  // length, count and the 5 bytes of its type
    MapBytes bad(false);
    for (std::uint32_t i = 0; i < n; ++i) bad.entry(7, 0xFFFF);
    CheckReport b;
    const gdmap::detail::MapAnalysis none = gdmap::detail::analyzeMap(bad.bytes(), {}, b, false);
    CHECK(none.itemsDecoded == 0);
    CHECK(none.itemBytesRead == 0);
    CHECK(b.errors == 2 * n - 1);  // every entry's offset, every RVA after the first
    CHECK(b.diagnostics.size() == 100);
  }
}

TEST_CASE("check: formatDiagnostic shows path, byte and rule") {
  const CheckReport r = gdmap::checkMap(oneItem({0x02, 0x02, 0x08}));
  REQUIRE(r.diagnostics.size() == 1);
  const std::string text = gdmap::formatDiagnostic(r.diagnostics[0]);
  CHECK(text.find("heap@0x0.count (byte 0x0000000d)") != std::string::npos);
  CHECK(text.find("[type-count-exceeds-item]") != std::string::npos);
}

// ---- canonical form ----------------------------------------------------

namespace {

void expectNotCanonical(const Bytes& map, const std::string& rule, const std::string& path, std::size_t offset) {
  REQUIRE(gdmap::checkMap(map).valid);
  const gdmap::CanonicalReport c = gdmap::checkCanonical(map);
  INFO("rule ", rule);
  CHECK_FALSE(c.canonical);
  REQUIRE(c.reasons.size() == 1);
  CHECK(c.reasons[0].rule == rule);
  CHECK(c.reasons[0].path == path);
  CHECK(c.reasons[0].offset == offset);
  CHECK_FALSE(c.reasons[0].message.empty());
}

}  // namespace

TEST_CASE("check: canonical maps") {
  for (const Bytes& map : {validMap(), Bytes{0x00, 0x00, 0x00, 0x80}, Bytes{0x00, 0x00, 0x00, 0x00}}) {
    const gdmap::CanonicalReport c = gdmap::checkCanonical(map);
    CHECK(c.canonical);
    CHECK(c.reasons.empty());
  }
  // Bit 31 clear: input order is canonical, the heap following it.
  MapBytes unsorted(false);
  unsorted.add(0x3000, 1, {0x0E});
  unsorted.add(0x1000, 1, {0x08});
  unsorted.entry(0x2000, 0);
  CHECK(gdmap::checkCanonical(unsorted.bytes()).canonical);
  // A warning the builder does not avoid is still canonical: void as a type.
  CHECK(gdmap::checkCanonical(oneItem({0x02, 0x01, 0x01})).canonical);
}

TEST_CASE("check: canonical-item-order") {
  // directory[0] references heap@0x3 first; the builder puts its item at 0.
  expectNotCanonical(MapBytes().entry(0x1000, 3).entry(0x1010, 0).heap({0x02, 0x01, 0x08, 0x02, 0x01, 0x0E}).bytes(),
                     "canonical-item-order", "directory[0].offset", 8);
  // Later in the directory: directory[2] is the first to reference heap@0x6, but heap@0x3 is next.
  MapBytes m;
  m.heap({0x02, 0x01, 0x08, 0x02, 0x01, 0x0E, 0x02, 0x01, 0x1C});
  m.entry(0x1000, 0).entry(0x1010, 0).entry(0x1020, 6).entry(0x1030, 3);
  expectNotCanonical(m.bytes(), "canonical-item-order", "directory[2].offset", 24);
}

TEST_CASE("check: canonical-gap") {
  expectNotCanonical(oneItem({0x02, 0x01, 0x08, 0x00}), "canonical-gap", "heap@0x3", 15);
}

TEST_CASE("check: canonical-overlap") {
  expectNotCanonical(
      MapBytes().entry(0x1000, 0).entry(0x1010, 3).heap({0x06, 0x01, 0x1B, 0x02, 0x01, 0x08, 0x08}).bytes(),
      "canonical-overlap", "heap@0x3", 23);
}

TEST_CASE("check: canonical-duplicate-item") {
  expectNotCanonical(MapBytes().entry(0x1000, 0).entry(0x1010, 3).heap({0x02, 0x01, 0x08, 0x02, 0x01, 0x08}).bytes(),
                     "canonical-duplicate-item", "heap@0x3", 23);
}

TEST_CASE("check: canonical-non-minimal-integer") {
  expectNotCanonical(oneItem({0x80, 0x02, 0x01, 0x08}), "canonical-non-minimal-integer", "heap@0x0.length", 12);
  expectNotCanonical(oneItem({0x03, 0x80, 0x01, 0x08}), "canonical-non-minimal-integer", "heap@0x0.count", 13);
  // A token in its 4-byte form: class 0x01000012 written C0 00 00 49.
  expectNotCanonical(oneItem({0x06, 0x01, 0x12, 0xC0, 0x00, 0x00, 0x49}), "canonical-non-minimal-integer",
                     "heap@0x0.type[0].token", 15);
}

TEST_CASE("check: canonical form of an invalid map") {
  const gdmap::CanonicalReport c = gdmap::checkCanonical(oneItem({0x02, 0x02, 0x08}));
  CHECK_FALSE(c.canonical);
  REQUIRE(c.reasons.size() == 1);
  CHECK(c.reasons[0].rule == "invalid-map");
  CHECK(c.reasons[0].offset == 13);
  CHECK(gdmap::checkCanonical({}).reasons.at(0).rule == "invalid-map");
}

TEST_CASE("check: several canonical rules broken at once are all named") {
  // A gap after heap@0x0 and a non-minimal count in heap@0x4.
  const Bytes map =
      MapBytes().entry(0x1000, 0).entry(0x1010, 4).heap({0x02, 0x01, 0x08, 0x00, 0x03, 0x80, 0x01, 0x0E}).bytes();
  const gdmap::CanonicalReport c = gdmap::checkCanonical(map);
  CHECK_FALSE(c.canonical);
  REQUIRE(c.reasons.size() == 2);
  CHECK(c.reasons[0].rule == "canonical-gap");
  CHECK(c.reasons[0].offset == 23);
  CHECK(c.reasons[1].rule == "canonical-non-minimal-integer");
  CHECK(c.reasons[1].offset == 25);
}
