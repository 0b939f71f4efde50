#pragma once
// "1 byte", "3 bytes": the one way gdmap's messages count things.
#include <cstdint>
#include <string>
#include <string_view>

namespace gdmap {

inline std::string plural(std::uint64_t n, std::string_view one, std::string_view many) {
  std::string out = std::to_string(n);
  out += ' ';
  out += n == 1 ? one : many;
  return out;
}

}  // namespace gdmap
