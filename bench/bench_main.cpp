// gdmap_bench: one line per phase with its time and throughput, then the
// process's peak resident set size. Dictionary phases (build, add+finish,
// check, describe, lookup) on N dictionaries over M instantiations; IL
// phases (il_bench.hpp) on IM methods of K bounds each, the fastest of R
// runs (default 3); with --il-linearity again at 2K bounds a method, and
// the time ratio of each phase (about 2 when the phase is linear).
//   gdmap_bench [--only dictionary|il] [--seed S] [--dictionaries N] [--instantiations M]
//               [--il-methods IM] [--il-bounds-per-method K] [--il-repeat R] [--il-linearity]
#include "bench_clock.hpp"
#include "bench_workload.hpp"
#include "il_bench.hpp"
#include "il_workload.hpp"

#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/map_dump.hpp>
#include <gdmap/reader/map_view.hpp>
#include <gdmap/writer/map_builder.hpp>

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace {

using gdmap::bench::Clock;
using gdmap::bench::secondsSince;

struct Options {
  bool dictionaryPhases = true;
  bool ilPhases = true;
  bool ilLinearity = false;
  std::uint64_t seed = 1;
  std::size_t dictionaries = 1000000;
  std::size_t instantiations = 50000;
  std::size_t ilMethods = 1000;  // x 1000 bounds: 10^6 bounds
  std::size_t ilBoundsPerMethod = 1000;
  unsigned ilRepeat = 3;
};

int usage() {
  std::fprintf(stderr,
               "usage: gdmap_bench [--only dictionary|il] [--seed S] [--dictionaries N] [--instantiations M]\n"
               "                   [--il-methods IM] [--il-bounds-per-method K] [--il-repeat R] [--il-linearity]\n");
  return 2;
}

std::optional<Options> parseOptions(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--il-linearity") {
      o.ilLinearity = true;
      continue;
    }
    if (i + 1 >= argc) return std::nullopt;
    const std::string value = argv[++i];
    if (arg == "--only") {
      if (value != "dictionary" && value != "il") return std::nullopt;
      o.dictionaryPhases = value == "dictionary";
      o.ilPhases = value == "il";
      continue;
    }
    char* end = nullptr;
    const unsigned long long number = std::strtoull(value.c_str(), &end, 0);
    if (value.empty() || *end != '\0') return std::nullopt;
    if (arg == "--dictionaries") o.dictionaries = number;
    else if (arg == "--instantiations") o.instantiations = number;
    else if (arg == "--seed") o.seed = number;
    else if (arg == "--il-methods") o.ilMethods = number;
    else if (arg == "--il-bounds-per-method") o.ilBoundsPerMethod = number;
    else if (arg == "--il-repeat") o.ilRepeat = static_cast<unsigned>(number);
    else return std::nullopt;
  }
  if (o.ilBoundsPerMethod < 2 || o.ilMethods == 0) return std::nullopt;
  return o;
}

void report(const char* phase, double seconds, std::size_t dictionaries, std::size_t bytes) {
  gdmap::bench::report(phase, seconds, dictionaries, "dictionaries", bytes);
}

int dictionaryBench(std::size_t dictionaries, std::size_t instantiations, std::uint64_t seed) {
  auto start = Clock::now();
  const gdmap::MapDescription description = gdmap::bench::makeWorkload(dictionaries, instantiations, seed);
  std::printf("workload   %zu dictionaries over %zu instantiations, seed %llu (%.3f s to generate)\n", dictionaries,
              description.instantiations.size(), static_cast<unsigned long long>(seed), secondsSince(start));

  start = Clock::now();
  gdmap::Expected<gdmap::Bytes> map = gdmap::buildMap(description);
  const double buildSeconds = secondsSince(start);
  if (!map) {
    std::fprintf(stderr, "build failed: %s\n", map.error().message.c_str());
    return 1;
  }
  report("build", buildSeconds, dictionaries, map->size());

  // The library path a compiler would take: add() per dictionary, encoding
  // its types every time.
  start = Clock::now();
  gdmap::MapBuilder builder;
  builder.reserve(dictionaries, 0);
  for (const gdmap::DictionaryDescription& d : description.dictionaries) {
    if (!builder.add(d.rva, description.instantiations[d.instantiation].types)) return 1;
  }
  gdmap::Expected<gdmap::Bytes> added = builder.finish();
  const double addSeconds = secondsSince(start);
  if (!added || *added != *map) {
    std::fprintf(stderr, "MapBuilder::add gave other bytes than buildMap\n");
    return 1;
  }
  report("add+finish", addSeconds, dictionaries, map->size());

  start = Clock::now();
  const gdmap::CheckReport check = gdmap::checkMap(*map);
  const double checkSeconds = secondsSince(start);
  if (!check.valid) {
    std::fprintf(stderr, "checkMap rejected the map\n");
    return 1;
  }
  report("check", checkSeconds, dictionaries, map->size());

  start = Clock::now();
  gdmap::Expected<gdmap::DumpResult> dump = gdmap::describeMap(*map);
  const double describeSeconds = secondsSince(start);
  if (!dump || !dump->rebuildDifferences.empty()) {
    std::fprintf(stderr, "describeMap failed or found the map non-canonical\n");
    return 1;
  }
  report("describe", describeSeconds, dictionaries, map->size());

  // lookup: the first find() verifies the directory's order once (O(n)),
  // then every RVA by bisection.
  start = Clock::now();
  gdmap::Expected<gdmap::MapView> view = gdmap::MapView::open(*map);
  std::size_t found = 0;
  if (view) {
    for (const gdmap::DictionaryDescription& d : description.dictionaries) {
      const auto index = view->find(d.rva);
      if (index && index->has_value()) ++found;
    }
  }
  const double lookupSeconds = secondsSince(start);
  if (found != dictionaries) {
    std::fprintf(stderr, "find() missed %zu of the map's RVAs\n", dictionaries - found);
    return 1;
  }
  report("lookup", lookupSeconds, dictionaries, map->size());

  std::printf("map        %zu bytes (%zu distinct items)\n", map->size(), dump->description.instantiations.size());
  return 0;
}

std::optional<std::vector<gdmap::bench::IlPhase>> ilBench(std::size_t methods, std::size_t boundsPerMethod,
                                                          const Options& o) {
  auto start = Clock::now();
  const std::vector<gdmap::il::Method> workload = gdmap::bench::makeIlWorkload(methods, boundsPerMethod, o.seed);
  const std::size_t bounds = methods * boundsPerMethod;
  std::printf("IL workload  %zu methods x %zu bounds = %zu bounds, seed %llu (%.3f s to generate), best of %u\n",
              methods, boundsPerMethod, bounds, static_cast<unsigned long long>(o.seed), secondsSince(start),
              o.ilRepeat);
  std::optional<std::vector<gdmap::bench::IlPhase>> phases = gdmap::bench::runIlPhases(workload, o.ilRepeat);
  if (!phases) return std::nullopt;
  double parse = 0, floor = 0, saxFloor = 0;
  for (const gdmap::bench::IlPhase& p : *phases) {
    gdmap::bench::report(p.name.c_str(), p.seconds, bounds, "bounds", p.bytes);
    if (p.name == "desc-parse") parse = p.seconds;
    if (p.name == "desc-json-floor") floor = p.seconds;
    if (p.name == "desc-sax-floor") saxFloor = p.seconds;
  }
  if (floor > 0 && saxFloor > 0)
    std::printf("desc-parse / desc-json-floor: %.2fx   desc-parse / desc-sax-floor: %.2fx\n", parse / floor,
                parse / saxFloor);
  return phases;
}

// Each IL phase at K and at 2K bounds a method: a linear phase takes about
// twice as long (ratios far above 2 mean superlinear work).
bool ilLinearity(const Options& o) {
  const auto single = ilBench(o.ilMethods, o.ilBoundsPerMethod, o);
  if (!single) return false;
  const auto twice = ilBench(o.ilMethods, 2 * o.ilBoundsPerMethod, o);
  if (!twice) return false;
  std::printf("%-18s %11s %11s %7s\n", "phase", "t(n) s", "t(2n) s", "ratio");
  for (std::size_t i = 0; i < single->size() && i < twice->size(); ++i) {
    const double a = (*single)[i].seconds, b = (*twice)[i].seconds;
    std::printf("%-18s %11.4f %11.4f %7.2f\n", (*single)[i].name.c_str(), a, b, a > 0 ? b / a : 0.0);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) return usage() - 2;
  const std::optional<Options> options = parseOptions(argc, argv);
  if (!options) return usage();

  if (options->dictionaryPhases) {
    if (const int status = dictionaryBench(options->dictionaries, options->instantiations, options->seed); status != 0)
      return status;
  }
  if (options->ilPhases) {
    const bool ok = options->ilLinearity
                        ? ilLinearity(*options)
                        : ilBench(options->ilMethods, options->ilBoundsPerMethod, *options).has_value();
    if (!ok) return 1;
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("peak RSS   %.1f MB\n", static_cast<double>(usage.ru_maxrss) / 1024.0);
  return 0;
}
