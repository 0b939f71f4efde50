#include <gdmap/internal/plain_json_sax.hpp>

#include <algorithm>

namespace gdmap::internal {

bool isPlainJson(std::string_view text) {
  // In blocks, each a loop the compiler vectorises (no early exit inside),
  // so that a text that is not plain is told early and a plain one at
  // memory speed.
  constexpr std::size_t kBlock = 4096;
  for (std::size_t at = 0; at < text.size(); at += kBlock) {
    const std::size_t n = std::min(kBlock, text.size() - at);
    const auto* bytes = reinterpret_cast<const unsigned char*>(text.data() + at);
    // Byte-wide and branch-free (& rather than &&), which is what lets
    // the compiler vectorise it.
    unsigned char bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const unsigned char c = bytes[i];
      bad |=
          static_cast<unsigned char>((c >> 7) | (c == '\\') | ((c < 0x20) & (c != '\t') & (c != '\n') & (c != '\r')));
    }
    if (bad != 0) return false;
  }
  return true;
}

}  // namespace gdmap::internal
