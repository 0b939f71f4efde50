// Fuzz target: dump of anything, exactly (issue #10). The input is any
// bytes, read as a map.
//
// Invariants (each aborts when broken):
// - the description `gdmap dump` writes (dumpDescription() for a valid
//   canonical map, dumpExactDescription() otherwise) always exists, and
//   buildMapFromDescription() turns it into exactly the input's bytes,
//   without an error;
// - a valid canonical map's dump has no override ("offset", "layout").
#include "fuzz_check.hpp"

#include <gdmap/description/description_json.hpp>
#include <gdmap/reader/map_check.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gdmap;
  const ByteSpan map = fuzz::asBytes(data, size);
  CanonicalReport canonical;
  const CheckReport checked = checkMap(map, {}, canonical);
  const bool plain = checked.valid && canonical.reasons.empty();
  const Expected<std::string> text = plain ? dumpDescription(map) : dumpExactDescription(map);
  FUZZ_CHECK(text.ok(), "dump fails: " + fuzz::describeError(text.error()));
  if (plain)
    FUZZ_CHECK(text->find("\"offset\"") == std::string::npos && text->find("\"layout\"") == std::string::npos,
               "a canonical map dumps with overrides");
  const DescriptionBuild built = buildMapFromDescription(*text);
  std::string why;
  for (const Diagnostic& d : built.diagnostics)
    if (d.severity == Severity::Error) why += d.rule + " " + d.path + ": " + d.message + "; ";
  FUZZ_CHECK(built.errorCount == 0 && built.map, "the dump does not build: " + why + "\n" + text->substr(0, 2000));
  FUZZ_CHECK(ByteSpan(*built.map).size() == map.size() && std::equal(built.map->begin(), built.map->end(), map.begin()),
             "the dump builds other bytes: " + fuzz::hexOf(*built.map) + " for " + fuzz::hexOf(map));
  return 0;
}
