#pragma once
// The status of an annotated range of an input (`gdmap hexdump`, `gdmap il
// hexdump`): the most severe finding located in it, else whether anything
// reaches it.
#include <cstdint>

namespace gdmap {

enum class RangeStatus : std::uint8_t { Ok, Unreachable, Warning, Error };

// "ok", "unreachable", "warning", "error".
const char* rangeStatusName(RangeStatus status);

}  // namespace gdmap
