#include <gdmap/reader/il_compare.hpp>

#include <gdmap/reader/bounds_annotate.hpp>
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/schema/hex.hpp>

#include <algorithm>
#include <array>
#include <bit>

namespace gdmap::il {
namespace {

std::string expectedFound(const std::string& expected, const std::string& found) {
  return "expected " + expected + ", found " + found;
}

std::string number(std::uint32_t value) { return std::to_string(value); }

// The api form: the entry and field are where the byte is.
void nameApiField(ByteSpan expected, ByteSpan actual, IlDifference& d) {
  const std::size_t index = d.firstOffset / kApiEntrySize;
  const std::string entry = "entries[" + std::to_string(index) + "]";
  const std::size_t start = index * kApiEntrySize;
  const bool inExpected = start + kApiEntrySize <= expected.size();
  const bool inActual = start + kApiEntrySize <= actual.size();
  if (!inExpected || !inActual) {
    d.field = entry;
    d.detail = inExpected
                   ? "the entry is missing (" + std::to_string(expected.size() / kApiEntrySize) +
                         " entries expected, " + std::to_string(actual.size() / kApiEntrySize) + " found)"
                   : "an entry the description does not have (" + std::to_string(expected.size() / kApiEntrySize) +
                         " entries expected, " + std::to_string(actual.size() / kApiEntrySize) + " found)";
    return;
  }
  static constexpr std::array<const char*, 3> kFields = {"ilOffset", "nativeStartOffset", "nativeEndOffset"};
  const std::size_t field = (d.firstOffset - start) / 4;
  const ApiEntry e = ApiMapView(expected).entry(index);
  const ApiEntry a = ApiMapView(actual).entry(index);
  const std::array<std::uint32_t, 3> ev = {e.ilOffset, e.nativeStartOffset, e.nativeEndOffset};
  const std::array<std::uint32_t, 3> av = {a.ilOffset, a.nativeStartOffset, a.nativeEndOffset};
  d.field = entry + "." + kFields[field];
  d.detail =
      field == 0 ? expectedFound(ilText(ev[0]), ilText(av[0])) : expectedFound(number(ev[field]), number(av[field]));
}

// The compressed forms: a byte says little (a delta, a nibble of a varint),
// so both blobs are decoded and the first bound that differs is named
// (the detail; compareIlBlobs() names the field of the first differing
// byte, the same field when only values differ).
void nameBoundsField(ByteSpan expected, ByteSpan actual, BoundsForm form, IlDifference& d) {
  const Expected<BoundsView> e = openBounds(expected, form);
  const Expected<BoundsView> a = openBounds(actual, form);
  if (!e || !a) {
    d.field = "";
    d.detail = "the bytes differ";
    return;
  }
  BoundsView::Cursor ec = e->cursor();
  BoundsView::Cursor ac = a->cursor();
  Bound eb;
  Bound ab;
  for (std::size_t i = 0;; ++i) {
    const bool eMore = ec.next(eb);
    const bool aMore = ac.next(ab);
    if (!eMore || !aMore) break;
    const std::string bound = "bounds[" + std::to_string(i) + "]";
    if (eb.nativeOffset != ab.nativeOffset) {
      d.field = bound + ".native";
      d.detail = expectedFound(number(eb.nativeOffset), number(ab.nativeOffset));
      return;
    }
    if (eb.ilOffset != ab.ilOffset) {
      d.field = bound + ".il";
      d.detail = expectedFound(ilText(eb.ilOffset), ilText(ab.ilOffset));
      return;
    }
    if (eb.source != ab.source) {
      d.field = bound + ".source";
      d.detail = expectedFound(sourceText(eb.source), sourceText(ab.source));
      return;
    }
  }
  if (e->count() != a->count()) {
    d.field = "header.count";
    d.detail = expectedFound(number(e->count()), number(a->count())) + " bounds";
    return;
  }
  // Same content, other bytes: a non-minimal varint or a wider width.
  const BoundsCanonicalReport canonical = checkBoundsCanonical(actual, form, 1);
  if (!canonical.reasons.empty()) {
    d.field = canonical.reasons.front().path;
    d.detail = "same bounds, not canonical bytes: " + canonical.reasons.front().message;
    return;
  }
  d.field = "";
  d.detail = "same bounds, not canonical bytes";
}

// The first bit that differs, in the order the nibble and bit readers take
// them (bit b of byte k is bit 8k + b); where the shorter blob ends when
// one is the other's start.
std::size_t firstDifferingBit(ByteSpan expected, ByteSpan actual, std::size_t byte) {
  if (byte >= expected.size() || byte >= actual.size()) return 8 * byte;
  return 8 * byte + static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(expected[byte] ^ actual[byte])));
}

// The field that holds `bit`, as `il hexdump` names it: a blob that does
// not decode has its fields named as far as they read.
std::string fieldAtBit(ByteSpan blob, BoundsForm form, std::size_t bit) {
  const BoundsAnnotation annotation = annotateBounds(blob, form);
  for (const AnnotatedBits& r : annotation.ranges)
    if (bit >= r.bit && bit < r.bit + r.bits) return r.path;
  return {};
}

}  // namespace

IlDifference compareIlBlobs(ByteSpan expected, ByteSpan actual, BoundsForm form) {
  IlDifference d;
  d.expectedSize = expected.size();
  d.actualSize = actual.size();
  const auto mismatch = std::mismatch(expected.begin(), expected.end(), actual.begin(), actual.end());
  d.identical = mismatch.first == expected.end() && mismatch.second == actual.end();
  if (d.identical) return d;
  d.firstOffset = static_cast<std::size_t>(mismatch.first - expected.begin());
  if (form == BoundsForm::Api) {
    nameApiField(expected, actual, d);
  } else {
    nameBoundsField(expected, actual, form, d);
    // The field is the one the first differing byte is in, so that it and
    // the offset name one place; a first differing bound elsewhere (a
    // count or a width changed before it) is said in the detail.
    const std::size_t bit = firstDifferingBit(expected, actual, d.firstOffset);
    const std::string at = bit < 8 * actual.size() ? fieldAtBit(actual, form, bit) : fieldAtBit(expected, form, bit);
    if (!at.empty() && at != d.field) {
      if (!d.field.empty()) d.detail = d.field + ": " + d.detail;
      d.field = at;
    }
  }
  return d;
}

}  // namespace gdmap::il
