#pragma once
// The synthetic IL-to-native workload: M methods of K bounds each, shaped
// like a code generator's output (FORMAT.md §3.2): a prolog at native 0,
// ascending native offsets in small steps, IL offsets mostly ascending with
// NO_MAPPING and call_instruction entries sprinkled in, an epilog near the
// end, codeSize a little past it. Only stack_empty and call_instruction
// flags, so every compressed form stores the same bounds. std::mt19937_64
// and modulo only: a seed gives the same workload anywhere.
#include <gdmap/schema/il_map.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gdmap::bench {

// Tokens 0x06000001 upwards; boundsPerMethod >= 2 (prolog and epilog).
std::vector<il::Method> makeIlWorkload(std::size_t methods, std::size_t boundsPerMethod, std::uint64_t seed);

}  // namespace gdmap::bench
