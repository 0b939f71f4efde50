// dumpDescription(): the text writeDescription(describeMap(map).description)
// gives, written straight from the map. No MapDescription and no Type tree
// outlives the item it is printed from, so memory is the text plus a few
// words per directory entry, and the map is analysed by the caller's one
// check, not again here.
#include <gdmap/description/description_json.hpp>

#include "collected_text.hpp"

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

// An item as describeMap() states it: its types as ILAsm text, or (should
// they not decode) its bytes verbatim.
void appendItem(const MapView& view, std::uint32_t heapOffset, std::string& out, const TypeNames* names) {
  Expected<ItemView> item = view.item(heapOffset);
  Expected<std::vector<Type>> types = item ? decodeItemTypes(*item) : Expected<std::vector<Type>>(item.error());
  if (!types) {
    out += "\"raw\": \"";
    if (item) appendHex(item->bytes, out);
    out += '"';
    return;
  }
  out += "\"types\": [";
  std::string text;
  for (std::size_t i = 0; i < types->size(); ++i) {
    if (i != 0) out += ", ";
    text.clear();
    formatType((*types)[i], text, names);
    appendJsonString(text, out);
  }
  out += ']';
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
  const std::vector<std::uint32_t>& distinct = reached.offsets;

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
  out += "{\n  \"sorted\": ";
  out += view.sorted() ? "true" : "false";
  // Shared items become named instantiations, named from their bytes in
  // heap order as describeMap() names them (instantiation_names.hpp); a
  // shared item whose types do not decode is written inline, as `raw`,
  // like writeDescription() does with a raw instantiation.
  InstantiationNamer namer;
  std::vector<std::string> label(distinct.size());
  bool anyListed = false;
  std::vector<bool> listed(distinct.size(), false);
  std::string item;
  for (std::size_t k = 0; k < distinct.size(); ++k) {
    if (!reached.shared(k)) continue;
    Expected<ItemView> shared = view.item(distinct[k]);
    if (shared) label[k] = namer.next(shared->bytes);
    item.clear();
    appendItem(view, distinct[k], item, names);
    if (item.starts_with("\"raw\"")) continue;
    listed[k] = true;
    out += anyListed ? ",\n    " : ",\n  \"instantiations\": {\n    ";
    anyListed = true;
    out += '"';
    out += label[k];
    out += "\": ";
    out.append(item, std::string_view("\"types\": ").size());
    if (Status s = flushIfFull(); !s) return s;
  }
  if (anyListed) out += "\n  }";
  out += ",\n  \"dictionaries\": [";
  for (std::uint32_t i = 0; i < n; ++i) {
    const DirectoryEntry e = view.entry(i);
    out += i == 0 ? "\n    {\"rva\": \"" : ",\n    {\"rva\": \"";
    appendHex32(e.rva, out);
    out += "\", ";
    const std::size_t k = reached.indexOf(e.offset);
    if (listed[k]) {
      out += "\"instantiation\": \"";
      out += label[k];
      out += '"';
    } else {
      appendItem(view, e.offset, out, names);
    }
    out += '}';
    if (Status s = flushIfFull(); !s) return s;
  }
  out += n == 0 ? "]\n}\n" : "\n  ]\n}\n";
  return emit(out);
}

}  // namespace gdmap
