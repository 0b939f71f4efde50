// Bounds -> API array, step by step as the runtime's debugger does it; each
// step is one linear pass except the sort.
#include <gdmap/schema/bounds_to_api.hpp>

#include <algorithm>

namespace gdmap::il {
namespace {

// An entry of the runtime's DebuggerILToNativeMap: the API fields plus the
// bound's source, which steps 2 to 4 still need.
struct Row {
  std::uint32_t ilOffset;
  std::uint32_t start;
  std::uint32_t end;
  std::uint32_t source;
};

bool isCall(std::uint32_t source) { return (source & source::kCallInstruction) != 0; }

// Step 1: SetBoundaries' merge of repeated IL offsets.
std::vector<Row> mergeBounds(std::span<const Bound> bounds) {
  std::vector<Row> kept;
  kept.reserve(bounds.size());
  for (const Bound& b : bounds) {
    if (!kept.empty() && !isCall(b.source)) {
      const Row* previous = &kept.back();
      if (isCall(previous->source)) previous = kept.size() > 1 ? &kept[kept.size() - 2] : nullptr;
      if (previous != nullptr && !isCall(previous->source) && previous->ilOffset == b.ilOffset) continue;
    }
    kept.push_back(Row{b.ilOffset, b.nativeOffset, 0, b.source});
  }
  return kept;
}

// Step 2. The runtime searches forward from each entry for the next one
// without call_instruction, stopping at the last entry; walking backwards
// and remembering that start gives the same ends in one pass.
void setEnds(std::vector<Row>& rows, std::uint32_t codeSize) {
  if (rows.empty()) return;
  const std::size_t last = rows.size() - 1;
  std::uint32_t nextStart = rows[last].start;
  for (std::size_t i = last; i-- > 0;) {
    if (!isCall(rows[i + 1].source)) nextStart = rows[i + 1].start;
    rows[i].end = nextStart;
  }
  rows[last].source |= source::kNativeEndOffsetUnknown;
  for (Row& row : rows)
    if ((row.source & source::kNativeEndOffsetUnknown) != 0) row.end = codeSize;
}

// Step 3's groups, in MapSortIL's order of tests.
int sortGroup(const Row& row) {
  if (row.ilOffset == kProlog) return 0;
  if (isCall(row.source)) return 4;
  if (row.ilOffset == kNoMapping) return 3;
  if (row.ilOffset == kEpilog) return 2;
  return 1;
}

bool sortsBefore(const Row& a, const Row& b) {
  const int ga = sortGroup(a);
  const int gb = sortGroup(b);
  if (ga != gb) return ga < gb;
  if (ga == 1 && a.ilOffset != b.ilOffset) return a.ilOffset < b.ilOffset;
  return a.start < b.start;
}

}  // namespace

std::vector<ApiEntry> boundsToApi(std::span<const Bound> bounds, std::uint32_t codeSize) {
  std::vector<Row> rows = mergeBounds(bounds);
  setEnds(rows, codeSize);
  std::stable_sort(rows.begin(), rows.end(), sortsBefore);
  while (!rows.empty() && isCall(rows.back().source)) rows.pop_back();

  std::vector<ApiEntry> entries;
  entries.reserve(rows.size());
  for (const Row& row : rows) entries.push_back(ApiEntry{row.ilOffset, row.start, row.end});
  return entries;
}

}  // namespace gdmap::il
