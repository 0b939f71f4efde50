// Fuzz targets il_nibble, il_packed2 and il_packed3: this source compiled
// once per compressed form of the IL-to-native map, GDMAP_FUZZ_IL_FORM
// naming the BoundsForm enumerator (fuzz/CMakeLists.txt), so that each form
// has its own corpus (fuzz/corpus/il_FORM/) and coverage. Each input is
// used twice, with the invariants of fuzz/il_invariants.hpp:
// - as a blob of that form: the readers agree, every problem is located,
//   a valid blob decodes to ascending storable bounds that the writer
//   writes back (byte for byte when canonical), and converts to an API
//   array that survives its form;
// - as a program of bounds (boundsFromProgram): the writer accepts them
//   exactly when they are non-empty, ascending and storable, and its blob is
//   canonical and decodes to the same bounds.
#include "il_invariants.hpp"

#include <cstddef>
#include <cstdint>

#ifndef GDMAP_FUZZ_IL_FORM
#error "compile with -DGDMAP_FUZZ_IL_FORM=Nibble|Packed2|Packed3"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr gdmap::il::BoundsForm kForm = gdmap::il::BoundsForm::GDMAP_FUZZ_IL_FORM;
  const gdmap::ByteSpan input = gdmap::fuzz::asBytes(data, size);
  gdmap::fuzz::checkCompressedBlob(input, kForm);
  gdmap::fuzz::checkEncodeRoundTrip(gdmap::fuzz::boundsFromProgram(input, kForm), kForm);
  return 0;
}
