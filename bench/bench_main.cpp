// gdmap_bench: one line per phase (build, add+finish, check, describe,
// lookup) with its time and throughput, then the process's peak resident
// set size.
//   gdmap_bench [--dictionaries N] [--instantiations M] [--seed S]
#include "bench_workload.hpp"

#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/map_dump.hpp>
#include <gdmap/reader/map_view.hpp>
#include <gdmap/writer/map_builder.hpp>

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

void report(const char* phase, double seconds, std::size_t dictionaries, std::size_t bytes) {
  std::printf("%-10s %9.3f s  %12.0f dictionaries/s  %9.1f MB/s\n", phase, seconds,
              static_cast<double>(dictionaries) / seconds, static_cast<double>(bytes) / 1e6 / seconds);
}

int usage() {
  std::fprintf(stderr, "usage: gdmap_bench [--dictionaries N] [--instantiations M] [--seed S]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t dictionaries = 1000000;
  std::size_t instantiations = 50000;
  std::uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") return usage() - 2;
    if (i + 1 >= argc) return usage();
    char* end = nullptr;
    const unsigned long long value = std::strtoull(argv[++i], &end, 0);
    if (end == argv[i] || *end != '\0') return usage();
    if (arg == "--dictionaries") dictionaries = value;
    else if (arg == "--instantiations") instantiations = value;
    else if (arg == "--seed") seed = value;
    else return usage();
  }

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
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("peak RSS   %.1f MB\n", static_cast<double>(usage.ru_maxrss) / 1024.0);
  return 0;
}
