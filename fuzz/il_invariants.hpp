#pragma once
// The invariants of the IL-to-native map readers and writers
// (FORMAT.md §3), shared by the fuzz targets il_bounds (every form on each
// input) and il_nibble / il_packed2 / il_packed3 (one form each, so each
// keeps its own corpus and coverage). Each check aborts through FUZZ_CHECK.
#include "fuzz_check.hpp"

#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/reader/map_check.hpp>
#include <gdmap/schema/bounds_to_api.hpp>
#include <gdmap/schema/il_map.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/writer/bounds_encoder.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gdmap::fuzz {

// An API array survives encodeApiEntries -> openApiMap unchanged.
inline void checkApiRoundTrip(const std::vector<il::ApiEntry>& entries) {
  const Bytes bytes = il::encodeApiEntries(entries);
  FUZZ_CHECK(bytes.size() == entries.size() * il::kApiEntrySize, "an API array of the wrong size");
  const Expected<il::ApiMapView> api = il::openApiMap(bytes);
  FUZZ_CHECK(api && api->toVector() == entries, "an API array does not survive encode -> open");
}

// A reader's problem names a rule and a field and lies inside the blob (its
// byte is the one its nibble or bit offset is in, by Error::byteOffset()).
inline void checkProblemLocated(const Error& p, ByteSpan input) {
  FUZZ_CHECK(!p.rule.empty() && !p.message.empty(), "a problem without a rule or message at " + p.path);
  FUZZ_CHECK(!p.path.empty(), "[" + p.rule + "] names no field: " + p.message);
  FUZZ_CHECK(p.byteOffset() <= input.size(), "[" + p.rule + "] at byte " + std::to_string(p.byteOffset()) + " of a " +
                                                 std::to_string(input.size()) + "-byte blob");
}

// A compressed blob in `form`:
// - openBounds succeeds exactly when checkBoundsCanonical and checkBounds
//   call it valid; checkBounds --strict accepts exactly the canonical ones;
//   every problem is located;
// - the view's count is the number of bounds its cursor yields; packed
//   widths are 1..32; decoded bounds ascend and carry only flags the form
//   can store, so the writer accepts them; it writes the input back byte
//   for byte when canonical, and otherwise a canonical blob of the same
//   bounds;
// - boundsToApi never yields more entries than bounds, and its array
//   survives the API form.
inline void checkCompressedBlob(ByteSpan input, il::BoundsForm form) {
  const Expected<il::BoundsView> opened = il::openBounds(input, form);
  const il::BoundsCanonicalReport canonical = il::checkBoundsCanonical(input, form);
  const std::string name = std::string(il::formName(form));
  FUZZ_CHECK(opened.ok() == canonical.valid,
             name + ": openBounds and checkBoundsCanonical disagree on " + hexOf(input));
  FUZZ_CHECK(canonical.reasons.size() <= canonical.reasonCount, name + ": more reasons kept than counted");
  for (const Error& p : canonical.reasons) checkProblemLocated(p, input);

  const CheckReport lax = il::checkBounds(input, form);
  CheckOptions strictOptions;
  strictOptions.strict = true;
  const CheckReport strict = il::checkBounds(input, form, strictOptions);
  FUZZ_CHECK(lax.valid == canonical.valid, name + ": checkBounds and openBounds disagree on " + hexOf(input));
  FUZZ_CHECK(strict.valid == (canonical.valid && canonical.canonical),
             name + ": checkBounds --strict does not accept exactly the canonical blobs: " + hexOf(input));
  FUZZ_CHECK(lax.valid == (lax.errors == 0), name + ": checkBounds' valid and error count disagree");

  if (!opened) {
    checkProblemLocated(opened.error(), input);
    FUZZ_CHECK(opened.error().rule == canonical.reasons.front().rule,
               name + ": open and the canonical check name different errors");
    return;
  }
  const il::BoundsView& view = *opened;
  if (form != il::BoundsForm::Nibble)
    FUZZ_CHECK(view.nativeBits() >= 1 && view.nativeBits() <= 32 && view.ilBits() >= 1 && view.ilBits() <= 32,
               name + ": a width outside 1..32 accepted");
  const std::vector<il::Bound> bounds = view.toVector();
  FUZZ_CHECK(!bounds.empty(), name + ": an empty blob accepted: " + hexOf(input));
  FUZZ_CHECK(bounds.size() == view.count(), "the cursor yields another count than the header's");
  FUZZ_CHECK(!il::firstDescendingBound(bounds).has_value(), "decoded bounds descend: " + hexOf(input));
  for (const il::Bound& b : bounds)
    FUZZ_CHECK((b.source & ~il::storableSource(form)) == 0,
               name + ": a decoded source " + il::sourceText(b.source) + " the form cannot store");

  Expected<Bytes> again = il::encodeCompressedBounds(bounds, form);
  FUZZ_CHECK(again.ok(), "decoded bounds do not encode: " + hexOf(input) + ": " + describeError(again.error()));
  if (canonical.canonical) {
    FUZZ_CHECK(std::equal(again->begin(), again->end(), input.begin(), input.end()),
               "canonical input " + hexOf(input) + " re-encodes as " + hexOf(*again));
  } else {
    FUZZ_CHECK(again->size() <= input.size(), "the canonical blob is longer than a non-canonical one");
    FUZZ_CHECK(il::checkBoundsCanonical(*again, form).canonical,
               "the writer's output is not canonical: " + hexOf(*again));
    const Expected<il::BoundsView> reopened = il::openBounds(*again, form);
    FUZZ_CHECK(reopened && reopened->toVector() == bounds, "re-encoded bounds decode differently");
  }

  const std::uint32_t codeSize = bounds.back().nativeOffset + (input.empty() ? 0 : input[0]);
  const std::vector<il::ApiEntry> api = il::boundsToApi(bounds, codeSize);
  FUZZ_CHECK(api.size() <= bounds.size(), "the API array has more entries than bounds");
  checkApiRoundTrip(api);
}

// openApiMap accepts exactly lengths that are multiples of 12 (locating
// the rest otherwise) and gives the input back through encodeApiEntries.
inline void checkApiBlob(ByteSpan input) {
  const Expected<il::ApiMapView> api = il::openApiMap(input);
  FUZZ_CHECK(api.ok() == (input.size() % il::kApiEntrySize == 0),
             "openApiMap misjudges the length " + std::to_string(input.size()));
  if (!api) {
    checkProblemLocated(api.error(), input);
    FUZZ_CHECK(api.error().rule == rules::kIlApiLength, "a bad API length reported as [" + api.error().rule + "]");
    return;
  }
  const Bytes back = il::encodeApiEntries(api->toVector());
  FUZZ_CHECK(std::equal(back.begin(), back.end(), input.begin(), input.end()),
             "an API blob does not re-encode as itself");
}

// Bounds read from arbitrary bytes as a little program, so that the writer
// sees every shape (deltas of 0, 1, 2 and 4 bytes, IL specials, any
// flags, wrapping native offsets that descend). Per bound one control byte
// c, then the operands it asks for:
//   c & 3:        native delta: 0, 1 byte, 2 bytes, 4 bytes (LE);
//   (c >> 2) & 3: IL offset: a special (next byte mod 3), 1, 2 or 4 bytes;
//   c & 0x10:     a source byte follows (& 0x3F); else no flags;
//   c & 0x20:     keep only the flags `form` can store.
inline std::vector<il::Bound> boundsFromProgram(ByteSpan program, il::BoundsForm form) {
  std::vector<il::Bound> bounds;
  std::size_t at = 0;
  auto take = [&](unsigned n) {
    std::uint32_t v = 0;
    for (unsigned i = 0; i < n && at < program.size(); ++i) v |= std::uint32_t{program[at++]} << (8 * i);
    return v;
  };
  static constexpr unsigned kWidths[4] = {0, 1, 2, 4};
  static constexpr std::uint32_t kSpecials[3] = {il::kProlog, il::kEpilog, il::kNoMapping};
  std::uint32_t native = 0;
  while (at < program.size()) {
    const std::uint8_t c = program[at++];
    il::Bound b;
    native += take(kWidths[c & 3]);  // wraps: descending bounds on purpose
    b.nativeOffset = native;
    const unsigned ilKind = (c >> 2) & 3;
    b.ilOffset = ilKind == 0 ? kSpecials[take(1) % 3] : take(kWidths[ilKind]);
    if ((c & 0x10) != 0) b.source = take(1) & il::source::kKnown;
    if ((c & 0x20) != 0) b.source &= il::storableSource(form);
    bounds.push_back(b);
  }
  return bounds;
}

// The writer accepts bounds exactly when they are non-empty, ascend and
// carry only storable flags, naming the reason otherwise; what it writes is
// canonical, valid for --strict, and decodes to the same bounds.
inline void checkEncodeRoundTrip(const std::vector<il::Bound>& bounds, il::BoundsForm form) {
  const std::string name = std::string(il::formName(form));
  const std::optional<std::size_t> descending = il::firstDescendingBound(bounds);
  const bool storable = std::all_of(bounds.begin(), bounds.end(),
                                    [&](const il::Bound& b) { return (b.source & ~il::storableSource(form)) == 0; });
  Expected<Bytes> blob = il::encodeCompressedBounds(bounds, form);
  FUZZ_CHECK(blob.ok() == (!bounds.empty() && !descending && storable),
             name + ": the writer " + (blob.ok() ? "accepts" : "refuses (" + describeError(blob.error()) + ")") + " " +
                 std::to_string(bounds.size()) + " bounds, descending: " + (descending ? "yes" : "no") +
                 ", storable: " + (storable ? "yes" : "no"));
  if (!blob.ok()) {
    const std::string& rule = blob.error().rule;
    FUZZ_CHECK(
        rule == rules::kIlEmptyBounds || rule == rules::kIlBoundsNotAscending || rule == rules::kIlFlagNotStorable,
        name + ": the writer refuses with [" + rule + "]");
    if (bounds.empty()) FUZZ_CHECK(rule == rules::kIlEmptyBounds, "no bounds refused as [" + rule + "]");
    return;
  }
  const il::BoundsCanonicalReport report = il::checkBoundsCanonical(*blob, form);
  FUZZ_CHECK(
      report.valid && report.canonical,
      name + ": the writer's blob is not valid and canonical: " + hexOf(*blob) +
          (report.reasons.empty() ? std::string() : " [" + report.reasons[0].rule + "] " + report.reasons[0].message));
  const Expected<il::BoundsView> opened = il::openBounds(*blob, form);
  FUZZ_CHECK(opened && opened->toVector() == bounds, name + ": written bounds decode differently");
}

}  // namespace gdmap::fuzz
