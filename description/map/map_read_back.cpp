#include "map_read_back.hpp"

#include <gdmap/internal/bytes_hash.hpp>
#include <gdmap/internal/huge_pages.hpp>
#include <gdmap/reader/map_view.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/map_format.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace gdmap::description {
namespace {

Error mismatch(std::size_t index, const std::string& what) {
  return Error(0, "dictionary " + std::to_string(index) + " (in file order): " + what, rules::kDescriptionMismatch);
}

// With overrides the map may not open (a count that lies, a truncation),
// so it is read word by word: each dictionary's directory entry where the
// directory order puts it, its explicit offset, and its item's bytes where
// that offset points, as far as the file goes.
Status readsBackExact(ByteSpan map, const MapBuilder& built) {
  const std::size_t n = built.size();
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  if (built.sorted())
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return built.rvaAt(a) < built.rvaAt(b); });
  const LayoutOverrides& layout = built.layout();
  const std::uint64_t expectedSize = layout.truncate.value_or(map.size());
  if (map.size() != expectedSize)
    return Error(0, "the map has " + std::to_string(map.size()) + " bytes, not " + std::to_string(expectedSize),
                 rules::kDescriptionMismatch);
  if (map.size() >= 4) {
    const std::uint32_t count =
        layout.count.value_or(static_cast<std::uint32_t>(n) | (built.sorted() ? kSortedFlag : 0));
    if (readU32(map, 0) != count)
      return Error(0, "the count word is " + hex32(readU32(map, 0)) + ", not " + hex32(count),
                   rules::kDescriptionMismatch);
  }
  const std::uint64_t heapStart = heapStartFor(n);
  for (std::size_t p = 0; p < n; ++p) {
    const std::size_t i = order[p];
    if (directoryOffsetOffset(p) + 4 > map.size()) break;  // truncated from here on
    const std::uint32_t rva = readU32(map, static_cast<std::size_t>(directoryRvaOffset(p)));
    const std::uint32_t offset = readU32(map, static_cast<std::size_t>(directoryOffsetOffset(p)));
    if (rva != built.rvaAt(i))
      return mismatch(i,
                      "directory[" + std::to_string(p) + "] has RVA " + hex32(rva) + ", not " + hex32(built.rvaAt(i)));
    if (const std::optional<std::uint32_t> given = built.offsetAt(i); given && *given != offset)
      return mismatch(i, "directory[" + std::to_string(p) + "] has offset " + hex32(offset) + ", not " + hex32(*given));
    const ByteSpan expected = built.itemAt(i);
    const std::uint64_t start = heapStart + offset;
    if (expected.empty() || start >= map.size()) continue;
    const std::size_t length = static_cast<std::size_t>(std::min<std::uint64_t>(expected.size(), map.size() - start));
    if (!std::ranges::equal(map.subspan(static_cast<std::size_t>(start), length), expected.first(length)))
      return mismatch(i, "the item at RVA " + hex32(rva) + " is not " + toHex(expected));
  }
  return Success{};
}

}  // namespace

Status readsBack(ByteSpan map, const MapBuilder& built) {
  if (built.hasOverrides()) return readsBackExact(map, built);
  Expected<MapView> view = MapView::open(map);
  if (!view) return view.error();
  const std::size_t n = built.size();
  if (view->size() != n)
    return Error(0, "the map has " + std::to_string(view->size()) + " dictionaries, not " + std::to_string(n),
                 rules::kDescriptionMismatch);
  // The directory is walked once, in order, with no search, beside the
  // entries as the layout ordered them (MapBuilder::directoryAt(): a
  // sorted map's are not sorted again). That order is checked to hold each
  // entry the builder was given exactly once: the sum of a mix of every
  // (RVA, item) pair is the same over both (a layout that lost, repeated
  // or changed an entry would have to hit a 64-bit coincidence).
  const std::span<const MapBuilder::Entry> entries = built.entries();
  const auto mixed = [](MapBuilder::Entry e) { return mixBits(std::uint64_t{e.rva} << 32 | e.item); };
  if (view->sorted()) {
    std::uint64_t given = 0, listed = 0;
    for (std::size_t i = 0; i < n; ++i) {
      given += mixed(entries[i]);
      listed += mixed(built.directoryAt(i));
    }
    if (given != listed)
      return Error(0, "the layout's directory order does not list each dictionary once", rules::kDescriptionMismatch);
  }
  // Which dictionary (in insertion order) a sorted position stands for:
  // searched only to name one in a mismatch (the RVAs are distinct).
  const auto dictionaryAt = [&](std::size_t p) {
    if (!view->sorted()) return p;
    const std::uint32_t rva = built.directoryAt(p).rva;
    std::size_t i = 0;
    while (i < n && entries[i].rva != rva) ++i;
    return i;
  };
  // Where each item was found whole: a dictionary whose entry points at
  // the same offset as an earlier one of its item needs no compare, so
  // each distinct item's bytes are compared once.
  constexpr std::uint32_t kNotFound = 0xFFFFFFFF;
  detail::HugePageVector<std::uint32_t> foundAt(built.itemCount(), kNotFound);
  const ByteSpan heap = view->heap();
  for (std::size_t p = 0; p < n; ++p) {
    const MapBuilder::Entry expected = built.directoryAt(p);
    const DirectoryEntry entry = view->entry(static_cast<std::uint32_t>(p));
    if (entry.rva != expected.rva)
      return mismatch(dictionaryAt(p), "directory[" + std::to_string(p) + "] has RVA " + hex32(entry.rva) + ", not " +
                                           hex32(expected.rva));
    if (foundAt[expected.item] == entry.offset) continue;
    // The bytes where the item starts, as many as were given: a raw item
    // may carry a length prefix that does not match its bytes on purpose.
    const ByteSpan bytes = built.itemBytes(expected.item);
    if (entry.offset > heap.size() || heap.size() - entry.offset < bytes.size())
      return mismatch(dictionaryAt(p), "the item at RVA " + hex32(entry.rva) + " runs past the heap");
    const ByteSpan found = heap.subspan(entry.offset, bytes.size());
    if (!std::ranges::equal(found, bytes))
      return mismatch(dictionaryAt(p),
                      "the item at RVA " + hex32(entry.rva) + " is " + toHex(found) + ", not " + toHex(bytes));
    if (foundAt[expected.item] == kNotFound) foundAt[expected.item] = entry.offset;
  }
  return Success{};
}

}  // namespace gdmap::description
