#include "map_field_values.hpp"

#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/map_format.hpp>

namespace gdmap::detail {

std::string cappedHex(ByteSpan bytes) {
  if (bytes.size() <= kMaxQuotedBytes) return toHex(bytes);
  return toHex(bytes.first(kMaxQuotedBytes)) + "... (" + std::to_string(bytes.size()) + " bytes)";
}

std::string cappedText(std::string text, std::size_t limit) {
  if (text.size() <= limit) return text;
  text.resize(limit);
  return text + "...";
}

std::string entries(std::uint64_t n) { return std::to_string(n) + (n == 1 ? " entry" : " entries"); }

std::string headerValue(std::uint32_t count) {
  return hex32(count) + " (" + entries(count & kEntryCountMask) + ((count & kSortedFlag) ? ", sorted)" : ", unsorted)");
}

}  // namespace gdmap::detail
