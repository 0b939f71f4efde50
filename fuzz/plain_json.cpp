// Fuzz target: the plain JSON parser that reads plain descriptions
// (schema/internal/gdmap/internal/plain_json_sax.hpp) against nlohmann's, which it
// stands in for. For any bytes that are plain text: both accept or both
// reject, and where they accept, the same SAX events with the same values.
// Bytes that are not plain go to nlohmann alone, and are skipped here.
#include "fuzz_check.hpp"
#include "tests/support/json_event_log.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string disagreement = gdmap::testing::plainParserDisagreement(text);
  FUZZ_CHECK(disagreement.empty(), disagreement);
  return 0;
}
