#pragma once
// The synthetic workload: N dictionaries at distinct RVAs over M distinct
// instantiations (generic instantiations of the shapes real code has:
// primitives, classes, arrays, nested generics), a few of them very popular.
// Only std::mt19937_64 and modulo: a seed gives the same workload anywhere.
#include <gdmap/schema/map_description.hpp>

#include <cstddef>
#include <cstdint>

namespace gdmap::bench {

MapDescription makeWorkload(std::size_t dictionaries, std::size_t instantiations, std::uint64_t seed);

}  // namespace gdmap::bench
