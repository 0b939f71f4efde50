// IL-map overrides (docs/il-map.md "Overrides", "Dump of anything"): each
// layout key gives the bytes it says, with a layout-override note; what
// cannot apply is an error at its pointer; and any bytes at all, described
// by describeIlBlob, build back into themselves.
#include <gdmap/description/il_description_exact.hpp>
#include <gdmap/description/il_description_json.hpp>
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/il_map.hpp>
#include <gdmap/writer/bounds_encoder.hpp>
#include <gdmap/writer/bounds_layout.hpp>

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

namespace {

using namespace gdmap;
using il::Bound;
using il::BoundsForm;
using il::describeIlBlob;
using il::ExactIlMethod;
using il::IlDescriptionParse;
using il::Method;
using il::parseIlDescription;
using il::writeIlDescription;
namespace source = il::source;

// The worked example of docs/il-map.md.
Method worked() {
  Method m;
  m.token = 0x06000001;
  m.codeSize = 40;
  m.bounds = {{0, il::kProlog, source::kStackEmpty}, {4, 0, source::kStackEmpty},  {10, 5, 0},
              {12, 5, source::kCallInstruction},     {17, 9, source::kStackEmpty}, {30, il::kEpilog, 0}};
  return m;
}

Bytes hex(std::string_view text) { return parseHex(text).value(); }

Method withLayout(il::BoundsLayout layout) {
  Method m = worked();
  m.layout = std::move(layout);
  return m;
}

// The one diagnostic with `rule`; fails unless exactly one has it.
Diagnostic only(const il::ExactEncoding& e, std::string_view rule) {
  std::vector<Diagnostic> found;
  for (const Diagnostic& d : e.diagnostics)
    if (d.rule == rule) found.push_back(d);
  REQUIRE(found.size() == 1);
  return found.front();
}

Bytes build(const Method& m, BoundsForm form) {
  const il::ExactEncoding e = il::encodeExact(m, form);
  REQUIRE(e.bytes.has_value());
  return *e.bytes;
}

TEST_CASE("il overrides: no layout and an empty layout give the canonical bytes of every form") {
  for (const BoundsForm form : {BoundsForm::Api, BoundsForm::Nibble, BoundsForm::Packed2, BoundsForm::Packed3}) {
    const Bytes canonical = il::encodeBounds(worked().bounds, form, 40).value();
    const il::ExactEncoding plain = il::encodeExact(worked(), form);
    CHECK(*plain.bytes == canonical);
    CHECK(plain.diagnostics.empty());
    const il::ExactEncoding empty = il::encodeExact(withLayout({}), form);
    CHECK(*empty.bytes == canonical);
    CHECK(empty.diagnostics.empty());
  }
}

TEST_CASE("il overrides: count is written verbatim with a layout-override note") {
  il::BoundsLayout l;
  l.count = 7;
  const il::ExactEncoding e = il::encodeExact(withLayout(l), BoundsForm::Nibble);
  CHECK(*e.bytes == hex("07 21 34 62 09 20 09 0a 95 24 59 00"));
  const Diagnostic note = only(e, "layout-override");
  CHECK(note.severity == Severity::Note);
  CHECK(note.path == "/layout/count");
  // The strict reader runs out of bytes inside the seventh bound.
  CHECK(il::openBounds(*e.bytes, BoundsForm::Nibble).error().rule == "il-truncated");
  // The packed header too.
  CHECK(build(withLayout(l), BoundsForm::Packed2)[0] == 0x37);
  // A count equal to the bounds' is no override at all.
  l.count = 6;
  CHECK(il::encodeExact(withLayout(l), BoundsForm::Nibble).diagnostics.empty());
}

TEST_CASE("il overrides: count without bounds writes a bare header") {
  Method m = worked();
  m.bounds.clear();
  CHECK(only(il::encodeExact(m, BoundsForm::Nibble), "il-empty-bounds").path == "/bounds");
  m.layout = il::BoundsLayout{};
  m.layout->count = 0;
  CHECK(build(m, BoundsForm::Nibble) == hex("00"));
  CHECK(build(m, BoundsForm::Packed3) == hex("00 00"));
}

TEST_CASE("il overrides: nibbles lengthens any varint of the nibble form") {
  il::BoundsLayout l;
  l.nibbles = {{il::VarintField::Count, 0, 2}};
  const il::ExactEncoding e = il::encodeExact(withLayout(l), BoundsForm::Nibble);
  // docs/il-map.md's long.nibble.
  CHECK(*e.bytes == hex("68 10 42 23 96 00 92 a0 50 49 92 05 00"));
  CHECK(only(e, "layout-override").path == "/layout/nibbles/header.count");
  CHECK(il::checkBoundsCanonical(*e.bytes, BoundsForm::Nibble).reasons.front().rule == "il-non-minimal-varint");

  l.nibbles = {{il::VarintField::Native, 0, 3}, {il::VarintField::Il, 5, 2}, {il::VarintField::Source, 2, 2}};
  const Bytes bytes = build(withLayout(l), BoundsForm::Nibble);
  const gdmap::Expected<il::BoundsView> opened = il::openBounds(bytes, BoundsForm::Nibble);
  REQUIRE(opened);
  CHECK(opened->toVector() == worked().bounds);
  CHECK(il::checkBoundsCanonical(bytes, BoundsForm::Nibble).reasonCount == 3);

  // The packed header's varints.
  l.nibbles = {{il::VarintField::NativeBits, 0, 2}, {il::VarintField::IlBits, 0, 3}};
  const Bytes packed = build(withLayout(l), BoundsForm::Packed2);
  REQUIRE(il::openBounds(packed, BoundsForm::Packed2));
  CHECK(il::checkBoundsCanonical(packed, BoundsForm::Packed2).reasonCount == 2);
}

TEST_CASE("il overrides: a varint length out of range is il-override-out-of-range") {
  il::BoundsLayout l;
  l.nibbles = {{il::VarintField::Native, 5, 1}};  // the delta 13 takes 2 nibbles
  const Diagnostic narrow = only(il::encodeExact(withLayout(l), BoundsForm::Nibble), "il-override-out-of-range");
  CHECK(narrow.path == "/layout/nibbles/bounds[5].native");
  l.nibbles = {{il::VarintField::Count, 0, 12}};
  CHECK(only(il::encodeExact(withLayout(l), BoundsForm::Nibble), "il-override-out-of-range").path ==
        "/layout/nibbles/header.count");
}

TEST_CASE("il overrides: packed widths wider are noted, narrower are an error at the bound") {
  il::BoundsLayout l;
  l.nativeBits = 8;
  l.ilBits = 5;
  const il::ExactEncoding wide = il::encodeExact(withLayout(l), BoundsForm::Packed3);
  REQUIRE(wide.bytes.has_value());
  CHECK(wide.diagnostics.size() == 2);
  const gdmap::Expected<il::BoundsView> opened = il::openBounds(*wide.bytes, BoundsForm::Packed3);
  REQUIRE(opened);
  CHECK(opened->nativeBits() == 8);
  CHECK(opened->ilBits() == 5);
  CHECK(opened->toVector() == worked().bounds);

  l = {};
  l.nativeBits = 3;  // the largest delta, 13 (30 - 17), needs 4
  const Diagnostic narrow = only(il::encodeExact(withLayout(l), BoundsForm::Packed2), "il-override-out-of-range");
  CHECK(narrow.path == "/bounds/5/native");
  l = {};
  l.ilBits = 3;  // IL 5 is stored as 8: 4 bits
  CHECK(only(il::encodeExact(withLayout(l), BoundsForm::Packed2), "il-override-out-of-range").path == "/bounds/2/il");
  l = {};
  l.ilBits = 0;
  CHECK(only(il::encodeExact(withLayout(l), BoundsForm::Packed2), "il-override-out-of-range").path == "/layout/ilBits");
  // Over 32 bits only without bounds (il-width-too-large, readably).
  Method none = worked();
  none.bounds.clear();
  none.layout = il::BoundsLayout{};
  none.layout->count = 1;
  none.layout->nativeBits = 40;
  const Bytes header = build(none, BoundsForm::Packed2);
  CHECK(il::openBounds(header, BoundsForm::Packed2).error().rule == "il-width-too-large");
}

TEST_CASE("il overrides: padding and headerPadding set the padding nibbles and bits") {
  il::BoundsLayout l;
  // long.nibble: 25 nibbles, so the last byte's high half is padding.
  l.nibbles = {{il::VarintField::Count, 0, 2}};
  l.padding = 5;
  const il::ExactEncoding nibble = il::encodeExact(withLayout(l), BoundsForm::Nibble);
  CHECK(*nibble.bytes == hex("68 10 42 23 96 00 92 a0 50 49 92 05 50"));
  CHECK(nibble.diagnostics.size() == 2);
  CHECK(nibble.diagnostics.back().path == "/layout/padding");
  CHECK(il::openBounds(*nibble.bytes, BoundsForm::Nibble).error().rule == "il-nonzero-padding");

  l = {};
  l.padding = 1;  // docs/il-map.md's pad.packed2: bit 76 set
  CHECK(build(withLayout(l), BoundsForm::Packed2) == hex("36 03 42 48 83 61 82 16 d3 10"));
  l.padding = 16;  // 4 padding bits hold 0..15
  CHECK(only(il::encodeExact(withLayout(l), BoundsForm::Packed2), "il-override-out-of-range").path ==
        "/layout/padding");

  l = {};
  l.headerPadding = 0xA;
  const Bytes header = build(withLayout(l), BoundsForm::Packed2);
  CHECK(header[1] == 0xA3);
  CHECK(il::openBounds(header, BoundsForm::Packed2).error().rule == "il-nonzero-padding");
}

TEST_CASE("il overrides: verbatimSource writes source bits the nibble form does not define") {
  Method m = worked();
  m.bounds[2].source = 0x40;
  const il::ExactEncoding refused = il::encodeExact(m, BoundsForm::Nibble);
  CHECK(only(refused, "il-flag-not-storable").path == "/bounds/2/source");
  m.layout = il::BoundsLayout{};
  m.layout->verbatimSource = true;
  const il::ExactEncoding e = il::encodeExact(m, BoundsForm::Nibble);
  REQUIRE(e.bytes.has_value());
  CHECK(only(e, "layout-override").path == "/bounds/2/source");
  CHECK(il::openBounds(*e.bytes, BoundsForm::Nibble).error().rule == "il-invalid-source");
}

TEST_CASE("il overrides: trailing and truncate, in every form") {
  for (const BoundsForm form : {BoundsForm::Api, BoundsForm::Nibble, BoundsForm::Packed2, BoundsForm::Packed3}) {
    CAPTURE(il::formName(form));
    const Bytes canonical = il::encodeBounds(worked().bounds, form, 40).value();
    il::BoundsLayout l;
    l.trailing = hex("aa bb");
    Bytes expected = canonical;
    expected.push_back(0xAA);
    expected.push_back(0xBB);
    const il::ExactEncoding e = il::encodeExact(withLayout(l), form);
    CHECK(*e.bytes == expected);
    CHECK(only(e, "layout-override").path == "/layout/trailing");
    l.truncate = static_cast<std::uint32_t>(canonical.size() - 1);
    expected.resize(canonical.size() - 1);
    CHECK(build(withLayout(l), form) == expected);
    l.truncate = static_cast<std::uint32_t>(canonical.size() + 3);
    CHECK(only(il::encodeExact(withLayout(l), form), "truncate-past-end").path == "/layout/truncate");
  }
  // The api form's classic: a length that is not a multiple of 12.
  il::BoundsLayout cut;
  cut.truncate = 50;
  CHECK(il::openApiMap(build(withLayout(cut), BoundsForm::Api)).error().rule == "il-api-length");
}

TEST_CASE("il overrides: raw writes the bytes verbatim and admits no other key") {
  Method m;
  m.layout = il::BoundsLayout{};
  m.layout->raw = hex("ff ff 01");
  const il::ExactEncoding e = il::encodeExact(m, BoundsForm::Packed3);
  CHECK(*e.bytes == hex("ff ff 01"));
  CHECK(only(e, "layout-override").path == "/raw");
  m.layout->count = 3;
  CHECK(only(il::encodeExact(m, BoundsForm::Packed3), "il-override-not-applicable").path == "/layout");
}

TEST_CASE("il overrides: keys the form has no field for are il-override-not-applicable") {
  il::BoundsLayout l;
  l.count = 3;
  l.verbatimSource = true;
  const il::ExactEncoding api = il::encodeExact(withLayout(l), BoundsForm::Api);
  CHECK_FALSE(api.bytes.has_value());
  CHECK(api.diagnostics.size() == 2);
  CHECK(api.diagnostics[0].rule == "il-override-not-applicable");
  CHECK(api.diagnostics[0].path == "/layout/count");

  l = {};
  l.nativeBits = 8;
  CHECK(only(il::encodeExact(withLayout(l), BoundsForm::Nibble), "il-override-not-applicable").path ==
        "/layout/nativeBits");
  l = {};
  l.verbatimSource = true;
  CHECK(only(il::encodeExact(withLayout(l), BoundsForm::Packed2), "il-override-not-applicable").path ==
        "/layout/verbatimSource");
  l = {};
  l.nibbles = {{il::VarintField::Native, 9, 2}};
  CHECK(only(il::encodeExact(withLayout(l), BoundsForm::Nibble), "il-override-not-applicable").path ==
        "/layout/nibbles/bounds[9].native");
  l.nibbles = {{il::VarintField::Native, 0, 2}};
  CHECK(only(il::encodeExact(withLayout(l), BoundsForm::Packed3), "il-override-not-applicable").path ==
        "/layout/nibbles/bounds[0].native");
  // The worked nibble stream is 24 nibbles: no padding nibble to set.
  l = {};
  l.padding = 1;
  CHECK(only(il::encodeExact(withLayout(l), BoundsForm::Nibble), "il-override-not-applicable").path ==
        "/layout/padding");
  // A map cannot be compressed, layout or not.
  Method map;
  map.verbatimMap = true;
  map.layout = il::BoundsLayout{};
  CHECK(only(il::encodeExact(map, BoundsForm::Nibble), "il-map-not-compressible").path == "/map");
}

TEST_CASE("il overrides: the description reads and writes every layout key") {
  const char* const text = R"({ "methods": [
    { "token": 1, "layout": { "count": 9, "nativeBits": 7, "ilBits": 6, "headerPadding": 2,
        "nibbles": { "header.count": 3, "bounds[0].il": 2 }, "verbatimSource": true, "padding": 1,
        "trailing": "0a 0B", "truncate": "0x10" },
      "bounds": [ { "native": 0, "il": 0 } ] },
    { "token": 2, "raw": "ff00" } ] })";
  const IlDescriptionParse p = parseIlDescription(text);
  REQUIRE(p.methods.has_value());
  REQUIRE(p.methods->size() == 2);
  const il::BoundsLayout& l = *(*p.methods)[0].layout;
  CHECK(l.count == 9u);
  CHECK(l.nativeBits == 7u);
  CHECK(l.ilBits == 6u);
  CHECK(l.headerPadding == 2u);
  CHECK(l.nibbles == std::vector<il::VarintLength>{{il::VarintField::Count, 0, 3}, {il::VarintField::Il, 0, 2}});
  CHECK(l.verbatimSource);
  CHECK(l.padding == 1u);
  CHECK(l.trailing == hex("0a0b"));
  CHECK(l.truncate == 16u);
  CHECK((*p.methods)[1].layout->raw == hex("ff00"));
  // Written and read back: the same methods.
  const IlDescriptionParse again = parseIlDescription(writeIlDescription(*p.methods));
  REQUIRE(again.methods.has_value());
  CHECK(*again.methods == *p.methods);
}

TEST_CASE("il overrides: the description's layout errors name their place") {
  const auto rules = [](const char* text) {
    std::vector<std::string> out;
    for (const Diagnostic& d : parseIlDescription(text).diagnostics) out.push_back(d.rule + " " + d.path);
    return out;
  };
  CHECK(rules(R"({"methods":[{"token":1,"bounds":[{"native":0,"il":0}],"layout":{"size":1}}]})") ==
        std::vector<std::string>{"unknown-key /methods/0/layout/size"});
  CHECK(rules(R"({"methods":[{"token":1,"bounds":[{"native":0,"il":0}],"layout":{"nibbles":{"bounds[01].il":2}}}]})") ==
        std::vector<std::string>{"unknown-key /methods/0/layout/nibbles/bounds[01].il"});
  CHECK(rules(R"({"methods":[{"token":1,"bounds":[{"native":0,"il":0}],"layout":{"trailing":"xyz"}}]})") ==
        std::vector<std::string>{"invalid-hex /methods/0/layout/trailing"});
  CHECK(rules(R"({"methods":[{"token":1,"raw":"00","layout":{"count":1}}]})") ==
        std::vector<std::string>{"conflicting-fields /methods/0/layout"});
  CHECK(rules(R"({"methods":[{"token":1,"raw":"00","bounds":[]}]})") ==
        std::vector<std::string>{"conflicting-fields /methods/0"});
}

// Any bytes -> describeIlBlob -> JSON -> parse -> encodeExact: the same bytes.
void checkRoundTrip(const Bytes& blob, BoundsForm form, std::size_t& raws) {
  const ExactIlMethod exact = describeIlBlob(blob, form);
  Method m = exact.method;
  m.token = 0x06000001;
  const IlDescriptionParse parsed = parseIlDescription(writeIlDescription(std::span<const Method>(&m, 1)));
  REQUIRE(parsed.methods.has_value());
  const il::ExactEncoding rebuilt = il::encodeExact(parsed.methods->front(), form);
  REQUIRE(rebuilt.bytes.has_value());
  CHECK(*rebuilt.bytes == blob);
  const il::BoundsCanonicalReport read = il::checkBoundsCanonical(blob, form);
  // The plainest form: a canonical blob has no layout; raw only when the
  // header itself cannot be read.
  if (read.valid && read.canonical) CHECK_FALSE(m.layout.has_value());
  if (exact.raw) {
    ++raws;
    CHECK(form != BoundsForm::Api);
    REQUIRE_FALSE(read.valid);
    CHECK(read.reasons.front().path.rfind("header.", 0) == 0);
  }
}

TEST_CASE("il overrides: property: random blobs and mutations of valid ones dump and build back identically") {
  std::mt19937 rng(20261123);
  const auto below = [&](std::uint32_t n) { return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng); };
  std::size_t cases = 0;
  std::size_t raws = 0;
  const BoundsForm forms[] = {BoundsForm::Api, BoundsForm::Nibble, BoundsForm::Packed2, BoundsForm::Packed3};
  for (int round = 0; round < 4000; ++round) {
    const BoundsForm form = forms[round % 4];
    Bytes blob;
    if (round % 3 == 0) {
      // Random bytes.
      blob.resize(below(24));
      for (auto& b : blob) b = static_cast<std::uint8_t>(below(256));
    } else {
      // A valid blob, then mutated.
      std::vector<Bound> bounds(1 + below(6));
      std::uint32_t native = 0;
      for (Bound& b : bounds) {
        native += below(4) == 0 ? below(5000) : below(20);
        b.nativeOffset = native;
        const std::uint32_t kinds[] = {il::kProlog, il::kEpilog, il::kNoMapping, below(300), below(70000)};
        b.ilOffset = kinds[below(5)];
        b.source = below(8) & il::storableSource(form == BoundsForm::Api ? BoundsForm::Nibble : form);
      }
      blob = il::encodeBounds(bounds, form, native + below(50)).value();
      switch (below(5)) {
        case 0: break;  // unmutated
        case 1:
          if (!blob.empty())
            blob[below(static_cast<std::uint32_t>(blob.size()))] ^= static_cast<std::uint8_t>(1u << below(8));
          break;
        case 2: blob.resize(below(static_cast<std::uint32_t>(blob.size()) + 1)); break;
        case 3:
          for (std::uint32_t n = 1 + below(4); n > 0; --n) blob.push_back(static_cast<std::uint8_t>(below(256)));
          break;
        case 4:
          if (!blob.empty()) blob[0] = static_cast<std::uint8_t>((blob[0] & 0xF0) | below(8));  // another count
          break;
      }
    }
    CAPTURE(toHex(blob));
    CAPTURE(il::formName(form));
    checkRoundTrip(blob, form, raws);
    ++cases;
  }
  CHECK(cases == 4000);
  // Most blobs are described with bounds and overrides, not verbatim.
  CHECK(raws * 5 < cases);
}

}  // namespace
