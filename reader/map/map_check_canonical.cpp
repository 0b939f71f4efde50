// checkCanonical(): whether a valid map is byte for byte what the builder
// writes for its content (FORMAT.md §1, "The canonical layout"). Most of the
// canonical rules are the absence of a checkMap() warning, so this reuses
// the checker's single pass and adds the one rule only the directory order
// can tell: items in order of first reference.
//
// Rule ids: invalid-map (checkMap() rejects it; nothing else is judged),
//   canonical-non-minimal-integer, canonical-overlap,
//   canonical-duplicate-item, canonical-gap, canonical-item-order.
// Sortedness never breaks canonical form by itself: with bit 31 set a valid
// map is sorted, and with it clear the builder keeps the input order.
#include <gdmap/reader/map_check.hpp>

#include <gdmap/reader/map_view.hpp>
#include <gdmap/schema/map_format.hpp>
#include <gdmap/schema/rules.hpp>
#include "map_check_analysis.hpp"

#include <algorithm>
#include <string>
#include <string_view>

namespace gdmap {
namespace {

struct RuleMapping {
  std::string_view warning;
  std::string_view canonical;
  std::string_view why;
};

constexpr RuleMapping kMappings[] = {
    {rules::kNonMinimalInteger, rules::kCanonicalNonMinimalInteger,
     "the builder writes every compressed integer in its shortest form"},
    {rules::kOverlappingItems, rules::kCanonicalOverlap, "the builder never lets items overlap"},
    {rules::kUnsharedDuplicateItems, rules::kCanonicalDuplicateItem, "the builder stores identical items once"},
    {rules::kUnreachableHeapBytes, rules::kCanonicalGap, "the builder leaves no gap or padding in the heap"},
};

Diagnostic reason(const Diagnostic& finding, const RuleMapping& m) {
  Diagnostic d = finding;
  d.severity = Severity::Warning;
  d.rule = std::string(m.canonical);
  d.message = finding.message + "; " + std::string(m.why);
  return d;
}

// Items must appear in the heap in the order the directory first references
// them, each starting where the previous one ends. Meaningful only when the
// items tile the heap (no gap, no overlap): then that order is heap order,
// and the analysis noted the first entry that breaks it.
void checkItemOrder(const detail::MapAnalysis& a, std::vector<Diagnostic>& reasons) {
  const std::uint32_t i = a.firstUnorderedEntry;
  if (i == detail::kNoEntry) return;
  const std::uint32_t offset = a.items[a.unorderedItem].heapOffset;
  const std::uint32_t next = a.items[a.expectedItem].heapOffset;
  Diagnostic d;
  d.severity = Severity::Warning;
  d.rule = rules::kCanonicalItemOrder;
  d.path = directoryOffsetPath(i);
  d.offset = static_cast<std::size_t>(directoryOffsetOffset(i));
  d.message = "directory[" + std::to_string(i) + "] is the first to reference " + heapPath(offset) +
              ", but the builder would place the next new item at " + heapPath(next) +
              " (items in order of first reference from the directory)";
  reasons.push_back(std::move(d));
}

}  // namespace

namespace detail {

CanonicalReport judgeCanonical(const MapAnalysis& a, const CheckReport& report) {
  CanonicalReport result;
  if (report.errors > 0) {
    // The first error (lowest offset) explains why nothing else is judged.
    const Diagnostic* first = nullptr;
    for (const Diagnostic& d : a.firstOfRule) {
      if (d.severity == Severity::Error && (first == nullptr || d.offset < first->offset)) first = &d;
    }
    Diagnostic d;
    if (first != nullptr) d = *first;
    d.rule = rules::kInvalidMap;
    d.message = "the map is not valid (" + std::to_string(report.errors) +
                " error(s); the first: " + (first != nullptr ? first->message : std::string("?")) + ")";
    result.reasons.push_back(std::move(d));
    return result;
  }

  bool tiled = true;
  for (const Diagnostic& finding : a.firstOfRule) {
    for (const RuleMapping& m : kMappings) {
      if (finding.rule != m.warning) continue;
      result.reasons.push_back(reason(finding, m));
      if (m.canonical == rules::kCanonicalOverlap || m.canonical == rules::kCanonicalGap) tiled = false;
    }
  }
  if (tiled) checkItemOrder(a, result.reasons);
  std::stable_sort(result.reasons.begin(), result.reasons.end(),
                   [](const Diagnostic& x, const Diagnostic& y) { return x.offset < y.offset; });
  result.canonical = result.reasons.empty();
  return result;
}

}  // namespace detail

CanonicalReport checkCanonical(ByteSpan map) {
  CheckReport report;
  CheckOptions options;
  options.maxDiagnostics = 0;  // only the first finding of each rule is needed
  const detail::MapAnalysis a = detail::analyzeMap(map, options, report, true);
  return detail::judgeCanonical(a, report);
}

}  // namespace gdmap
