// Dump of anything, exactly (issue #10): for any bytes, the description
// `gdmap dump` writes builds back into the identical bytes. Seeded: random
// byte strings, random mutations of valid maps, and hand-made edge cases.
// What `dump` chooses is mirrored here: dumpDescription() for a valid
// canonical map (no override keys), dumpExactDescription() otherwise.
#include <gdmap/description/description_json.hpp>
#include <gdmap/reader/map_check.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/writer/map_builder.hpp>

#include "tests/support/type_pool.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

using gdmap::Bytes;

namespace {

using gdmap::testing::below;
using gdmap::testing::typePool;

// The description `gdmap dump` writes for `map`.
std::string dumpAsCli(const Bytes& map) {
  gdmap::CanonicalReport canonical;
  const gdmap::CheckReport checked = gdmap::checkMap(map, {}, canonical);
  const bool plain = checked.valid && canonical.reasons.empty();
  gdmap::Expected<std::string> text = plain ? gdmap::dumpDescription(map) : gdmap::dumpExactDescription(map);
  REQUIRE(text.ok());
  return std::move(text).value();
}

// dump -> build gives `map` back; the failure shows the bytes and the text.
void requireRoundTrip(const Bytes& map) {
  const std::string text = dumpAsCli(map);
  const gdmap::DescriptionBuild built = gdmap::buildMapFromDescription(text);
  INFO("map: ", gdmap::toHex(map));
  INFO("dump:\n", text);
  for (const gdmap::Diagnostic& d : built.diagnostics) INFO(d.rule, ": ", d.path, ": ", d.message);
  REQUIRE(built.errorCount == 0);
  REQUIRE(built.map.has_value());
  REQUIRE(gdmap::toHex(*built.map) == gdmap::toHex(map));
}

Bytes validMap(std::mt19937_64& rng) {
  gdmap::MapBuilder builder(below(rng, 3) != 0);
  const std::size_t n = below(rng, 7);
  std::vector<std::pair<std::uint32_t, Bytes>> instantiations(1 + below(rng, 3));
  for (auto& [count, types] : instantiations) {
    count = 1 + static_cast<std::uint32_t>(below(rng, 3));
    for (std::uint32_t k = 0; k < count; ++k) {
      const Bytes& t = typePool()[below(rng, typePool().size())];
      types.insert(types.end(), t.begin(), t.end());
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    const auto& [count, types] = instantiations[below(rng, instantiations.size())];
    REQUIRE(builder
                .addEncoded(0x1000 + 0x10 * static_cast<std::uint32_t>(below(rng, 16)) + static_cast<std::uint32_t>(i),
                            count, types)
                .ok());
  }
  gdmap::Expected<Bytes> bytes = builder.finish();
  REQUIRE(bytes.ok());
  return std::move(bytes).value();
}

// The shared edits, and one more: a small directory offset, so that items
// overlap or point inside others.
void mutate(std::mt19937_64& rng, Bytes& map) {
  for (std::uint64_t e = 0, edits = 1 + below(rng, 3); e < edits; ++e) {
    if (below(rng, 6) == 0 && map.size() >= 12)
      map[8 + 8 * below(rng, (map.size() - 4) / 8)] = static_cast<std::uint8_t>(below(rng, 8));
    else gdmap::testing::editBytes(rng, map);
  }
}

}  // namespace

TEST_CASE("dump roundtrip: edge cases build back byte for byte") {
  for (const char* hex : {
           "",                                                            // empty file
           "01", "0000", "000000",                                        // a cut count word
           "00000080",                                                    // the empty canonical map
           "05000000",                                                    // a count with no directory
           "ffffffff 0100",                                               // a huge count, a cut directory
           "02000080 10000000 00000000",                                  // one whole entry of two
           "01000080 10000000 00000000 020108",                           // valid and canonical
           "01000080 10000000 00000000 03800108",                         // hmm: a length that runs past
           "01000080 10000000 00000000 8002 0108",                        // non-minimal length prefix
           "02000080 20000000 00000000 10000000 03000000 020108 02010e",  // unsorted, bit 31 set
           "02000080 10000000 00000000 10000000 00000000 020108",         // duplicate RVA, shared item
           "02000080 10000000 00000000 20000000 01000000 020108",         // an offset inside an item
           "01000080 10000000 ff000000 020108",                           // offset outside the heap
           "01000080 10000000 02000000 cccc 020108 dddd",                 // gap and trailing bytes
           "89504e470d0a1a0a0000000d49484452",                            // a foreign file (PNG)
           "7b22736f72746564223a20747275657d",                            // a JSON file
       }) {
    CAPTURE(hex);
    gdmap::Expected<Bytes> bytes = gdmap::parseHex(hex);
    REQUIRE(bytes.ok());
    requireRoundTrip(*bytes);
  }
}

TEST_CASE("dump roundtrip: a valid canonical map dumps without override keys") {
  const Bytes map = *gdmap::parseHex("02000080 10000000 00000000 20000000 03000000 020108 02010e");
  const std::string text = dumpAsCli(map);
  CHECK(text.find("\"offset\"") == std::string::npos);
  CHECK(text.find("\"layout\"") == std::string::npos);
  requireRoundTrip(map);
}

TEST_CASE("dump roundtrip: 3000 random byte strings") {
  std::mt19937_64 rng(20261123);
  for (int i = 0; i < 3000; ++i) {
    Bytes map(below(rng, 48));
    for (std::uint8_t& b : map) b = static_cast<std::uint8_t>(rng());
    // Small counts, so that the directory and heap get exercised too.
    if (map.size() >= 4 && below(rng, 4) != 0) {
      map[0] = static_cast<std::uint8_t>(below(rng, 5));
      map[1] = map[2] = 0;
      map[3] = below(rng, 2) ? 0x80 : 0x00;
    }
    requireRoundTrip(map);
  }
}

TEST_CASE("dump roundtrip: 4000 mutations of valid maps") {
  std::mt19937_64 rng(10);
  std::size_t invalid = 0;
  for (int i = 0; i < 4000; ++i) {
    Bytes map = validMap(rng);
    if (i % 8 != 0) mutate(rng, map);
    if (!gdmap::checkMap(map).valid) ++invalid;
    requireRoundTrip(map);
  }
  // The mutations reach invalid maps, not only valid ones.
  CHECK(invalid > 1000);
}
