// Fuzz target il_dump_roundtrip: `gdmap il dump` of anything, exactly. The
// first byte picks the form (api, nibble, packed2, packed3), the rest is
// the blob: describeIlBlob -> writeIlDescription -> parseIlDescription ->
// encodeExact must give back the identical bytes, whatever they are, and
// the verbatim escape (`raw`) is used only when the blob's header cannot be
// read.
#include "fuzz_check.hpp"

#include <gdmap/description/il_description_exact.hpp>
#include <gdmap/description/il_description_json.hpp>
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/writer/bounds_layout.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gdmap;
  if (size == 0) return 0;
  constexpr il::BoundsForm kForms[] = {il::BoundsForm::Api, il::BoundsForm::Nibble, il::BoundsForm::Packed2,
                                       il::BoundsForm::Packed3};
  const il::BoundsForm form = kForms[data[0] % 4];
  const ByteSpan blob = fuzz::asBytes(data + 1, size - 1);

  il::ExactIlMethod exact = il::describeIlBlob(blob, form);
  const std::string text = il::writeIlDescription(std::span<const il::Method>(&exact.method, 1));
  const il::IlDescriptionParse parsed = il::parseIlDescription(text);
  FUZZ_CHECK(parsed.methods && parsed.methods->size() == 1, "the dump does not parse: " + text);
  FUZZ_CHECK(parsed.methods->front() == exact.method, "the dump does not read back as the method: " + text);
  const il::ExactEncoding rebuilt = il::encodeExact(parsed.methods->front(), form);
  FUZZ_CHECK(rebuilt.bytes.has_value(), "the dump does not build: " + text);
  FUZZ_CHECK(std::equal(rebuilt.bytes->begin(), rebuilt.bytes->end(), blob.begin(), blob.end()),
             "the dump builds other bytes: " + fuzz::hexOf(*rebuilt.bytes) + " for " + fuzz::hexOf(blob));
  if (exact.raw) {
    const il::BoundsCanonicalReport read = il::checkBoundsCanonical(blob, form, 1);
    FUZZ_CHECK(!read.valid && !read.reasons.empty() && read.reasons.front().path.rfind("header.", 0) == 0,
               "raw was used for a blob whose header reads: " + fuzz::hexOf(blob));
  }
  return 0;
}
