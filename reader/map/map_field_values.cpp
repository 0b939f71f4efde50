#include "map_field_values.hpp"

#include <gdmap/internal/utf8_boundary.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/map_format.hpp>

#include <algorithm>

namespace gdmap::detail {

std::string cappedHex(ByteSpan bytes) {
  if (bytes.size() <= kMaxQuotedBytes) return toHex(bytes);
  return toHex(bytes.first(kMaxQuotedBytes)) + "... (" + std::to_string(bytes.size()) + " bytes)";
}

std::string cappedHexAround(ByteSpan bytes, std::size_t at) {
  if (bytes.size() <= kMaxQuotedBytes) return toHex(bytes);
  // As cappedHex() when `at` is in the first three quarters.
  const std::size_t from =
      std::min(at <= kMaxQuotedBytes - kMaxQuotedBytes / 4 ? 0 : at - kMaxQuotedBytes / 4, bytes.size() - 1);
  const std::size_t to = std::min(bytes.size(), from + kMaxQuotedBytes);
  return (from > 0 ? "..." : "") + toHex(bytes.subspan(from, to - from)) + (to < bytes.size() ? "..." : "") + " (" +
         std::to_string(bytes.size()) + " bytes)";
}

std::string cappedText(std::string text, std::size_t limit) {
  if (text.size() <= limit) return text;
  text.resize(limit);
  return text + "...";
}

// Cuts fall between characters: type names may hold any.
std::pair<std::string, std::string> cappedPair(const std::string& a, const std::string& b, std::size_t limit) {
  if (a.size() <= limit && b.size() <= limit) return {a, b};
  const std::size_t shorter = std::min(a.size(), b.size());
  std::size_t prefix = 0;
  while (prefix < shorter && a[prefix] == b[prefix]) ++prefix;
  // From the start when the difference is in the first three quarters,
  // else from a quarter of the room before it: the first differing
  // character is in both windows (or ends one of them).
  const std::size_t start = utf8BoundaryBefore(a, prefix <= limit - limit / 4 ? 0 : prefix - limit / 4);
  const auto cut = [&](const std::string& t) {
    const std::size_t firstEnd = utf8BoundaryAfter(t, std::min(t.size(), prefix + 1));
    const std::size_t end = std::max(utf8BoundaryBefore(t, std::min(t.size(), start + limit)), firstEnd);
    return (start > 0 ? "..." : "") + t.substr(start, end - start) + (end < t.size() ? "..." : "");
  };
  return {cut(a), cut(b)};
}

std::string entries(std::uint64_t n) { return std::to_string(n) + (n == 1 ? " entry" : " entries"); }

std::string headerValue(std::uint32_t count) {
  return hex32(count) + " (" + entries(count & kEntryCountMask) + ((count & kSortedFlag) ? ", sorted)" : ", unsorted)");
}

}  // namespace gdmap::detail
