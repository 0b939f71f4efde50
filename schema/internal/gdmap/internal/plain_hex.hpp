#pragma once
// The fast case of parseHex() (gdmap/schema/hex.hpp), for a caller that can
// fall back to it: a `{"hex"}` type of a description a compiler wrote is
// an even run of digits, decoded here without parseHex()'s white-space and
// error bookkeeping.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/hex.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gdmap::detail {

// When `text` is nothing but an even number of hex digits, its bytes are
// appended to `out` and the result is true; otherwise `out` is left as it
// was and the result is false (parseHex() says why).
inline bool appendPlainHex(std::string_view text, Bytes& out) {
  if (text.size() % 2 != 0) return false;
  const std::size_t start = out.size();
  out.resize(start + text.size() / 2);
  std::uint8_t* to = out.data() + start;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const int high = hexDigitValue(text[i]);
    const int low = hexDigitValue(text[i + 1]);
    if ((high | low) < 0) {
      out.resize(start);
      return false;
    }
    *to++ = static_cast<std::uint8_t>(high << 4 | low);
  }
  return true;
}

}  // namespace gdmap::detail
