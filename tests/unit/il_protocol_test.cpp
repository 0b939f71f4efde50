// The two-call protocol (FORMAT.md §3.1) over a method table: return codes,
// *pcMap always the full count, truncation, and the table's own errors.
// tests/c/il_protocol_c_test.c checks the same through the C header as C.
#include <gdmap/reader/il_to_native_map.h>
#include <gdmap/reader/il_map_table.hpp>
#include <gdmap/schema/bounds_to_api.hpp>
#include <gdmap/schema/il_map.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

using gdmap::il::ApiEntry;
using gdmap::il::Bound;
using gdmap::il::Method;
using gdmap::il::MethodTable;
namespace source = gdmap::il::source;

namespace {

std::vector<Method> methods() {
  Method bounds;
  bounds.token = 0x06000001;
  bounds.codeSize = 40;
  bounds.bounds = {
      {0, gdmap::il::kProlog, source::kStackEmpty}, {4, 0x0, source::kStackEmpty},  {10, 0x5, 0},
      {12, 0x5, source::kCallInstruction},          {17, 0x9, source::kStackEmpty}, {30, gdmap::il::kEpilog, 0}};
  Method verbatim;
  verbatim.token = 0x06000002;
  verbatim.verbatimMap = true;
  verbatim.map = {{0x0, 8, 0}, {0x0, 0, 8}};  // any order, even end < start
  Method onlyCall;
  onlyCall.token = 0x06000003;
  onlyCall.codeSize = 4;
  onlyCall.bounds = {{0, 0x0, source::kCallInstruction}};
  return {bounds, verbatim, onlyCall};
}

MethodTable table() {
  auto built = gdmap::il::buildMethodTable(methods());
  REQUIRE_MESSAGE(built.ok(), built.error().message);
  return std::move(*built);
}

}  // namespace

TEST_CASE("il protocol: ask for the count, then for the entries") {
  const MethodTable t = table();
  std::uint32_t count = 99;
  CHECK(t.getILToNativeMapping(0x06000001, 0, &count, nullptr) == GDMAP_S_OK);
  CHECK(count == 5);
  std::vector<gdmap_il_to_native_map> map(count);
  count = 0;
  CHECK(t.getILToNativeMapping(0x06000001, 5, &count, map.data()) == GDMAP_S_OK);
  CHECK(count == 5);
  const auto expected = gdmap::il::boundsToApi(methods()[0].bounds, 40);
  for (std::size_t i = 0; i < map.size(); ++i)
    CHECK(ApiEntry{map[i].ilOffset, map[i].nativeStartOffset, map[i].nativeEndOffset} == expected[i]);
}

TEST_CASE("il protocol: a short buffer is filled and *pcMap is still the full count") {
  const MethodTable t = table();
  gdmap_il_to_native_map map[3] = {{7, 7, 7}, {7, 7, 7}, {7, 7, 7}};
  std::uint32_t count = 0;
  CHECK(t.getILToNativeMapping(0x06000001, 2, &count, map) == GDMAP_S_OK);
  CHECK(count == 5);  // > cMap: truncated
  CHECK(map[0].ilOffset == gdmap::il::kProlog);
  CHECK(map[1].ilOffset == 0x0);
  CHECK(map[2].ilOffset == 7);  // untouched past cMap
  // A bigger buffer than needed: only count entries are written.
  gdmap_il_to_native_map big[8] = {};
  big[5] = {1, 2, 3};
  CHECK(t.getILToNativeMapping(0x06000001, 8, &count, big) == GDMAP_S_OK);
  CHECK(count == 5);
  CHECK(big[5].ilOffset == 1);
}

TEST_CASE("il protocol: return codes E_INVALIDARG and E_FAIL") {
  const MethodTable t = table();
  gdmap_il_to_native_map map[1];
  std::uint32_t count = 42;
  CHECK(t.getILToNativeMapping(0x06000001, 1, nullptr, map) == GDMAP_E_INVALIDARG);
  CHECK(t.getILToNativeMapping(0x06000001, 1, &count, nullptr) == GDMAP_E_INVALIDARG);
  CHECK(count == 42);
  CHECK(t.getILToNativeMapping(0x06000099, 0, &count, nullptr) == GDMAP_E_FAIL);
  CHECK(count == 42);  // untouched, as the runtime leaves it
  // cMap 0 with null pointers is a valid (if useless) question.
  CHECK(t.getILToNativeMapping(0x06000001, 0, nullptr, nullptr) == GDMAP_S_OK);
  CHECK(GDMAP_E_INVALIDARG == static_cast<gdmap_hresult>(0x80070057u));
  CHECK(GDMAP_E_FAIL == static_cast<gdmap_hresult>(0x80004005u));
  CHECK(gdmap_get_il_to_native_mapping(nullptr, 0x06000001, 0, &count, nullptr) == GDMAP_E_INVALIDARG);
}

TEST_CASE("il protocol: verbatim maps and empty arrays") {
  const MethodTable t = table();
  std::uint32_t count = 0;
  gdmap_il_to_native_map map[2];
  CHECK(t.getILToNativeMapping(0x06000002, 2, &count, map) == GDMAP_S_OK);
  CHECK(count == 2);
  CHECK(map[0].nativeStartOffset == 8);
  CHECK(map[0].nativeEndOffset == 0);
  // A known method whose only bound is a call_instruction: S_OK, count 0.
  count = 9;
  CHECK(t.getILToNativeMapping(0x06000003, 2, &count, map) == GDMAP_S_OK);
  CHECK(count == 0);
}

TEST_CASE("il table: duplicate tokens, missing code size, raw methods, descending bounds") {
  std::vector<Method> twice = methods();
  twice.push_back(twice[1]);
  const auto duplicate = gdmap::il::buildMethodTable(twice);
  REQUIRE_FALSE(duplicate.ok());
  CHECK(duplicate.error().rule == "il-duplicate-token");
  CHECK(duplicate.error().index == 3);
  CHECK(duplicate.error().path == "methods[3]");
  CHECK(duplicate.error().message.find("0x06000002") != std::string::npos);

  std::vector<Method> noSize = methods();
  noSize[0].codeSize.reset();
  const auto missing = gdmap::il::buildMethodTable(noSize);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().rule == "il-code-size-required");

  std::vector<Method> raw = methods();
  raw[1].verbatimMap = false;
  raw[1].map.clear();
  raw[1].layout.emplace();
  raw[1].layout->raw = gdmap::Bytes{0xFF};
  const auto verbatim = gdmap::il::buildMethodTable(raw);
  REQUIRE_FALSE(verbatim.ok());
  CHECK(verbatim.error().rule == "il-raw-method");
  CHECK(verbatim.error().index == 1);

  std::vector<Method> descending = methods();
  std::swap(descending[0].bounds[1], descending[0].bounds[2]);
  const auto order = gdmap::il::buildMethodTable(descending);
  REQUIRE_FALSE(order.ok());
  CHECK(order.error().rule == "il-bounds-not-ascending");
  CHECK(order.error().message.find("bounds[2].native") != std::string::npos);
}

TEST_CASE("il table: the C entry points build and query a table") {
  gdmap_il_map_table* t = gdmap_il_map_table_create();
  REQUIRE(t != nullptr);
  const gdmap_il_bound bounds[] = {{0, 0, 0}, {6, 2, 0}};
  CHECK(gdmap_il_map_table_add_bounds(t, 0x06000001, 9, bounds, 2) == GDMAP_S_OK);
  CHECK(gdmap_il_map_table_add_bounds(t, 0x06000001, 9, bounds, 2) == GDMAP_E_INVALIDARG);
  const gdmap_il_bound descending[] = {{6, 0, 0}, {0, 2, 0}};
  CHECK(gdmap_il_map_table_add_bounds(t, 0x06000005, 9, descending, 2) == GDMAP_E_INVALIDARG);
  CHECK(gdmap_il_map_table_add_bounds(t, 0x06000006, 9, nullptr, 1) == GDMAP_E_INVALIDARG);
  const gdmap_il_to_native_map entries[] = {{3, 0, 4}};
  CHECK(gdmap_il_map_table_add_map(t, 0x06000002, entries, 1) == GDMAP_S_OK);
  CHECK(t->size() == 2);
  std::uint32_t count = 0;
  gdmap_il_to_native_map out[2];
  CHECK(gdmap_get_il_to_native_mapping(t, 0x06000001, 2, &count, out) == GDMAP_S_OK);
  CHECK(count == 2);
  CHECK(out[1].ilOffset == 2);
  CHECK(out[1].nativeStartOffset == 6);
  CHECK(out[1].nativeEndOffset == 9);
  gdmap_il_map_table_destroy(t);
}
