// Every rule of the strict IL-map readers (FORMAT.md §3.3 "Settled"), each
// with a blob that breaks it: the rule id, the byte, the nibble or bit, and
// the field path. Blobs are spelled as nibbles (low half of a byte first)
// or built with the writer's nibble writer.
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/il_map.hpp>
#include <gdmap/writer/bounds_encoder.hpp>

#include <gdmap/internal/nibble_cursor.hpp>
#include <gdmap/internal/nibble_writer.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

using gdmap::Bytes;
using gdmap::OffsetUnit;
using gdmap::il::BoundsForm;

namespace {

Bytes hex(const char* text) { return *gdmap::parseHex(text); }

// Bytes from nibbles, low half first; an odd count leaves a zero high half.
Bytes nibbles(std::initializer_list<std::uint8_t> values) {
  Bytes out;
  gdmap::il::NibbleWriter w(out);
  for (const std::uint8_t v : values) w.nibble(v);
  return out;
}

gdmap::Error openError(const Bytes& blob, BoundsForm form) {
  const auto opened = gdmap::il::openBounds(blob, form);
  REQUIRE_FALSE(opened);
  return opened.error();
}

void checkAt(const gdmap::Error& p, const char* rule, const char* path, std::size_t byte, OffsetUnit unit,
             std::size_t unitOffset) {
  CHECK(p.rule == rule);
  CHECK(p.path == path);
  CHECK(p.byteOffset() == byte);
  CHECK(p.unit == unit);
  CHECK(p.offset == unitOffset);
  CHECK_FALSE(p.message.empty());
}

// Packs (value, width) fields least significant bit first after `header`.
Bytes packBits(Bytes header, std::initializer_list<std::pair<std::uint64_t, unsigned>> fields) {
  std::size_t bit = header.size() * 8;
  for (const auto& [value, width] : fields) {
    for (unsigned i = 0; i < width; ++i, ++bit) {
      if (bit / 8 >= header.size()) header.push_back(0);
      if (((value >> i) & 1) != 0) header[bit / 8] = static_cast<std::uint8_t>(header[bit / 8] | (1u << (bit % 8)));
    }
  }
  return header;
}

}  // namespace

TEST_CASE("il reader: il-truncated") {
  // Nothing at all: the count is missing.
  checkAt(openError({}, BoundsForm::Nibble), "il-truncated", "header.count", 0, OffsetUnit::Nibble, 0);
  // Count 1, then a native delta 9 9 9 that never ends.
  checkAt(openError(nibbles({1, 9, 9, 9}), BoundsForm::Nibble), "il-truncated", "bounds[0].native", 2,
          OffsetUnit::Nibble, 4);
  // A packed header cut inside its ilBits varint.
  checkAt(openError(nibbles({1, 0, 9, 9}), BoundsForm::Packed2), "il-truncated", "header.ilBits", 2, OffsetUnit::Nibble,
          4);
}

TEST_CASE("il reader: il-empty-bounds") {
  checkAt(openError(hex("00"), BoundsForm::Nibble), "il-empty-bounds", "header.count", 0, OffsetUnit::Nibble, 0);
  checkAt(openError(hex("00 00"), BoundsForm::Packed3), "il-empty-bounds", "header.count", 0, OffsetUnit::Nibble, 0);
}

TEST_CASE("il reader: il-count-exceeds-bytes rejects a 2^32-1 count at once") {
  // fb ff ff ff ff 07 is the varint 0xFFFFFFFF; nothing follows.
  const Bytes huge = hex("fb ff ff ff ff 07");
  checkAt(openError(huge, BoundsForm::Nibble), "il-count-exceeds-bytes", "header.count", 0, OffsetUnit::Nibble, 0);
  // Count 2 with room for only one bound's minimum.
  checkAt(openError(nibbles({2, 0, 3, 0}), BoundsForm::Nibble), "il-count-exceeds-bytes", "header.count", 0,
          OffsetUnit::Nibble, 0);
  // Packed: count 0xFFFFFFFF, widths 1 and 1, then a single data byte.
  Bytes packed = nibbles({0xB, 0xF, 0xF, 0xF, 0xF, 0xF, 0xF, 0xF, 0xF, 0xF, 0x7, 0, 0});
  packed.push_back(0);
  checkAt(openError(packed, BoundsForm::Packed2), "il-count-exceeds-bytes", "header.count", 0, OffsetUnit::Nibble, 0);
  // Count 3 of 4-bit packed2 entries (12 bits) over one data byte.
  checkAt(openError(hex("03 00 00"), BoundsForm::Packed2), "il-count-exceeds-bytes", "header.count", 0,
          OffsetUnit::Nibble, 0);
}

TEST_CASE("il reader: il-varint-too-long") {
  // Twelve nibbles: 8 x 11 then 0; the runtime's reader stops at 11.
  checkAt(openError(hex("88 88 88 88 88 88"), BoundsForm::Nibble), "il-varint-too-long", "header.count", 5,
          OffsetUnit::Nibble, 11);
}

TEST_CASE("il reader: il-varint-overflow") {
  // Top chunk 4 then ten zero chunks: 4 << 30 does not fit in 32 bits.
  const Bytes blob = nibbles({0xC, 8, 8, 8, 8, 8, 8, 8, 8, 8, 0});
  checkAt(openError(blob, BoundsForm::Nibble), "il-varint-overflow", "header.count", 5, OffsetUnit::Nibble, 10);
}

TEST_CASE("il reader: il-width-too-large") {
  // Packed2: count 1, nativeBits - 1 = 32 (nibbles c 0), ilBits - 1 = 0.
  checkAt(openError(nibbles({1, 0xC, 0, 0}), BoundsForm::Packed2), "il-width-too-large", "header.nativeBits", 0,
          OffsetUnit::Nibble, 1);
  // ilBits - 1 = 0xFFFFFFFF: checked before adding 1, so it cannot wrap to 0.
  checkAt(openError(nibbles({1, 0, 0xB, 0xF, 0xF, 0xF, 0xF, 0xF, 0xF, 0xF, 0xF, 0xF, 0x7}), BoundsForm::Packed3),
          "il-width-too-large", "header.ilBits", 1, OffsetUnit::Nibble, 2);
  // 32 bits is allowed.
  const Bytes ok = packBits(nibbles({1, 0xB, 0x7, 0}), {{0, 2}, {0xFFFFFFFFu, 32}, {0, 1}});
  CHECK(gdmap::il::openBounds(ok, BoundsForm::Packed2));
}

TEST_CASE("il reader: il-native-overflow") {
  // Nibble: bound 0 at 0xFFFFFFFF, bound 1 one further.
  Bytes blob;
  gdmap::il::NibbleWriter w(blob);
  for (const std::uint32_t v : {2u, 0xFFFFFFFFu, 3u, 0u, 1u, 3u, 0u}) w.u32(v);
  // count n0, native n1-n11, il n12, source n13, then bound 1's delta at n14.
  checkAt(openError(blob, BoundsForm::Nibble), "il-native-overflow", "bounds[1].native", 7, OffsetUnit::Nibble, 14);
  // Packed2: header 2, 32 bits, 1 bit (nibbles 2 b 7 0, 2 bytes); entries of
  // 2 + 32 + 1 bits from bit 16; bound 1's native starts at 16 + 35 + 2.
  const Bytes packed =
      packBits(nibbles({2, 0xB, 0x7, 0}), {{0, 2}, {0xFFFFFFFFu, 32}, {0, 1}, {0, 2}, {1, 32}, {0, 1}});
  checkAt(openError(packed, BoundsForm::Packed2), "il-native-overflow", "bounds[1].native", 6, OffsetUnit::Bit, 53);
}

TEST_CASE("il reader: il-invalid-source") {
  // Nibble: count 1, native 0, il 0 (stored 3), source 0x20 (nibbles c 0).
  checkAt(openError(nibbles({1, 0, 3, 0xC, 0}), BoundsForm::Nibble), "il-invalid-source", "bounds[0].source", 1,
          OffsetUnit::Nibble, 3);
}

TEST_CASE("il reader: il-nonzero-padding") {
  // Nibble: count 1, 0, 3, 2 is even; count 2 ... leaves the last high half.
  checkAt(openError(nibbles({2, 0, 3, 0, 1, 4, 0, 5}), BoundsForm::Nibble), "il-nonzero-padding", "padding", 3,
          OffsetUnit::Nibble, 7);
  // Packed header: count 1, widths 1 and 1, then padding nibble 1.
  checkAt(openError(hex("01 10 00"), BoundsForm::Packed2), "il-nonzero-padding", "header.padding", 1,
          OffsetUnit::Nibble, 3);
  // Packed entry bits: one 4-bit entry in a byte whose high 4 bits are set.
  checkAt(openError(hex("01 00 f0"), BoundsForm::Packed2), "il-nonzero-padding", "padding", 2, OffsetUnit::Bit, 20);
}

TEST_CASE("il reader: il-trailing-bytes") {
  checkAt(openError(nibbles({1, 0, 3, 2, 0, 0}), BoundsForm::Nibble), "il-trailing-bytes", "trailing", 2,
          OffsetUnit::Byte, 2);
  checkAt(openError(hex("01 00 00 00"), BoundsForm::Packed3), "il-trailing-bytes", "trailing", 3, OffsetUnit::Byte, 3);
}

TEST_CASE("il reader: il-api-length") {
  const Bytes thirteen(13, 0);
  const auto api = gdmap::il::openApiMap(thirteen);
  REQUIRE_FALSE(api);
  checkAt(api.error(), "il-api-length", "entries[1]", 12, OffsetUnit::Byte, 12);
  const auto report = gdmap::il::checkBounds(thirteen, BoundsForm::Api);
  CHECK_FALSE(report.valid);
  REQUIRE(report.diagnostics.size() == 1);
  CHECK(report.diagnostics[0].rule == "il-api-length");
}

TEST_CASE("il reader: non-minimal varints are valid but not canonical (il-non-minimal-varint)") {
  // The worked example with its count written 8 6 instead of 6.
  Bytes blob;
  gdmap::il::NibbleWriter w(blob);
  w.nibble(8);
  w.nibble(6);
  const Bytes canonical = *gdmap::parseHex("06 21 34 62 09 20 09 0a 95 24 59 00");
  gdmap::NibbleCursor r(canonical);
  r.varint();
  while (r.remaining() > 0) w.nibble(r.nibble());  // the rest (24 nibbles, no pad)
  w.flush();
  const auto opened = gdmap::il::openBounds(blob, BoundsForm::Nibble);
  REQUIRE_MESSAGE(opened, gdmap::toHex(blob) << " " << opened.error().rule << " " << opened.error().message);
  CHECK(opened->count() == 6);

  const auto report = gdmap::il::checkBoundsCanonical(blob, BoundsForm::Nibble);
  CHECK(report.valid);
  CHECK_FALSE(report.canonical);
  REQUIRE(report.reasons.size() == 1);
  checkAt(report.reasons[0], "il-non-minimal-varint", "header.count", 0, OffsetUnit::Nibble, 0);

  const auto lenient = gdmap::il::checkBounds(blob, BoundsForm::Nibble);
  CHECK(lenient.valid);
  CHECK(lenient.warnings == 1);
  REQUIRE(lenient.diagnostics.size() == 1);
  CHECK(lenient.diagnostics[0].severity == gdmap::Severity::Warning);
  CHECK(lenient.diagnostics[0].message.rfind("nibble 0: ", 0) == 0);
  gdmap::CheckOptions strict;
  strict.strict = true;
  const auto strictReport = gdmap::il::checkBounds(blob, BoundsForm::Nibble, strict);
  CHECK_FALSE(strictReport.valid);
  CHECK(strictReport.errors == 1);
  CHECK(strictReport.warnings == 0);
  REQUIRE(strictReport.diagnostics.size() == 1);
  CHECK(strictReport.diagnostics[0].severity == gdmap::Severity::Error);
  CHECK(strictReport.diagnostics[0].rule == "il-non-minimal-varint");
}

TEST_CASE("il reader: wider-than-needed widths are valid but not canonical (il-wide-field)") {
  // One bound (0, EPILOG -> stored 0, no source) with nativeBits 3, ilBits 2:
  // header 1 2 1 pad, then a 7-bit zero entry.
  const Bytes blob = hex("21 01 00");
  const auto opened = gdmap::il::openBounds(blob, BoundsForm::Packed2);
  REQUIRE(opened);
  CHECK(opened->toVector() == std::vector<gdmap::il::Bound>{{0, gdmap::il::kEpilog, 0}});
  const auto report = gdmap::il::checkBoundsCanonical(blob, BoundsForm::Packed2);
  CHECK(report.valid);
  CHECK_FALSE(report.canonical);
  REQUIRE(report.reasons.size() == 2);
  checkAt(report.reasons[0], "il-wide-field", "header.nativeBits", 0, OffsetUnit::Nibble, 1);
  checkAt(report.reasons[1], "il-wide-field", "header.ilBits", 1, OffsetUnit::Nibble, 2);
  // The writer gives the minimal form back.
  const auto rebuilt = gdmap::il::encodeCompressedBounds(opened->toVector(), BoundsForm::Packed2);
  REQUIRE(rebuilt.ok());
  CHECK(gdmap::toHex(*rebuilt) == "010000");
}

TEST_CASE("il reader: canonical reasons are capped but counted") {
  // Every varint of 20 bounds written with a leading zero chunk.
  Bytes blob;
  gdmap::il::NibbleWriter w(blob);
  w.nibble(8);
  w.nibble(8);
  w.nibble(0xA);
  w.nibble(4);  // count 20 = 0o24, non-minimal
  for (int i = 0; i < 20; ++i)
    for (const std::uint8_t v : {1, 3, 0}) {
      w.nibble(8);
      w.nibble(v);
    }
  w.flush();
  const auto report = gdmap::il::checkBoundsCanonical(blob, BoundsForm::Nibble, 5);
  CHECK(report.valid);
  CHECK(report.reasons.size() == 5);
  CHECK(report.reasonCount == 61);
  gdmap::CheckOptions options;
  options.maxDiagnostics = 5;
  const auto check = gdmap::il::checkBounds(blob, BoundsForm::Nibble, options);
  CHECK(check.truncated);
  CHECK(check.warnings == 61);
}

TEST_CASE("il reader: an error becomes a located diagnostic") {
  const auto p = openError(nibbles({1, 0, 3, 0xC, 0}), BoundsForm::Nibble);
  const gdmap::Diagnostic d = gdmap::binaryDiagnostic(p);
  CHECK(d.rule == "il-invalid-source");
  CHECK(d.path == "bounds[0].source");
  CHECK(d.offset == 1);
  CHECK(d.message.rfind("nibble 3: ", 0) == 0);
  const auto invalid = gdmap::il::checkBounds(nibbles({1, 0, 3, 0xC, 0}), BoundsForm::Nibble);
  CHECK_FALSE(invalid.valid);
  CHECK(invalid.errors == 1);
}
