#pragma once
// A binary IL-to-native map given to `gdmap il` (dump, verify, convert):
// read in full by the strict readers of reader/il (bounds_decoder.hpp), its
// first error reported where it is (byte, nibble or bit, field).
#include "common/report.hpp"

#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/il_map.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::cli {

// The content of a valid blob: bounds (compressed forms) or entries (api).
struct DecodedBlob {
  il::BoundsForm form = il::BoundsForm::Api;
  std::vector<il::Bound> bounds;
  std::vector<il::ApiEntry> entries;
  std::size_t count() const { return form == il::BoundsForm::Api ? entries.size() : bounds.size(); }
};

// Empty when the blob is not valid in `form` (its error is in the report,
// about `file`; status 1).
std::optional<DecodedBlob> decodeBlob(ByteSpan blob, il::BoundsForm form, const std::string& file, Report& report);

// "bounds" or "entries", with the right number: "6 bounds", "1 entry".
std::string contentCount(il::BoundsForm form, std::size_t n);

std::string_view asText(ByteSpan bytes);

}  // namespace gdmap::cli
