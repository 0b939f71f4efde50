// checkMap(): every rule of FORMAT.md §1. The work is linear in the map plus
// sorting the directory's offsets: each distinct item is decoded once, however
// many entries share it; overlaps and unreachable bytes come from one sweep
// over the items in heap order; duplicates from hashing well-formed items.
//
// Rule ids (Diagnostic::rule, constants in rules.hpp), errors:
//   stream-too-short, directory-truncated, rva-not-ascending, duplicate-rva,
//   offset-outside-heap, invalid-compressed-int, item-length-outside-heap,
//   zero-type-count, type-count-exceeds-item, item-length-mismatch, and for
//   a bad type the type decoder's rule (invalid-type when it names none)
// warnings (errors with CheckOptions::strict):
//   unreachable-heap-bytes, overlapping-items, non-minimal-integer,
//   unusable-generic-argument, unshared-duplicate-items
#include <gdmap/reader/map_check.hpp>

#include <gdmap/internal/huge_pages.hpp>
#include <gdmap/reader/map_view.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/map_format.hpp>
#include <gdmap/schema/rules.hpp>
#include "item_starts.hpp"
#include "map_check_analysis.hpp"
#include "map_check_item.hpp"
#include "map_check_sink.hpp"
#include "map_check_types.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace gdmap::detail {
namespace {

std::size_t entryOffset(std::uint32_t index) { return static_cast<std::size_t>(directoryEntryOffset(index)); }

// For an unsorted map: each entry whose RVA an earlier entry already has,
// paired with that earlier entry, in directory order. (A sorted map's
// ascending check already catches a repeated RVA.)
std::vector<std::pair<std::uint32_t, std::uint32_t>> repeatedRvas(const MapView& view) {
  std::vector<std::uint64_t> byRva(view.size());
  for (std::uint32_t i = 0; i < view.size(); ++i) byRva[i] = std::uint64_t{view.entry(i).rva} << 32 | i;
  std::sort(byRva.begin(), byRva.end());
  std::vector<std::pair<std::uint32_t, std::uint32_t>> repeats;
  for (std::size_t i = 1, runStart = 0; i < byRva.size(); ++i) {
    if (byRva[i] >> 32 != byRva[runStart] >> 32) {
      runStart = i;
      continue;
    }
    repeats.emplace_back(static_cast<std::uint32_t>(byRva[i]), static_cast<std::uint32_t>(byRva[runStart]));
  }
  std::sort(repeats.begin(), repeats.end());
  return repeats;
}

// The general numbering, for a directory that meets a new item out of heap
// order: every marked offset is an item, in heap order; the entries again,
// in order, give each item's first reference and the first entry that
// breaks the canonical item order. `items` is refilled (its memory kept).
void numberItems(const MapView& view, ItemStarts& starts, MapAnalysis& a, HugePageVector<CheckedItem>& items) {
  const std::size_t heapSize = view.heap().size();
  items.clear();
  items.reserve(starts.count());
  starts.number([&](std::uint32_t offset) {
    CheckedItem item;
    item.heapOffset = offset;
    item.firstEntry = kNoEntry;
    items.push_back(item);
  });
  // A bit per item says whether it has been met: most entries of a large
  // map share an earlier item, and the bits stay in cache where the items
  // would not.
  std::vector<std::uint64_t> met((items.size() + 63) / 64);
  std::uint32_t newItems = 0;
  for (std::uint32_t i = 0; i < view.size(); ++i) {
    const std::uint32_t offset = view.entry(i).offset;
    if (offset >= heapSize) continue;
    const std::uint32_t index = starts.rank(offset);
    const std::uint64_t bit = std::uint64_t{1} << (index % 64);
    if ((met[index / 64] & bit) != 0) continue;
    met[index / 64] |= bit;
    items[index].firstEntry = i;
    if (a.firstUnorderedEntry == kNoEntry && index != newItems) {
      a.firstUnorderedEntry = i;
      a.unorderedItem = index;
      a.expectedItem = newItems;
    }
    ++newItems;
  }
}

// Header and directory: the entries' own fields. Returns the distinct
// in-heap offsets, in heap order, each with its first referencing entry,
// and notes the first entry that references a new item out of heap order
// (what the canonical layout's item order needs).
HugePageVector<CheckedItem> checkDirectory(const MapView& view, DiagnosticSink& sink, MapAnalysis& a) {
  const std::size_t heapSize = view.heap().size();
  std::vector<std::pair<std::uint32_t, std::uint32_t>> repeats;
  if (!view.sorted()) repeats = repeatedRvas(view);
  auto nextRepeat = repeats.begin();

  // Items are collected in the same pass while every new item lies above
  // all earlier ones (the canonical layout: heap order is the order of
  // first reference). The first item met out of that order makes the
  // general numbering below necessary.
  ItemStarts starts(heapSize);
  HugePageVector<CheckedItem> items;
  // An item takes at least 3 bytes (length, count, one type). Reserving
  // only claims address space; pages are touched as items are added.
  items.reserve(std::min<std::size_t>(view.size(), heapSize / 3 + 1));
  bool inHeapOrder = true;
  std::uint32_t previousRva = 0;
  for (std::uint32_t i = 0; i < view.size(); ++i) {
    const DirectoryEntry e = view.entry(i);
    if (view.sorted() && i > 0 && e.rva <= previousRva) {
      sink.add(
          Severity::Error, rules::kRvaNotAscending, entryOffset(i), [&] { return directoryRvaPath(i); },
          [&] {
            return "RVA " + hex32(e.rva) + " is not above directory[" + std::to_string(i - 1) + "]'s " +
                   hex32(previousRva) + ", yet the header's bit 31 says the directory is sorted";
          });
    }
    previousRva = e.rva;
    if (nextRepeat != repeats.end() && nextRepeat->first == i) {
      const std::uint32_t first = nextRepeat->second;
      sink.add(
          Severity::Error, rules::kDuplicateRva, entryOffset(i), [&] { return directoryRvaPath(i); },
          [&] { return "RVA " + hex32(e.rva) + " is already directory[" + std::to_string(first) + "]'s"; });
      ++nextRepeat;
    }
    if (e.offset >= heapSize) {
      sink.add(
          Severity::Error, rules::kOffsetOutsideHeap, entryOffset(i) + 4, [&] { return directoryOffsetPath(i); },
          [&] {
            return "heap offset " + shortHex(e.offset) + " is outside the heap of " + std::to_string(heapSize) +
                   " bytes";
          });
    } else if (!starts.mark(e.offset) && inHeapOrder) {
      if (items.empty() || e.offset > items.back().heapOffset) {
        items.push_back(CheckedItem{e.offset, i});
      } else {
        inHeapOrder = false;
      }
    }
  }
  if (!inHeapOrder) numberItems(view, starts, a, items);
  return items;
}

void reportNonMinimal(DiagnosticSink& sink, std::size_t at, std::uint32_t heapOffset, const char* field,
                      const DecodedUInt& v) {
  if (v.minimal) return;
  sink.add(
      Severity::Warning, rules::kNonMinimalInteger, at, [&] { return heapPath(heapOffset) + "." + field; },
      [&] {
        return std::string("the item's ") + (field[0] == 'l' ? "length " : "type count ") + std::to_string(v.value) +
               " takes " + std::to_string(v.length) + " bytes; a shorter form holds it";
      });
}

// The item's length prefix, type count and types. Returns the absolute end
// of the item when its length is usable, else 0.
std::size_t checkItem(ByteSpan map, std::size_t heapStart, CheckedItem& item, std::size_t& retryBudget,
                      DiagnosticSink& sink) {
  const ItemHeader h = readItemHeader(map, heapStart, item.heapOffset);
  const std::uint32_t off = item.heapOffset;
  const auto lengthPath = [&] { return itemLengthPath(off); };
  const auto countPath = [&] { return itemCountPath(off); };
  switch (h.problem) {
    case ItemProblem::OffsetOutsideHeap:  // checkDirectory() kept only in-heap offsets
      return 0;
    case ItemProblem::InvalidLength:
      sink.add(Severity::Error, rules::kInvalidCompressedInt, h.start, lengthPath,
               [&] { return "the item's length prefix: " + std::string(describe(h.intError)); });
      return 0;
    case ItemProblem::LengthOutsideHeap:
      sink.add(Severity::Error, rules::kItemLengthOutsideHeap, h.start, lengthPath, [&] {
        return "the item's length " + std::to_string(h.length.value) + " runs " +
               std::to_string(h.countStart + h.length.value - map.size()) + " byte(s) past the heap's end";
      });
      reportNonMinimal(sink, h.start, off, "length", h.length);
      return 0;
    case ItemProblem::InvalidCount:
      reportNonMinimal(sink, h.start, off, "length", h.length);
      sink.add(Severity::Error, rules::kInvalidCompressedInt, h.countStart, countPath, [&] {
        if (h.intError == CompressedIntError::Empty) {
          return std::string("the item's length is 0: no room for its type count");
        }
        return "the item's type count: " + std::string(describe(h.intError)) + " (within the item's " +
               std::to_string(h.length.value) + " bytes)";
      });
      return h.end;
    case ItemProblem::None: break;
  }
  reportNonMinimal(sink, h.start, off, "length", h.length);
  reportNonMinimal(sink, h.countStart, off, "count", h.count);
  if (h.count.value == 0) {
    sink.add(Severity::Error, rules::kZeroTypeCount, h.countStart, countPath,
             [] { return std::string("the item's type count is 0; a dictionary has at least one type"); });
    return h.end;
  }
  // Every type takes at least one byte.
  if (h.count.value > h.end - h.typesStart) {
    sink.add(Severity::Error, rules::kTypeCountExceedsItem, h.countStart, countPath, [&] {
      return "the item's type count " + std::to_string(h.count.value) + " exceeds the " +
             std::to_string(h.end - h.typesStart) + " byte(s) left in the item";
    });
    return h.end;
  }
  item.wellFormed = checkItemTypes(map, h, off, retryBudget, sink);
  return h.end;
}

void reportGap(DiagnosticSink& sink, std::size_t heapStart, std::size_t from, std::size_t to) {
  sink.add(
      Severity::Warning, rules::kUnreachableHeapBytes, heapStart + from, [&] { return heapPath(from); },
      [&] {
        return "heap bytes " + shortHex(from) + ".." + shortHex(to - 1) + " (" + std::to_string(to - from) +
               " byte(s)) belong to no item any entry references";
      });
}

// Every item in heap order: its own checks, then where it sits relative to
// the items before it (gaps and overlaps found in one sweep).
void checkItems(ByteSpan map, MapAnalysis& a, DiagnosticSink& sink) {
  const std::size_t heapSize = map.size() - a.heapStart;
  std::size_t covered = 0;         // heap-relative end of the union of the items so far
  std::size_t furthestEnd = 0;     // the furthest end of an item with a known extent...
  std::uint32_t furthestItem = 0;  // ...and that item's offset
  // Bytes re-read past item ends to classify errors; see checkItemTypes().
  std::size_t retryBudget = 2 * heapSize + 4096;
  for (CheckedItem& item : a.items) {
    if (item.heapOffset > covered) reportGap(sink, a.heapStart, covered, item.heapOffset);
    const std::size_t budgetBefore = retryBudget;
    item.end = checkItem(map, a.heapStart, item, retryBudget, sink);
    ++a.itemsDecoded;
    a.itemBytesRead += budgetBefore - retryBudget;
    if (item.end != 0) a.itemBytesRead += item.end - (a.heapStart + item.heapOffset);
    // An item whose length cannot be read is taken to reach the heap's end:
    // no gap is claimed where its bytes might be.
    const std::size_t end = item.end != 0 ? item.end - a.heapStart : heapSize;
    if (item.end != 0) {
      if (item.heapOffset < furthestEnd) {
        const std::uint32_t other = furthestItem;
        const std::size_t otherEnd = furthestEnd;
        sink.add(
            Severity::Warning, rules::kOverlappingItems, a.heapStart + item.heapOffset,
            [&] { return heapPath(item.heapOffset); },
            [&] {
              return "this item (heap " + shortHex(item.heapOffset) + ".." + shortHex(end - 1) +
                     ") overlaps the item at " + heapPath(other) + " (which ends at " + shortHex(otherEnd - 1) + ")";
            });
      }
      if (end > furthestEnd) {
        furthestEnd = end;
        furthestItem = item.heapOffset;
      }
    }
    covered = std::max(covered, end);
  }
  if (covered < heapSize) reportGap(sink, a.heapStart, covered, heapSize);
}

// Well-formed items at different offsets with the same bytes: the canonical
// layout stores such an item once and lets the entries share it. Hashing
// only well-formed items keeps the cost within what decoding them cost.
void checkDuplicates(ByteSpan map, const MapAnalysis& a, DiagnosticSink& sink) {
  HugePageVector<ByteSpan> contents;
  std::vector<std::uint32_t> itemOf;  // contents[k] is a.items[itemOf[k]]
  contents.reserve(a.items.size());
  itemOf.reserve(a.items.size());
  for (std::uint32_t i = 0; i < a.items.size(); ++i) {
    if (!a.items[i].wellFormed) continue;
    const std::size_t start = a.heapStart + a.items[i].heapOffset;
    contents.push_back(map.subspan(start, a.items[i].end - start));
    itemOf.push_back(i);
  }
  // Sorted by content index, so by item, so in heap order.
  for (const auto& [mine, theirs] : findDuplicateItems(contents)) {
    const CheckedItem& item = a.items[itemOf[mine]];
    const CheckedItem& other = a.items[itemOf[theirs]];
    sink.add(
        Severity::Warning, rules::kUnsharedDuplicateItems, a.heapStart + item.heapOffset,
        [&] { return heapPath(item.heapOffset); },
        [&] {
          return "this item (directory[" + std::to_string(item.firstEntry) + "]'s) has the same " +
                 std::to_string(item.end - a.heapStart - item.heapOffset) + " bytes as the item at " +
                 heapPath(other.heapOffset) + " (directory[" + std::to_string(other.firstEntry) +
                 "]'s); one copy could be shared";
        });
  }
}

}  // namespace

MapAnalysis analyzeMap(ByteSpan map, const CheckOptions& options, CheckReport& report, bool wantFirstOfRule) {
  MapAnalysis a;
  DiagnosticSink sink(report, options, wantFirstOfRule ? &a.firstOfRule : nullptr);
  if (map.size() < kHeaderSize) {
    sink.add(
        Severity::Error, rules::kStreamTooShort, 0, [] { return std::string(kHeaderCountPath); },
        [&] { return "the map holds " + std::to_string(map.size()) + " byte(s); the header alone needs 4"; });
  } else if (const Expected<MapView> view = MapView::open(map); !view) {
    const std::uint32_t count = readU32(map, 0) & kEntryCountMask;
    sink.add(
        Severity::Error, rules::kDirectoryTruncated, 0, [] { return std::string(kHeaderCountPath); },
        [&] {
          const std::uint64_t need = heapStartFor(count);
          return "the header claims " + std::to_string(count) + " entries, whose directory needs " +
                 std::to_string(need) + " bytes, but the map holds only " + std::to_string(map.size());
        });
  } else {
    a.directoryRead = true;
    a.sorted = view->sorted();
    a.count = view->size();
    a.heapStart = view->heapStart();
    a.items = checkDirectory(*view, sink, a);
    checkItems(map, a, sink);
    checkDuplicates(map, a, sink);
  }
  // The directory comes before the heap and items are visited in heap order,
  // so this mostly keeps the order; it interleaves the duplicate findings.
  std::stable_sort(report.diagnostics.begin(), report.diagnostics.end(),
                   [](const Diagnostic& x, const Diagnostic& y) { return x.offset < y.offset; });
  report.valid = report.errors == 0;
  return a;
}

}  // namespace gdmap::detail

namespace gdmap {

CheckReport checkMap(ByteSpan map, const CheckOptions& options) {
  CheckReport report;
  (void)detail::analyzeMap(map, options, report, false);
  return report;
}

CheckReport checkMap(ByteSpan map, const CheckOptions& options, CanonicalReport& canonical) {
  CheckReport report;
  const detail::MapAnalysis a = detail::analyzeMap(map, options, report, true);
  canonical = report.errors == 0 ? detail::judgeCanonical(a, report) : CanonicalReport{};
  return report;
}

}  // namespace gdmap
