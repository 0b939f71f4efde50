// The IL-to-native map model and the bounds -> API conversion (FORMAT.md
// §3.2): the worked example, and edge cases whose expected arrays were
// worked by hand from the runtime's rules (comments show the steps).
#include <gdmap/schema/bounds_to_api.hpp>
#include <gdmap/schema/il_map.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

using gdmap::il::ApiEntry;
using gdmap::il::Bound;
using gdmap::il::boundsToApi;
using gdmap::il::kEpilog;
using gdmap::il::kNoMapping;
using gdmap::il::kProlog;
namespace source = gdmap::il::source;

namespace {

constexpr std::uint32_t kSE = source::kStackEmpty;
constexpr std::uint32_t kCI = source::kCallInstruction;

}  // namespace

TEST_CASE("il model: special offsets, flag values and names") {
  CHECK(kNoMapping == 0xFFFFFFFFu);
  CHECK(kProlog == 0xFFFFFFFEu);
  CHECK(kEpilog == 0xFFFFFFFDu);
  CHECK(source::kSequencePoint == 0x01);
  CHECK(source::kStackEmpty == 0x02);
  CHECK(source::kCallSite == 0x04);
  CHECK(source::kNativeEndOffsetUnknown == 0x08);
  CHECK(source::kCallInstruction == 0x10);
  CHECK(source::kAsync == 0x20);
  CHECK(sizeof(ApiEntry) == 12);

  CHECK(gdmap::il::specialIlName(kProlog) == "prolog");
  CHECK(gdmap::il::specialIlName(5).empty());
  CHECK(gdmap::il::parseSpecialIl("no_mapping") == kNoMapping);
  CHECK_FALSE(gdmap::il::parseSpecialIl("Prolog").has_value());
  CHECK(gdmap::il::ilText(kEpilog) == "epilog");
  CHECK(gdmap::il::ilText(0x1c) == "0x1c");
  CHECK(gdmap::il::parseSourceFlag("native_end_offset_unknown") == source::kNativeEndOffsetUnknown);
  CHECK(gdmap::il::parseSourceFlag("async") == source::kAsync);
  CHECK_FALSE(gdmap::il::parseSourceFlag("bogus").has_value());
  CHECK(gdmap::il::sourceText(0) == "none");
  CHECK(gdmap::il::sourceText(kSE | kCI | 0x40) == "stack_empty|call_instruction|0x40");
  for (const char* name : {"api", "nibble", "packed2", "packed3"})
    CHECK(gdmap::il::formName(*gdmap::il::parseFormName(name)) == name);
  CHECK_FALSE(gdmap::il::parseFormName("packed4").has_value());
}

TEST_CASE("il model: bounds order allows equal native offsets") {
  const std::vector<Bound> ok = {{0, 1, 0}, {0, 2, 0}, {4, 3, 0}};
  CHECK_FALSE(gdmap::il::firstDescendingBound(ok).has_value());
  const std::vector<Bound> bad = {{0, 1, 0}, {4, 2, 0}, {3, 3, 0}};
  CHECK(gdmap::il::firstDescendingBound(bad) == 2u);
}

TEST_CASE("bounds to api: the FORMAT.md worked example") {
  const std::vector<Bound> bounds = {{0, kProlog, kSE}, {4, 0x0, kSE},  {10, 0x5, 0},
                                     {12, 0x5, kCI},    {17, 0x9, kSE}, {30, kEpilog, 0}};
  const std::vector<ApiEntry> expected = {
      {kProlog, 0, 4}, {0x0, 4, 10}, {0x5, 10, 17}, {0x9, 17, 30}, {kEpilog, 30, 40}};
  CHECK(boundsToApi(bounds, 40) == expected);
}

TEST_CASE("bounds to api: no bounds, one bound, one call_instruction bound") {
  CHECK(boundsToApi({}, 10).empty());
  const std::vector<Bound> one = {{0, 0, 0}};
  CHECK(boundsToApi(one, 10) == std::vector<ApiEntry>{{0, 0, 10}});
  // The only entry is a call_instruction one: trimmed, an empty array.
  const std::vector<Bound> call = {{0, 0, kCI}};
  CHECK(boundsToApi(call, 10).empty());
}

TEST_CASE("bounds to api: call_instruction entry at the start") {
  // kept: CI 0@0, 0@5 (no merge: nothing before the CI), 3@9.
  // ends: CI ends at 5, 0@5 at 9, 3@9 at codeSize. CI sorts last, trimmed.
  const std::vector<Bound> bounds = {{0, 0x0, kCI}, {5, 0x0, kSE}, {9, 0x3, 0}};
  CHECK(boundsToApi(bounds, 20) == std::vector<ApiEntry>{{0x0, 5, 9}, {0x3, 9, 20}});
}

TEST_CASE("bounds to api: call_instruction entry at the end") {
  // 2@4 ends where the last entry starts (8) even though it is a CI entry.
  const std::vector<Bound> bounds = {{0, 0x0, 0}, {4, 0x2, 0}, {8, 0x2, kCI}};
  CHECK(boundsToApi(bounds, 12) == std::vector<ApiEntry>{{0x0, 0, 4}, {0x2, 4, 8}});
}

TEST_CASE("bounds to api: consecutive call_instruction entries block the merge") {
  // (9, 1) looks back past one CI only: the entry before it is a CI too, so
  // it is kept although 1@0 has the same IL offset. Ends skip both CIs.
  const std::vector<Bound> bounds = {{0, 0x1, kSE}, {3, 0x1, kCI}, {6, 0x2, kCI}, {9, 0x1, 0}, {12, 0x4, 0}};
  CHECK(boundsToApi(bounds, 15) == std::vector<ApiEntry>{{0x1, 0, 9}, {0x1, 9, 12}, {0x4, 12, 15}});
}

TEST_CASE("bounds to api: a merge across one call_instruction entry") {
  // (5, 2) merges into 2@0 through the CI; 2@0 then ends at the CI's start,
  // the last kept entry (the runtime's forward search stops there).
  const std::vector<Bound> bounds = {{0, 0x2, 0}, {3, 0x2, kCI}, {5, 0x2, 0}};
  CHECK(boundsToApi(bounds, 9) == std::vector<ApiEntry>{{0x2, 0, 3}});
  // Directly repeated IL offsets merge too, whatever their other flags.
  const std::vector<Bound> repeated = {{0, 0x2, 0}, {3, 0x2, kSE}, {6, 0x3, 0}};
  CHECK(boundsToApi(repeated, 9) == std::vector<ApiEntry>{{0x2, 0, 6}, {0x3, 6, 9}});
}

TEST_CASE("bounds to api: equal native offsets give zero-length rows, kept") {
  const std::vector<Bound> bounds = {{0, kProlog, 0}, {0, 0x0, kSE}, {6, 0x3, 0}, {6, kEpilog, 0}};
  CHECK(boundsToApi(bounds, 8) == std::vector<ApiEntry>{{kProlog, 0, 0}, {0x0, 0, 6}, {0x3, 6, 6}, {kEpilog, 6, 8}});
}

TEST_CASE("bounds to api: an all-special method sorts PROLOG, EPILOG, NO_MAPPING") {
  const std::vector<Bound> bounds = {{0, kProlog, 0}, {5, kNoMapping, 0}, {9, kEpilog, 0}, {11, kNoMapping, 0}};
  CHECK(boundsToApi(bounds, 14) ==
        std::vector<ApiEntry>{{kProlog, 0, 5}, {kEpilog, 9, 11}, {kNoMapping, 5, 9}, {kNoMapping, 11, 14}});
}

TEST_CASE("bounds to api: several PROLOGs (funclets) lead the array") {
  const std::vector<Bound> bounds = {{0, kProlog, 0},  {4, 0x0, 0},  {10, kEpilog, 0},
                                     {12, kProlog, 0}, {15, 0x7, 0}, {20, kEpilog, 0}};
  CHECK(boundsToApi(bounds, 22) ==
        std::vector<ApiEntry>{
            {kProlog, 0, 4}, {kProlog, 12, 15}, {0x0, 4, 10}, {0x7, 15, 20}, {kEpilog, 10, 12}, {kEpilog, 20, 22}});
}

TEST_CASE("bounds to api: native_end_offset_unknown ends at codeSize") {
  const std::vector<Bound> bounds = {{0, 0x0, source::kNativeEndOffsetUnknown}, {4, 0x1, 0}};
  CHECK(boundsToApi(bounds, 10) == std::vector<ApiEntry>{{0x0, 0, 10}, {0x1, 4, 10}});
}

TEST_CASE("bounds to api: IL offsets out of native order sort by IL, then start") {
  const std::vector<Bound> bounds = {{0, 0x5, 0}, {3, 0x1, 0}, {6, 0x5, 0}};
  CHECK(boundsToApi(bounds, 9) == std::vector<ApiEntry>{{0x1, 3, 6}, {0x5, 0, 3}, {0x5, 6, 9}});
}

TEST_CASE("bounds to api: a PROLOG with call_instruction sorts with the PROLOGs") {
  // MapSortIL tests PROLOG before call_instruction; not trailing, so kept.
  const std::vector<Bound> bounds = {{0, kProlog, kCI}, {2, 0x0, 0}};
  CHECK(boundsToApi(bounds, 6) == std::vector<ApiEntry>{{kProlog, 0, 2}, {0x0, 2, 6}});
}

TEST_CASE("bounds to api: full ties keep the bounds' order (deterministic)") {
  // 4@0, 7@0, 4@0: the two IL-4 rows tie on group, IL and start; the sort is
  // stable, so the first (ending at 0) stays before the last (ending at
  // codeSize).
  const std::vector<Bound> bounds = {{0, 0x4, 0}, {0, 0x7, 0}, {0, 0x4, 0}};
  CHECK(boundsToApi(bounds, 5) == std::vector<ApiEntry>{{0x4, 0, 0}, {0x4, 0, 5}, {0x7, 0, 0}});
}

TEST_CASE("bounds to api: a million bounds convert") {
  std::vector<Bound> bounds;
  bounds.reserve(1000000);
  for (std::uint32_t i = 0; i < 1000000; ++i)
    bounds.push_back(Bound{i * 4, (i * 7919u) % 50000u, (i % 5 == 0) ? kCI : kSE});
  const std::vector<ApiEntry> api = boundsToApi(bounds, 4000000);
  REQUIRE_FALSE(api.empty());
  CHECK(api.size() <= bounds.size());
  const auto byIl = [](const ApiEntry& a, const ApiEntry& b) { return a.ilOffset < b.ilOffset; };
  CHECK(std::is_sorted(api.begin(), api.end(), byIl));
}
