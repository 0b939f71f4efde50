#pragma once
// Byte containers shared by every layer: owned bytes and read-only views.
#include <cstdint>
#include <span>
#include <vector>

namespace gdmap {

using Bytes = std::vector<std::uint8_t>;
using ByteSpan = std::span<const std::uint8_t>;
using MutableByteSpan = std::span<std::uint8_t>;  // a caller's buffer to fill

}  // namespace gdmap
