#pragma once
// The one hash gdmap's tables of bytes use (the writer's item store, the
// description's type cache). Seeded once per process: the mixing is
// invertible, so without a secret an input could be crafted whose keys all
// hash alike and turn every lookup into a scan of the table (quadratic).
// Nothing gdmap writes depends on the seed; only where keys sit in a table.
#include <gdmap/schema/bytes.hpp>

#include <cstdint>
#include <string_view>

namespace gdmap {

std::uint64_t hashBytes(ByteSpan bytes);
std::uint64_t hashBytes(std::string_view text);

// splitmix64's finaliser, unseeded: every input bit moves every output bit.
// The end of hashBytes(), and a word's mix where no table is at stake (a
// checksum that is the same whatever order it is summed in).
std::uint64_t mixBits(std::uint64_t x);

}  // namespace gdmap
