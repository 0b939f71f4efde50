#pragma once
// How the compressed bounds forms store a field (FORMAT.md §3.3), shared
// by the canonical encoder and the exact one (bounds_layout.cpp).
#include <bit>
#include <cstdint>

namespace gdmap::il {

// (ilOffset + 3) mod 2^32: EPILOG 0, PROLOG 1, NO_MAPPING 2, IL 0 -> 3.
inline std::uint32_t storedIl(std::uint32_t ilOffset) { return ilOffset + 3; }

// The bits a packed field needs for `value` (at least 1).
inline unsigned bitLength(std::uint32_t value) {
  return value == 0 ? 1u : static_cast<unsigned>(std::bit_width(value));
}

}  // namespace gdmap::il
