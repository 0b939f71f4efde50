// Seeded mutation test: valid maps (by hand and from MapBuilder) with bytes
// flipped, inserted, deleted and truncated. checkMap() must never crash or
// hang, and every map it accepts must dump, rebuild into a valid map, and —
// when checkCanonical() says so — rebuild byte for byte.
#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/map_dump.hpp>
#include <gdmap/reader/map_view.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/writer/map_builder.hpp>

#include "tests/support/map_bytes.hpp"

#include "tests/support/type_pool.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using gdmap::Bytes;
using gdmap::test::MapBytes;

namespace {

// Plain modulo, no std distributions: the same cases on every standard library.
using gdmap::testing::below;
using gdmap::testing::typePool;

// Well-formed type encodings to build maps from: every element type form,
// including the ones the reader warns about.

Bytes randomItemTypes(std::mt19937_64& rng, std::uint32_t& count) {
  count = 1 + static_cast<std::uint32_t>(below(rng, 3));
  Bytes types;
  for (std::uint32_t k = 0; k < count; ++k) {
    const Bytes& t = typePool()[below(rng, typePool().size())];
    types.insert(types.end(), t.begin(), t.end());
  }
  return types;
}

// Valid maps written by MapBuilder: canonical by construction.
Bytes builtMap(std::mt19937_64& rng) {
  const bool sorted = below(rng, 3) != 0;
  gdmap::MapBuilder builder(sorted);
  const std::size_t n = below(rng, 9);
  // A few distinct instantiations, reused so items get shared.
  std::vector<std::pair<std::uint32_t, Bytes>> instantiations(1 + below(rng, 4));
  for (auto& [count, types] : instantiations) types = randomItemTypes(rng, count);
  std::vector<std::uint32_t> rvas;
  for (std::size_t i = 0; i < n; ++i) rvas.push_back(0x1000 + 0x10 * static_cast<std::uint32_t>(i));
  for (std::size_t i = rvas.size(); i > 1; --i) std::swap(rvas[i - 1], rvas[below(rng, i)]);
  for (const std::uint32_t rva : rvas) {
    const auto& [count, types] = instantiations[below(rng, instantiations.size())];
    REQUIRE(builder.addEncoded(rva, count, types).ok());
  }
  auto bytes = builder.finish();
  REQUIRE(bytes.ok());
  return std::move(bytes).value();
}

// Valid but not necessarily canonical maps, by hand: shared, duplicated and
// out-of-order items, gaps, non-minimal integers.
Bytes handMap(std::mt19937_64& rng) {
  MapBytes m(below(rng, 2) == 0);
  const std::size_t items = 1 + below(rng, 4);
  std::vector<std::uint32_t> offsets;
  for (std::size_t i = 0; i < items; ++i) {
    if (below(rng, 5) == 0) m.heap({0xAB});  // an unreachable byte
    std::uint32_t count = 0;
    const Bytes types = randomItemTypes(rng, count);
    offsets.push_back(static_cast<std::uint32_t>(m.heapSize()));
    if (below(rng, 4) == 0) {
      // Non-minimal 2-byte length prefix.
      const std::size_t length = types.size() + 1;
      m.heap({0x80, static_cast<std::uint8_t>(length), static_cast<std::uint8_t>(count)});
    } else {
      m.heap({static_cast<std::uint8_t>(types.size() + 1), static_cast<std::uint8_t>(count)});
    }
    m.heap(types);
  }
  const std::size_t n = 1 + below(rng, 6);
  for (std::size_t i = 0; i < n; ++i) {
    m.entry(0x2000 + 0x20 * static_cast<std::uint32_t>(i), offsets[below(rng, offsets.size())]);
  }
  return m.bytes();
}

struct Tally {
  std::size_t cases = 0;
  std::size_t accepted = 0;
  std::size_t canonical = 0;
};

// What must hold for any input. Only structural invariants here; the
// dump/rebuild round trip is in its own test case below.
void checkInvariants(const Bytes& map, Tally& tally) {
  ++tally.cases;
  gdmap::CheckOptions options;
  options.maxDiagnostics = 8;
  const gdmap::CheckReport report = gdmap::checkMap(map, options);
  REQUIRE(report.diagnostics.size() <= 8);
  CHECK(report.valid == (report.errors == 0));
  CHECK(report.errors + report.warnings >= report.diagnostics.size());
  for (const gdmap::Diagnostic& d : report.diagnostics) {
    CHECK_FALSE(d.rule.empty());
    CHECK_FALSE(d.path.empty());
    CHECK(d.offset <= map.size());
  }
  const gdmap::CanonicalReport canonical = gdmap::checkCanonical(map);
  CHECK(canonical.canonical == canonical.reasons.empty());
  if (!report.valid) {
    CHECK_FALSE(canonical.canonical);
    return;
  }
  ++tally.accepted;
  if (canonical.canonical) ++tally.canonical;
  // A map check accepts is fully readable through the view.
  const auto view = gdmap::MapView::open(map);
  REQUIRE(view.ok());
  for (std::uint32_t i = 0; i < view->size(); ++i) {
    const auto item = view->item(view->entry(i).offset);
    REQUIRE(item.ok());
    REQUIRE(gdmap::decodeItemTypes(*item).ok());
    // Valid: sorted or not, the RVAs are distinct and find() has earned
    // its answer.
    const auto found = view->find(view->entry(i).rva);
    REQUIRE(found.ok());
    REQUIRE(*found == std::optional<std::uint32_t>(i));
  }
}

template <typename MakeMap>
void runMutations(std::uint64_t seed, std::size_t bases, std::size_t perBase, MakeMap make, Tally& tally,
                  void (*each)(const Bytes&, Tally&)) {
  std::mt19937_64 rng(seed);
  for (std::size_t b = 0; b < bases; ++b) {
    const Bytes base = make(rng);
    each(base, tally);
    for (std::size_t k = 0; k < perBase; ++k) {
      Bytes map = base;
      gdmap::testing::mutateBytes(rng, map);
      each(map, tally);
    }
  }
}

// The round trip through the description: dump, rebuild, re-check.
void checkRoundTrip(const Bytes& map, Tally& tally) {
  ++tally.cases;
  const gdmap::CheckReport report = gdmap::checkMap(map);
  if (!report.valid) return;
  ++tally.accepted;
  const auto dumped = gdmap::describeMap(map);
  INFO("map ", gdmap::toHex(map));
  REQUIRE_MESSAGE(dumped.ok(), dumped.error().message);
  const auto rebuilt = gdmap::buildMap(dumped->description);
  REQUIRE_MESSAGE(rebuilt.ok(), rebuilt.error().message);
  CHECK(gdmap::checkMap(*rebuilt).valid);
  CHECK(gdmap::checkCanonical(*rebuilt).canonical);
  const bool canonical = gdmap::checkCanonical(map).canonical;
  if (canonical) {
    ++tally.canonical;
    CHECK(*rebuilt == map);
    CHECK(dumped->rebuildDifferences.empty());
  } else {
    CHECK(*rebuilt != map);
  }
}

}  // namespace

TEST_CASE("mutation: the base maps are valid, and the built ones canonical") {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 200; ++i) {
    const Bytes built = builtMap(rng);
    CHECK(gdmap::checkMap(built).valid);
    CHECK(gdmap::checkCanonical(built).canonical);
    CHECK(gdmap::checkMap(handMap(rng)).valid);
  }
}

TEST_CASE("mutation: check never crashes or hangs on mutated maps") {
  Tally tally;
  runMutations(0x9d2c5680u, 100, 100, builtMap, tally, checkInvariants);
  runMutations(0x5eedu, 100, 100, handMap, tally, checkInvariants);
  MESSAGE("cases ", tally.cases, ", accepted ", tally.accepted, ", canonical ", tally.canonical);
  CHECK(tally.cases > 20000);
  // The mutations must leave enough valid maps for the test to mean something.
  CHECK(tally.accepted > tally.cases / 20);
  CHECK(tally.canonical > 0);
}

TEST_CASE("mutation: every accepted mutated map dumps and rebuilds") {
  Tally tally;
  runMutations(0xc0ffeeu, 60, 100, builtMap, tally, checkRoundTrip);
  runMutations(0xbeefu, 60, 100, handMap, tally, checkRoundTrip);
  MESSAGE("cases ", tally.cases, ", accepted ", tally.accepted, ", canonical ", tally.canonical);
  CHECK(tally.accepted > tally.cases / 20);
  CHECK(tally.canonical > 0);
}
