// Fuzz target: the signature decoder (decodeType, skipType, decodeTypeBlob,
// typeFieldPath) on arbitrary bytes, and for every type it accepts the
// lossless round trip formatType -> parseType -> encodeType.
//
// Invariants (each aborts when broken):
// - decodeType and skipType agree on success, end offset and notes;
//   decodeTypeBlob succeeds exactly when decodeType does and consumes all;
// - a decoded type prints as text that parses back to the same model and
//   prints the same again;
// - the encoder accepts every decoded type, and writes the decoder's input
//   back byte for byte when that input used only shortest integers (else
//   something shorter that decodes to the same model, with no notes).
#include "fuzz_check.hpp"

#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/type_text.hpp>
#include <gdmap/writer/type_encoder.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace {

using namespace gdmap;
using gdmap::fuzz::describeError;
using gdmap::fuzz::hexOf;

void roundTrip(ByteSpan input, const Type& type, const TypeDecodeNotes& notes) {
  const std::string text = formatType(type);
  Expected<Type> reparsed = parseType(text);
  FUZZ_CHECK(reparsed.ok(), "formatType text does not parse: '" + text + "': " + describeError(reparsed.error()));
  FUZZ_CHECK(*reparsed == type, "text '" + text + "' parses to another model");
  FUZZ_CHECK(formatType(*reparsed) == text, "formatType is not stable for '" + text + "'");

  Expected<Bytes> encoded = encodeType(type);
  FUZZ_CHECK(encoded.ok(),
             "decoded type does not encode: " + hexOf(input) + " '" + text + "': " + describeError(encoded.error()));
  if (notes.nonMinimalIntegers == 0) {
    FUZZ_CHECK(std::equal(encoded->begin(), encoded->end(), input.begin(), input.end()),
               "canonical input " + hexOf(input) + " re-encodes as " + hexOf(*encoded) + " ('" + text + "')");
  } else {
    FUZZ_CHECK(encoded->size() < input.size(),
               "non-minimal input " + hexOf(input) + " re-encodes no shorter: " + hexOf(*encoded));
    TypeDecodeNotes again;
    std::size_t end = 0;
    Expected<Type> redecoded = decodeType(*encoded, end, &again);
    FUZZ_CHECK(redecoded.ok(), "encoder output does not decode: " + hexOf(*encoded));
    FUZZ_CHECK(end == encoded->size() && *redecoded == type && again.nonMinimalIntegers == 0,
               "encoder output " + hexOf(*encoded) + " is not the shortest form of " + hexOf(input));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const ByteSpan bytes = gdmap::fuzz::asBytes(data, size);

  // Types back to back, as in a heap item; each one checked alone too.
  std::size_t offset = 0;
  for (int k = 0; k < 64 && offset < bytes.size(); ++k) {
    const std::size_t start = offset;
    TypeDecodeNotes decodeNotes;
    Expected<Type> decoded = decodeType(bytes, offset, &decodeNotes);

    std::size_t skipEnd = start;
    TypeDecodeNotes skipNotes;
    Status skipped = skipType(bytes, skipEnd, &skipNotes);
    FUZZ_CHECK(decoded.ok() == skipped.ok(),
               "decodeType and skipType disagree at " + std::to_string(start) + " on " + hexOf(bytes.subspan(start)));
    if (!decoded) {
      FUZZ_CHECK(!decoded.error().rule.empty(), "decode error without a rule: " + describeError(decoded.error()));
      FUZZ_CHECK(decoded.error().offset <= bytes.size(),
                 "decode error offset past the input: " + describeError(decoded.error()));
      break;
    }
    FUZZ_CHECK(offset > start && offset <= bytes.size(), "decodeType did not advance within the input");
    FUZZ_CHECK(skipEnd == offset,
               "skipType ends at " + std::to_string(skipEnd) + ", decodeType at " + std::to_string(offset));
    FUZZ_CHECK(skipNotes.nonMinimalIntegers == decodeNotes.nonMinimalIntegers,
               "skipType and decodeType count non-minimal integers differently");

    const ByteSpan one = bytes.subspan(start, offset - start);
    Expected<Type> blob = decodeTypeBlob(one);
    FUZZ_CHECK(blob.ok() && *blob == *decoded, "decodeTypeBlob disagrees with decodeType on " + hexOf(one));
    roundTrip(one, *decoded, decodeNotes);

    // Field paths for a byte inside the type and for the byte after it.
    const std::size_t target = start + (one.size() > 1 ? data[start] % one.size() : 0);
    (void)typeFieldPath(bytes, start, target);
    (void)typeFieldPath(bytes, start, offset);
  }

  Expected<Type> whole = decodeTypeBlob(bytes);
  if (whole) {
    std::size_t end = 0;
    Expected<Type> first = decodeType(bytes, end);
    FUZZ_CHECK(first.ok() && end == bytes.size() && *first == *whole,
               "decodeTypeBlob accepts what decodeType does not fully consume");
  }
  if (!bytes.empty()) (void)typeFieldPath(bytes, 0, bytes.size() - 1);
  return 0;
}
