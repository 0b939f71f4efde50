// Scale (issue #8): a method of 10^6 bounds and a description of 10^5
// methods build, check and convert, with results asserted; and a header
// that claims 2^32-1 bounds is refused at the count. No clock: linearity is
// asserted through sizes (every output is bounded by a constant times its
// input); bench/ prints the times at n and 2n (gdmap_bench --il-linearity).
//
// GDMAP_IL_SCALE_DIVISOR (an integer, default 1) divides both sizes, for
// slow builds (sanitizers) that need it; Release runs the full sizes.
#include <gdmap/description/il_description_json.hpp>
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/schema/bounds_to_api.hpp>
#include <gdmap/schema/il_map.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/writer/bounds_encoder.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using gdmap::Bytes;
using gdmap::il::ApiEntry;
using gdmap::il::Bound;
using gdmap::il::BoundsForm;
namespace il = gdmap::il;
namespace source = gdmap::il::source;

namespace {

std::size_t scaled(std::size_t size) {
  const char* divisor = std::getenv("GDMAP_IL_SCALE_DIVISOR");
  const long d = divisor != nullptr ? std::strtol(divisor, nullptr, 10) : 1;
  return d > 1 ? size / static_cast<std::size_t>(d) : size;
}

// A code generator's bounds (fixed seed; mt19937's output is fixed by the
// standard): prolog at 0, small native steps, IL mostly ascending with
// NO_MAPPING and call_instruction entries, an epilog at the end. Only
// flags every compressed form stores.
std::vector<Bound> realisticBounds(std::size_t count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Bound> bounds;
  bounds.reserve(count);
  bounds.push_back({0, il::kProlog, source::kStackEmpty});
  std::uint32_t native = 0, ilOffset = 0;
  while (bounds.size() + 1 < count) {
    native += rng() % 13;
    const std::uint32_t kind = rng() % 100;
    if (kind < 10) {
      bounds.push_back({native, ilOffset, source::kCallInstruction});
    } else if (kind < 13) {
      bounds.push_back({native, il::kNoMapping, 0});
    } else {
      ilOffset += 1 + rng() % 6;
      bounds.push_back({native, ilOffset, rng() % 3 == 0 ? source::kStackEmpty : 0u});
    }
  }
  bounds.push_back({native + 3, il::kEpilog, 0});
  return bounds;
}

unsigned bitLength(std::uint32_t v) { return v == 0 ? 1u : static_cast<unsigned>(std::bit_width(v)); }
unsigned nibbleLength(std::uint32_t v) { return (bitLength(v) + 2) / 3; }  // 3 bits a nibble

struct Extremes {
  std::uint32_t delta = 0, stored = 0, source = 0;  // largest native delta, IL + 3, source
};
Extremes extremesOf(const std::vector<Bound>& bounds) {
  Extremes e;
  std::uint32_t previous = 0;
  for (const Bound& b : bounds) {
    e.delta = std::max(e.delta, b.nativeOffset - previous);
    e.stored = std::max(e.stored, b.ilOffset + 3);
    e.source = std::max(e.source, b.source);
    previous = b.nativeOffset;
  }
  return e;
}

// The size the form must take: exact for the packed forms (header, then
// fixed-width entries), and at most the widest varints for the nibble form;
// either way linear in the count.
void checkSize(const Bytes& blob, const std::vector<Bound>& bounds, BoundsForm form) {
  const Extremes e = extremesOf(bounds);
  const std::size_t n = bounds.size();
  const std::size_t countNibbles = nibbleLength(static_cast<std::uint32_t>(n));
  if (form == BoundsForm::Nibble) {
    const std::size_t perBound = nibbleLength(e.delta) + nibbleLength(e.stored) + nibbleLength(e.source);
    CHECK(blob.size() >= (countNibbles + 3 * n + 1) / 2);
    CHECK(blob.size() <= (countNibbles + perBound * n + 1) / 2);
    CHECK(perBound <= 12);  // so at most 6 bytes a bound whatever n
    return;
  }
  const std::size_t nativeBits = bitLength(e.delta), ilBits = bitLength(e.stored);
  const std::size_t header = (countNibbles + nibbleLength(static_cast<std::uint32_t>(nativeBits - 1)) +
                              nibbleLength(static_cast<std::uint32_t>(ilBits - 1)) + 1) /
                             2;
  const std::size_t entryBits = (form == BoundsForm::Packed3 ? 3 : 2) + nativeBits + ilBits;
  CHECK(blob.size() == header + (entryBits * n + 7) / 8);
}

}  // namespace

TEST_CASE("il scale: a method of a million bounds encodes, checks, decodes and converts in every form") {
  const std::size_t n = scaled(1000000);
  const std::vector<Bound> bounds = realisticBounds(n, 8);
  REQUIRE(bounds.size() == n);
  REQUIRE_FALSE(il::firstDescendingBound(bounds).has_value());
  const std::uint32_t codeSize = bounds.back().nativeOffset + 16;

  const std::vector<ApiEntry> api = il::boundsToApi(bounds, codeSize);
  REQUIRE_FALSE(api.empty());
  CHECK(api.size() <= n);
  CHECK(api.front().ilOffset == il::kProlog);
  CHECK(api.front().nativeStartOffset == 0);
  // No entry the API would not report survives the trim; each range lies in the code.
  CHECK(std::all_of(api.begin(), api.end(), [&](const ApiEntry& e) {
    return e.nativeStartOffset <= e.nativeEndOffset && e.nativeEndOffset <= codeSize;
  }));
  const Bytes apiBytes = il::encodeApiEntries(api);
  CHECK(apiBytes.size() == api.size() * il::kApiEntrySize);
  const gdmap::Expected<il::ApiMapView> apiView = il::openApiMap(apiBytes);
  REQUIRE(apiView);
  CHECK(apiView->count() == api.size());
  CHECK(apiView->toVector() == api);

  for (const BoundsForm form : {BoundsForm::Nibble, BoundsForm::Packed2, BoundsForm::Packed3}) {
    CAPTURE(il::formName(form));
    gdmap::Expected<Bytes> blob = il::encodeCompressedBounds(bounds, form);
    REQUIRE(blob.ok());
    checkSize(*blob, bounds, form);

    const il::BoundsCanonicalReport canonical = il::checkBoundsCanonical(*blob, form);
    CHECK(canonical.valid);
    CHECK(canonical.canonical);
    CHECK(canonical.reasonCount == 0);

    const gdmap::Expected<il::BoundsView> opened = il::openBounds(*blob, form);
    REQUIRE(opened);
    CHECK(opened->count() == n);
    // The cursor, without a vector: every bound in order, then the end.
    il::BoundsView::Cursor cursor = opened->cursor();
    std::size_t same = 0;
    Bound b;
    while (cursor.next(b) && same < n && b == bounds[same]) ++same;
    CHECK(same == n);
    CHECK_FALSE(cursor.next(b));

    // Converting: decode, then write in the same form (the very bytes) and
    // as the API array (the same entries as from the original bounds).
    const std::vector<Bound> decoded = opened->toVector();
    REQUIRE(decoded == bounds);
    gdmap::Expected<Bytes> again = il::encodeCompressedBounds(decoded, form);
    REQUIRE(again.ok());
    CHECK(*again == *blob);
    gdmap::Expected<Bytes> asApi = il::encodeBounds(decoded, BoundsForm::Api, codeSize);
    REQUIRE(asApi.ok());
    CHECK(*asApi == apiBytes);
  }
}

TEST_CASE("il scale: a description of a hundred thousand methods parses, writes back and builds") {
  const std::size_t methods = scaled(100000);
  std::vector<il::Method> input(methods);
  for (std::size_t i = 0; i < methods; ++i) {
    il::Method& m = input[i];
    m.token = 0x06000001u + static_cast<std::uint32_t>(i);
    m.bounds = realisticBounds(3 + i % 5, static_cast<std::uint32_t>(i));
    m.codeSize = m.bounds.back().nativeOffset + 1;
  }
  std::size_t boundCount = 0;
  for (const il::Method& m : input) boundCount += m.bounds.size();

  const std::string text = gdmap::il::writeIlDescription(input);
  // One line a bound and a few a method: the text is linear in the content.
  CHECK(text.size() <= 120 * boundCount + 120 * methods + 64);

  const gdmap::il::IlDescriptionParse parse = gdmap::il::parseIlDescription(text);
  CHECK(parse.errorCount == 0);
  CHECK(parse.warningCount == 0);
  REQUIRE(parse.methods.has_value());
  REQUIRE(parse.methods->size() == methods);
  std::size_t same = 0;
  for (std::size_t i = 0; i < methods; ++i) {
    const il::Method& a = (*parse.methods)[i];
    if (a.token == input[i].token && a.codeSize == input[i].codeSize && !a.verbatimMap && a.bounds == input[i].bounds)
      ++same;
  }
  CHECK(same == methods);
  CHECK(gdmap::il::writeIlDescription(*parse.methods) == text);

  // Every method builds in every form and checks canonical; the API bytes
  // of all of them are 12 bytes an entry.
  std::size_t built = 0, apiEntries = 0;
  for (const il::Method& m : *parse.methods) {
    bool ok = true;
    for (const BoundsForm form : {BoundsForm::Nibble, BoundsForm::Packed2, BoundsForm::Packed3}) {
      gdmap::Expected<Bytes> blob = il::encodeCompressedBounds(m.bounds, form);
      ok = ok && blob.ok() && il::checkBoundsCanonical(*blob, form).canonical;
    }
    gdmap::Expected<Bytes> api = il::encodeBounds(m.bounds, BoundsForm::Api, m.codeSize);
    ok = ok && api.ok() && api->size() % il::kApiEntrySize == 0;
    if (api.ok()) apiEntries += api->size() / il::kApiEntrySize;
    if (ok) ++built;
  }
  CHECK(built == methods);
  CHECK(apiEntries <= boundCount);
}

TEST_CASE("il scale: a count of 2^32-1 is refused at the count, before any bound is read") {
  // 0xFFFFFFFF as a nibble varint: 11 nibbles, b f f f f f f f f f 7. Then a
  // megabyte of zero bytes: a reader that looped before checking would
  // decode 700000 bounds of zeros and only then run out (il-truncated).
  const Bytes count = il::encodeNibbleU32(0xFFFFFFFFu);
  REQUIRE(count.size() == 6);  // 11 nibbles and the zero pad
  CHECK(count.back() == 0x07);

  SUBCASE("nibble") {
    Bytes blob = count;
    blob.resize(blob.size() + (1u << 20), 0x00);
    const gdmap::Expected<il::BoundsView> opened = il::openBounds(blob, BoundsForm::Nibble);
    REQUIRE_FALSE(opened);
    CHECK(opened.error().rule == "il-count-exceeds-bytes");
    CHECK(opened.error().rule == gdmap::rules::kIlCountExceedsBytes);
    CHECK(opened.error().path == "header.count");
    CHECK(opened.error().byteOffset() == 0);
    CHECK(opened.error().unit == gdmap::OffsetUnit::Nibble);
    CHECK(opened.error().offset == 0);
    const il::BoundsCanonicalReport report = il::checkBoundsCanonical(blob, BoundsForm::Nibble);
    CHECK_FALSE(report.valid);
    REQUIRE(report.reasons.size() == 1);
    CHECK(report.reasons[0].rule == "il-count-exceeds-bytes");
  }
  SUBCASE("packed2 and packed3, the widest entries") {
    for (const BoundsForm form : {BoundsForm::Packed2, BoundsForm::Packed3}) {
      CAPTURE(il::formName(form));
      // count, nativeBits - 1 = 31 (nibbles b 7), ilBits - 1 = 31 (b 7):
      // 11 + 4 = 15 nibbles, then the zero pad nibble.
      Bytes blob(count.begin(), count.end() - 1);
      blob.push_back(0xB7);  // low: the count's last nibble 7; high: b
      blob.push_back(0xB7);  // 7, b
      blob.push_back(0x07);  // 7, pad
      blob.resize(blob.size() + (1u << 20), 0x00);
      const gdmap::Expected<il::BoundsView> opened = il::openBounds(blob, form);
      REQUIRE_FALSE(opened);
      CHECK(opened.error().rule == "il-count-exceeds-bytes");
      CHECK(opened.error().path == "header.count");
      CHECK(opened.error().byteOffset() == 0);
      CHECK(opened.error().offset == 0);
      CHECK(opened.error().message.find("4294967295") != std::string::npos);
    }
  }
}
