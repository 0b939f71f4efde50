#include "map_read_back.hpp"

#include <gdmap/reader/map_view.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <string>

namespace gdmap::description {
namespace {

Error mismatch(std::size_t index, const std::string& what) {
  return Error(0, "dictionary " + std::to_string(index) + " (in file order): " + what, rules::kDescriptionMismatch);
}

}  // namespace

Status readsBack(ByteSpan map, const MapBuilder& built) {
  Expected<MapView> view = MapView::open(map);
  if (!view) return view.error();
  if (view->size() != built.size())
    return Error(0,
                 "the map has " + std::to_string(view->size()) + " dictionaries, not " + std::to_string(built.size()),
                 rules::kDescriptionMismatch);
  // When the RVAs were added in ascending order (a sorted description), the
  // directory lists them in insertion order whatever the map's order, and
  // entry i is compared with directory[i]; otherwise a sorted map is
  // searched.
  bool ascending = true;
  for (std::size_t i = 1; ascending && i < built.size(); ++i) ascending = built.rvaAt(i - 1) < built.rvaAt(i);
  for (std::size_t i = 0; i < built.size(); ++i) {
    const std::uint32_t rva = built.rvaAt(i);
    std::uint32_t at = static_cast<std::uint32_t>(i);
    if (view->sorted() && !ascending) {
      Expected<std::optional<std::uint32_t>> found = view->find(rva);
      if (!found) return found.error();
      if (!*found) return mismatch(i, "RVA " + hex32(rva) + " is not in the map");
      at = **found;
    } else if (view->entry(at).rva != rva) {
      return mismatch(
          i, "directory[" + std::to_string(i) + "] has RVA " + hex32(view->entry(at).rva) + ", not " + hex32(rva));
    }
    // The bytes where the item starts, as many as were given: a raw item
    // may carry a length prefix that does not match its bytes on purpose.
    const ByteSpan expected = built.itemAt(i);
    const ByteSpan heap = view->heap();
    const std::uint32_t offset = view->entry(at).offset;
    if (offset > heap.size() || heap.size() - offset < expected.size())
      return mismatch(i, "the item at RVA " + hex32(rva) + " runs past the heap");
    const ByteSpan found = heap.subspan(offset, expected.size());
    if (!std::ranges::equal(found, expected))
      return mismatch(i, "the item at RVA " + hex32(rva) + " is " + toHex(found) + ", not " + toHex(expected));
  }
  return Success{};
}

}  // namespace gdmap::description
