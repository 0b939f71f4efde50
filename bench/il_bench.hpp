#pragma once
// The IL-to-native phases of gdmap_bench: each compressed form encoded,
// opened and decoded, checked for canonical bytes; bounds -> API and the API
// bytes; the JSON description written and parsed, against two floors on the
// same text: nlohmann::json::parse (a DOM) and nlohmann's SAX parser into a
// handler that keeps nothing. Every phase checks its result (a
// wrong answer is a failure, not a number).
#include <gdmap/schema/il_map.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gdmap::bench {

struct IlPhase {
  std::string name;
  double seconds = 0;
  std::size_t bytes = 0;  // what the phase reads or writes: blob, API array or JSON text
};

// One entry per phase in a fixed order, each the fastest of `repeat` runs
// (short phases are noisy on a shared machine); nullopt (after a message on
// stderr) when a phase gives a wrong result.
std::optional<std::vector<IlPhase>> runIlPhases(const std::vector<il::Method>& methods, unsigned repeat);

}  // namespace gdmap::bench
