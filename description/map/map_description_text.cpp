// dumpDescription(): the text writeDescription(describeMap(map).description)
// gives, written straight from the map. No MapDescription and no Type tree
// outlives the item it is printed from, so memory is the text plus a few
// words per directory entry, and the map is analysed by the caller's one
// check, not again here.
#include <gdmap/description/description_json.hpp>

#include "collected_text.hpp"
#include "description_keys.hpp"
#include "description_text.hpp"

#include <gdmap/description/json_writer.hpp>
#include <gdmap/reader/map_dump.hpp>
#include <gdmap/reader/map_view.hpp>
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/instantiation_names.hpp>
#include <gdmap/schema/type_text.hpp>

#include <functional>
#include <vector>

namespace gdmap {
namespace {

namespace map_key = description::map_key;
using Layout = JsonWriter::Layout;

// An item's types, when it is read and they decode.
Expected<std::vector<Type>> itemTypes(const MapView& view, std::uint32_t heapOffset) {
  Expected<ItemView> item = view.item(heapOffset);
  return item ? decodeItemTypes(*item) : Expected<std::vector<Type>>(item.error());
}

// An item as describeMap() states it: its types as ILAsm text, or (should
// they not decode) its bytes verbatim.
void writeItem(JsonWriter& w, const MapView& view, std::uint32_t heapOffset, std::string& text,
               const TypeNames* names) {
  const Expected<std::vector<Type>> types = itemTypes(view, heapOffset);
  if (types) {
    w.key(map_key::kTypes);
    description::writeTypeList(w, *types, text, names);
    return;
  }
  w.key(map_key::kRaw);
  const Expected<ItemView> item = view.item(heapOffset);
  w.hexBytes(item ? item->bytes : ByteSpan());
}

// Shared items become named instantiations, named from their bytes in heap
// order as describeMap() names them (instantiation_names.hpp); a shared
// item whose types do not decode is written inline, as `raw`, like
// writeDescription() does with a raw instantiation. Returns which are
// listed, and their names in `label`.
template <class Flush>
Expected<std::vector<bool>> writeShared(JsonWriter& w, const MapView& view, const ReachedItems& reached,
                                        std::vector<std::string>& label, std::string& text, const TypeNames* names,
                                        const Flush& flushIfFull) {
  const std::vector<std::uint32_t>& distinct = reached.offsets;
  InstantiationNamer namer;
  std::vector<bool> listed(distinct.size(), false);
  bool anyListed = false;
  for (std::size_t k = 0; k < distinct.size(); ++k) {
    if (!reached.shared(k)) continue;
    Expected<ItemView> shared = view.item(distinct[k]);
    if (shared) label[k] = namer.next(shared->bytes);
    const Expected<std::vector<Type>> types = itemTypes(view, distinct[k]);
    if (!types) continue;
    listed[k] = true;
    if (!anyListed) {
      w.key(map_key::kInstantiations);
      w.beginObject();
      anyListed = true;
    }
    w.key(label[k]);
    description::writeTypeList(w, *types, text, names);
    if (Status s = flushIfFull(); !s) return s.error();
  }
  if (anyListed) w.endObject();
  return listed;
}

}  // namespace

Expected<std::string> dumpDescription(ByteSpan map) {
  return description::collectedText([&](const auto& emit) { return dumpDescription(map, emit); });
}

Status dumpDescription(ByteSpan map, const std::function<Status(std::string_view)>& emit, const TypeNames* names) {
  Expected<MapView> opened = MapView::open(map);
  if (!opened) return opened.error();
  const MapView& view = *opened;
  const std::uint32_t n = view.size();
  const ReachedItems reached = reachedItems(view);

  // The text goes out in pieces of about this size: memory stays a few
  // words per directory entry whatever the size of the text.
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::string out;
  out.reserve(kChunk + 4096);
  const auto flushIfFull = [&]() -> Status {
    if (out.size() < kChunk) return Success{};
    Status s = emit(out);
    out.clear();
    return s;
  };
  JsonWriter w(out);
  std::string text;
  description::beginDescription(w, view.sorted());
  std::vector<std::string> label(reached.offsets.size());
  const Expected<std::vector<bool>> listed = writeShared(w, view, reached, label, text, names, flushIfFull);
  if (!listed) return listed.error();
  description::beginDictionaries(w);
  for (std::uint32_t i = 0; i < n; ++i) {
    const DirectoryEntry e = view.entry(i);
    w.beginObject(Layout::Inline);
    w.key(map_key::kRva);
    w.hex32(e.rva);
    const std::size_t k = reached.indexOf(e.offset);
    if ((*listed)[k]) {
      w.key(map_key::kInstantiation);
      w.plainString(label[k]);
    } else {
      writeItem(w, view, e.offset, text, names);
    }
    w.endObject();
    if (Status s = flushIfFull(); !s) return s;
  }
  w.endArray();
  w.endObject();
  out += '\n';
  return emit(out);
}

}  // namespace gdmap
