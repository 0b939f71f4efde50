// The quiet-item fast path of checkMap (gdmap/internal/quiet_types.hpp) against the
// full walk it stands in for: below 256 bytes an item is quiet exactly when
// the full check accepts it without a word, on valid types of every form and
// on their mutations.
#include <gdmap/internal/quiet_types.hpp>
#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/compressed_int.hpp>
#include <gdmap/writer/type_encoder.hpp>
#include "reader/map/map_check_item.hpp"
#include "reader/map/map_check_sink.hpp"
#include "reader/map/map_check_types.hpp"
#include "tests/support/random_type.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using gdmap::Bytes;

// An item: length prefix, type count, the types' bytes.
Bytes itemOf(const Bytes& types, std::uint32_t count) {
  Bytes body;
  gdmap::appendCompressedUInt(body, count);
  body.insert(body.end(), types.begin(), types.end());
  Bytes item;
  gdmap::appendCompressedUInt(item, static_cast<std::uint32_t>(body.size()));
  item.insert(item.end(), body.begin(), body.end());
  return item;
}

struct Verdicts {
  bool headerUsable = false;
  bool quiet = false;
  bool fullSilentAndValid = false;
};

Verdicts judge(const Bytes& item) {
  Verdicts v;
  const gdmap::ByteSpan bytes(item);
  const gdmap::detail::ItemHeader h = gdmap::detail::readItemHeader(bytes, 0, 0);
  if (h.problem != gdmap::detail::ItemProblem::None || h.count.value == 0 || h.count.value > h.end - h.typesStart) {
    return v;
  }
  v.headerUsable = true;
  v.quiet = gdmap::detail::isQuietTypeList(bytes.first(h.end), h.typesStart, h.count.value);
  gdmap::CheckReport report;
  const gdmap::CheckOptions options;
  gdmap::detail::DiagnosticSink sink(report, options, nullptr);
  std::size_t budget = 4096;
  const bool wellFormed = gdmap::detail::checkItemTypesInFull(bytes, h, 0, budget, sink);
  v.fullSilentAndValid = wellFormed && report.errors == 0 && report.warnings == 0 && h.end == item.size();
  return v;
}

}  // namespace

TEST_CASE("quiet items are exactly the items the full type check accepts silently") {
  gdmap::testing::RandomTypeGenerator types(20251123, 6, 30);
  std::mt19937_64 mutate(7);
  std::size_t quiet = 0;
  std::size_t silentButLarge = 0;
  std::size_t loud = 0;
  for (int round = 0; round < 20000; ++round) {
    const std::uint32_t count = 1 + static_cast<std::uint32_t>(types.below(3));
    Bytes encoded;
    for (std::uint32_t k = 0; k < count; ++k) REQUIRE(gdmap::encodeType(types.next(), encoded));
    Bytes item = itemOf(encoded, count);
    // Half the rounds mutate one byte of the types (the prefix stays
    // right), reaching every kind of malformed and non-minimal input.
    if (round % 2 == 1 && !encoded.empty()) {
      encoded[mutate() % encoded.size()] = static_cast<std::uint8_t>(mutate());
      item = itemOf(encoded, count);
    }
    const Verdicts v = judge(item);
    if (!v.headerUsable) continue;
    INFO("round " << round << ", item of " << item.size() << " bytes");
    // Quiet is never wrong...
    if (v.quiet) CHECK(v.fullSilentAndValid);
    // ...and below its size cap never declines what needed no word.
    if (v.fullSilentAndValid && item.size() < 256) CHECK(v.quiet);
    quiet += v.quiet ? 1 : 0;
    silentButLarge += (v.fullSilentAndValid && item.size() >= 256) ? 1 : 0;
    loud += v.fullSilentAndValid ? 0 : 1;
  }
  // Both sides of the equivalence were exercised.
  CHECK(quiet > 2000);
  CHECK(loud > 2000);
  MESSAGE("quiet " << quiet << ", silent but over the cap " << silentButLarge << ", with findings " << loud);
}

TEST_CASE("a quiet item still gets the full check for what the fast path cannot judge") {
  // void as a generic argument: well-formed, but the full check warns.
  const Bytes voidArgument = {0x15, 0x12, 0x08, 0x01, 0x01};
  CHECK_FALSE(judge(itemOf(voidArgument, 1)).quiet);
  CHECK_FALSE(judge(itemOf(voidArgument, 1)).fullSilentAndValid);
  // The same void behind a pointer is fine, and quiet.
  const Bytes pointerToVoid = {0x15, 0x12, 0x08, 0x01, 0x0F, 0x01};
  CHECK(judge(itemOf(pointerToVoid, 1)).quiet);
  // A non-minimal token (0x08 written in two bytes) is declined.
  const Bytes longToken = {0x12, 0x80, 0x08};
  CHECK_FALSE(judge(itemOf(longToken, 1)).quiet);
  // A vararg function pointer's trailing sentinel: `1B 05 01 08 08 41`.
  const Bytes varargSentinel = {0x1B, 0x05, 0x01, 0x08, 0x08, 0x41};
  CHECK(judge(itemOf(varargSentinel, 1)).quiet == judge(itemOf(varargSentinel, 1)).fullSilentAndValid);
  // Issue #20: before the outer list's parameter a 0x41 after a nested open
  // vararg pointer is the outer list's; a second one there is an error.
  const Bytes outerSentinel = {0x1B, 0x05, 0x02, 0x01, 0x1B, 0x05, 0x00, 0x01, 0x41, 0x08};
  CHECK(judge(itemOf(outerSentinel, 1)).quiet);
  CHECK(judge(itemOf(outerSentinel, 1)).fullSilentAndValid);
  const Bytes twoBeforeParameter = {0x1B, 0x05, 0x02, 0x01, 0x1B, 0x05, 0x00, 0x01, 0x41, 0x41, 0x08};
  CHECK_FALSE(judge(itemOf(twoBeforeParameter, 1)).quiet);
  CHECK_FALSE(judge(itemOf(twoBeforeParameter, 1)).fullSilentAndValid);
}

TEST_CASE("a quiet type decodes with nothing to note and encodes back to its own bytes") {
  // What the description builder relies on when it copies a quiet {"hex"}
  // type without decoding it: the slow path would give the same bytes and
  // say nothing.
  gdmap::testing::RandomTypeGenerator types(20261126, 6, 30);
  std::mt19937_64 mutate(21);
  std::size_t quiet = 0;
  for (int round = 0; round < 20000; ++round) {
    Bytes bytes;
    REQUIRE(gdmap::encodeType(types.next(), bytes));
    if (round % 2 == 1 && !bytes.empty()) bytes[mutate() % bytes.size()] = static_cast<std::uint8_t>(mutate());
    if (!gdmap::detail::isQuietTypeList(bytes, 0, 1)) continue;
    ++quiet;
    INFO("round " << round << ", " << bytes.size() << " bytes");
    gdmap::TypeDecodeNotes notes;
    const gdmap::Expected<gdmap::Type> decoded = gdmap::decodeTypeBlob(bytes, &notes);
    REQUIRE(decoded.ok());
    CHECK(notes.nonMinimalIntegers == 0);
    const gdmap::Expected<Bytes> again = gdmap::encodeType(*decoded);
    REQUIRE(again.ok());
    CHECK(*again == bytes);
  }
  CHECK(quiet > 5000);
}
