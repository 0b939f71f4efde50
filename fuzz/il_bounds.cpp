// Fuzz target: the IL-to-native map readers (openBounds for the nibble,
// packed2 and packed3 forms, openApiMap) on arbitrary bytes, and for every
// blob one accepts the round trip through the writer and the bounds -> API
// conversion. Every input is tried in all four forms.
//
// Invariants (each aborts when broken):
// - openBounds succeeds exactly when checkBoundsCanonical calls the blob
//   valid; the view's count is the number of bounds its cursor yields;
// - decoded bounds ascend, and carry only flags the form can store, so the
//   writer accepts them; it writes the input back byte for byte when the
//   input is canonical, and otherwise a canonical blob of the same bounds;
// - boundsToApi never yields more entries than bounds, and the API array
//   survives encodeApiEntries -> openApiMap unchanged;
// - openApiMap succeeds exactly for lengths that are multiples of 12, and
//   gives the input back through encodeApiEntries.
#include "fuzz_check.hpp"

#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/schema/bounds_to_api.hpp>
#include <gdmap/schema/il_map.hpp>
#include <gdmap/writer/bounds_encoder.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using namespace gdmap;
using namespace gdmap::il;
using gdmap::fuzz::describeError;
using gdmap::fuzz::hexOf;

void checkApi(const std::vector<ApiEntry>& entries) {
  const Bytes bytes = encodeApiEntries(entries);
  const ApiOpenResult api = openApiMap(bytes);
  FUZZ_CHECK(api && api.view->toVector() == entries, "an API array does not survive encode -> open");
}

void checkForm(ByteSpan input, BoundsForm form) {
  const BoundsOpenResult opened = openBounds(input, form);
  const BoundsCanonicalReport canonical = checkBoundsCanonical(input, form);
  FUZZ_CHECK(static_cast<bool>(opened) == canonical.valid,
             std::string(formName(form)) + ": openBounds and checkBoundsCanonical disagree on " + hexOf(input));
  if (!opened) {
    FUZZ_CHECK(!opened.error.rule.empty() && opened.error.byteOffset <= input.size(),
               "an error without a rule or outside the input: " + opened.error.message);
    return;
  }
  const std::vector<Bound> bounds = opened.view->toVector();
  FUZZ_CHECK(bounds.size() == opened.view->count(), "the cursor yields another count than the header's");
  FUZZ_CHECK(!firstDescendingBound(bounds).has_value(), "decoded bounds descend: " + hexOf(input));

  Expected<Bytes> again = encodeCompressedBounds(bounds, form);
  FUZZ_CHECK(again.ok(), "decoded bounds do not encode: " + hexOf(input) + ": " + describeError(again.error()));
  if (canonical.canonical) {
    FUZZ_CHECK(std::equal(again->begin(), again->end(), input.begin(), input.end()),
               "canonical input " + hexOf(input) + " re-encodes as " + hexOf(*again));
  } else {
    FUZZ_CHECK(checkBoundsCanonical(*again, form).canonical, "the writer's output is not canonical: " + hexOf(*again));
    const BoundsOpenResult reopened = openBounds(*again, form);
    FUZZ_CHECK(reopened && reopened.view->toVector() == bounds, "re-encoded bounds decode differently");
  }

  const std::uint32_t codeSize = bounds.back().nativeOffset + (input.empty() ? 0 : input[0]);
  const std::vector<ApiEntry> api = boundsToApi(bounds, codeSize);
  FUZZ_CHECK(api.size() <= bounds.size(), "the API array has more entries than bounds");
  checkApi(api);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const ByteSpan input = gdmap::fuzz::asBytes(data, size);
  for (const BoundsForm form : {BoundsForm::Nibble, BoundsForm::Packed2, BoundsForm::Packed3}) checkForm(input, form);

  const ApiOpenResult api = openApiMap(input);
  FUZZ_CHECK(static_cast<bool>(api) == (size % kApiEntrySize == 0),
             "openApiMap misjudges the length " + std::to_string(size));
  if (api) {
    const Bytes back = encodeApiEntries(api.view->toVector());
    FUZZ_CHECK(std::equal(back.begin(), back.end(), input.begin(), input.end()),
               "an API blob does not re-encode as itself");
  }
  return 0;
}
