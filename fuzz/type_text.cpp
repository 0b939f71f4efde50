// Fuzz target: the type-text parser (parseType) on arbitrary text, and for
// every type it accepts the printer, the encoder and the decoder.
//
// The text is also read as hex (parseHex), as `gdmap sig decode` does.
//
// Invariants (each aborts when broken):
// - an error points inside the text (offset <= size) and names a rule;
// - the model holds no more array dimensions, arguments and parameters
//   than the text has bytes (memory linear in the input, issue #7 defect 3);
// - formatType's text parses back to the same model and prints the same;
// - the encoder accepts whatever the parser accepts (one set of limits),
//   and its bytes decode (decodeTypeBlob and skipType) to the same model
//   with no non-minimal integers.
#include "fuzz_check.hpp"

#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/type_text.hpp>
#include <gdmap/writer/type_encoder.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

using namespace gdmap;
using gdmap::fuzz::describeError;
using gdmap::fuzz::hexOf;

// Vector elements the model holds: what parsing allocated, roughly.
std::size_t modelElements(const Type& t) {
  std::size_t n = t.operands.size() + t.shape.sizes.size() + t.shape.lowerBounds.size();
  for (const Type& operand : t.operands) n += modelElements(operand);
  return n;
}

// The same text as hex (what `gdmap sig decode` and `{ "hex": ... }`
// read): an error points inside the text (its rule is the caller's:
// invalid-hex in a description); bytes print as hex that parses back.
void checkHex(std::string_view text) {
  Expected<Bytes> bytes = parseHex(text);
  if (!bytes) {
    FUZZ_CHECK(bytes.error().offset <= text.size(), "parseHex error past the text: " + describeError(bytes.error()));
    return;
  }
  FUZZ_CHECK(bytes->size() <= text.size() / 2, "parseHex made more bytes than the text has digit pairs");
  Expected<Bytes> again = parseHex(toHex(*bytes));
  FUZZ_CHECK(again.ok() && *again == *bytes, "toHex -> parseHex does not give the bytes back");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = gdmap::fuzz::asText(data, size);
  checkHex(text);
  Expected<Type> parsed = parseType(text);
  if (!parsed) {
    FUZZ_CHECK(parsed.error().offset <= text.size(),
               "parse error offset past the text: " + describeError(parsed.error()));
    FUZZ_CHECK(!parsed.error().rule.empty(), "parse error without a rule: " + describeError(parsed.error()));
    return 0;
  }
  const Type& type = *parsed;
  // Linear, not one element per byte: `int32[,...,0...0]` fills sizes and
  // lower bounds from a 3-byte `0...0`, so a model may hold up to about
  // two elements per byte of text.
  FUZZ_CHECK(modelElements(type) <= 2 * text.size(), "the model holds " + std::to_string(modelElements(type)) +
                                                         " elements for " + std::to_string(text.size()) +
                                                         " bytes of text");

  const std::string printed = formatType(type);
  Expected<Type> reparsed = parseType(printed);
  FUZZ_CHECK(reparsed.ok(), "formatType text does not parse: '" + printed + "': " + describeError(reparsed.error()));
  FUZZ_CHECK(*reparsed == type, "printed text '" + printed + "' parses to another model");
  FUZZ_CHECK(formatType(*reparsed) == printed, "formatType is not stable for '" + printed + "'");

  Expected<Bytes> encoded = encodeType(type);
  FUZZ_CHECK(encoded.ok(), "parsed text does not encode: '" + printed + "': " + describeError(encoded.error()));
  TypeDecodeNotes notes;
  std::size_t end = 0;
  Expected<Type> decoded = decodeType(*encoded, end, &notes);
  FUZZ_CHECK(decoded.ok(), "encoder output " + hexOf(*encoded) + " of '" + printed +
                               "' does not decode: " + describeError(decoded.error()));
  FUZZ_CHECK(end == encoded->size(), "encoder output " + hexOf(*encoded) + " has bytes after the type");
  FUZZ_CHECK(*decoded == type,
             "'" + printed + "' encodes as " + hexOf(*encoded) + ", which decodes to '" + formatType(*decoded) + "'");
  FUZZ_CHECK(notes.nonMinimalIntegers == 0, "encoder wrote a non-minimal integer in " + hexOf(*encoded));
  std::size_t skipEnd = 0;
  FUZZ_CHECK(skipType(*encoded, skipEnd).ok() && skipEnd == end, "skipType disagrees on " + hexOf(*encoded));
  return 0;
}
