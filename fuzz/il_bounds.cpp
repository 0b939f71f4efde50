// Fuzz target: the IL-to-native map readers (openBounds for the nibble,
// packed2 and packed3 forms, openApiMap) on arbitrary bytes, every input
// tried in all four forms. The invariants (fuzz/il_invariants.hpp) are
// shared with il_nibble, il_packed2 and il_packed3, which fuzz one form
// each:
// - openBounds, checkBoundsCanonical and checkBounds agree on validity
//   (--strict on canonical bytes); every problem names a rule and a field
//   and lies inside the blob, its nibble or bit inside its byte;
// - the view's count is the number of bounds its cursor yields; decoded
//   bounds ascend and carry only flags the form can store, so the writer
//   accepts them; it writes the input back byte for byte when the input is
//   canonical, and otherwise a shorter canonical blob of the same bounds;
// - boundsToApi never yields more entries than bounds, and the API array
//   survives encodeApiEntries -> openApiMap unchanged;
// - openApiMap succeeds exactly for lengths that are multiples of 12, and
//   gives the input back through encodeApiEntries.
#include "il_invariants.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using gdmap::il::BoundsForm;
  const gdmap::ByteSpan input = gdmap::fuzz::asBytes(data, size);
  for (const BoundsForm form : {BoundsForm::Nibble, BoundsForm::Packed2, BoundsForm::Packed3})
    gdmap::fuzz::checkCompressedBlob(input, form);
  gdmap::fuzz::checkApiBlob(input);
  return 0;
}
