#pragma once
// Byte containers shared by every layer: owned bytes and read-only views.
#include <cstdint>
#include <span>
#include <vector>

namespace gdmap {

using Bytes = std::vector<std::uint8_t>;
using ByteSpan = std::span<const std::uint8_t>;

}  // namespace gdmap
