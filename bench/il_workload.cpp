#include "il_workload.hpp"

#include <random>

namespace gdmap::bench {
namespace {

// Native steps of real code: mostly a few bytes, sometimes none (two IL
// offsets at one address), now and then a long call sequence.
constexpr std::uint32_t kNativeSteps[] = {0, 1, 2, 3, 3, 4, 4, 5, 6, 7, 8, 10, 12, 17, 30};

}  // namespace

std::vector<il::Method> makeIlWorkload(std::size_t methods, std::size_t boundsPerMethod, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto below = [&rng](std::uint64_t n) { return static_cast<std::uint32_t>(rng() % n); };
  if (boundsPerMethod < 2) boundsPerMethod = 2;

  std::vector<il::Method> out(methods);
  for (std::size_t m = 0; m < methods; ++m) {
    il::Method& method = out[m];
    method.token = 0x06000001u + static_cast<std::uint32_t>(m);
    method.bounds.reserve(boundsPerMethod);
    method.bounds.push_back({0, il::kProlog, il::source::kStackEmpty});
    std::uint32_t native = 0;
    std::uint32_t il = 0;
    for (std::size_t i = 2; i < boundsPerMethod; ++i) {
      native += kNativeSteps[below(std::size(kNativeSteps))];
      const std::uint32_t kind = below(100);
      if (kind < 10) {  // the call itself, at the IL offset of the statement
        method.bounds.push_back({native, il, il::source::kCallInstruction});
      } else if (kind < 13) {
        method.bounds.push_back({native, il::kNoMapping, 0});
      } else {
        il += below(4) == 0 ? 0 : 1 + below(6);  // a backward jump's target is rare; equal offsets merge
        method.bounds.push_back({native, il, below(3) == 0 ? il::source::kStackEmpty : 0u});
      }
    }
    native += 1 + below(8);
    method.bounds.push_back({native, il::kEpilog, 0});
    method.codeSize = native + 1 + below(16);
  }
  return out;
}

}  // namespace gdmap::bench
