// writeDescription: the text is produced directly rather than through a
// JSON DOM, so that the key order is fixed by this code (not by a map's
// ordering) and a million dictionaries cost one string, one line each.
// It goes through the one JsonWriter (the --json reports' too), with the
// keys of description_keys.hpp, the reader's.
#include <gdmap/description/description_json.hpp>

#include "description_keys.hpp"
#include "description_text.hpp"

#include <gdmap/description/json_writer.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/type_text.hpp>

#include <unordered_set>

namespace gdmap {
namespace {

namespace map_key = description::map_key;
using Layout = JsonWriter::Layout;

// Which instantiations can be written under /instantiations and referenced
// by name: named ones with types (the format gives names to type lists
// only), each name once. The rest are written inline wherever used.
std::vector<bool> listedByName(const MapDescription& d) {
  std::vector<bool> listed(d.instantiations.size(), false);
  std::unordered_set<std::string_view> names;
  for (std::size_t i = 0; i < d.instantiations.size(); ++i) {
    const InstantiationDescription& inst = d.instantiations[i];
    if (inst.name.empty() || inst.raw) continue;
    listed[i] = names.insert(inst.name).second;
  }
  return listed;
}

void writeListed(JsonWriter& w, const MapDescription& description, const std::vector<bool>& listed, std::string& text) {
  bool anyListed = false;
  for (std::size_t i = 0; i < listed.size(); ++i) {
    if (!listed[i]) continue;
    if (!anyListed) {
      w.key(map_key::kInstantiations);
      w.beginObject();
      anyListed = true;
    }
    w.stringKey(description.instantiations[i].name);
    description::writeTypeList(w, description.instantiations[i].types, text);
  }
  if (anyListed) w.endObject();
}

// A dictionary's form. An index out of range is a caller's bug; writing no
// form makes the output fail to parse ("missing-field") rather than invent
// one.
void writeForm(JsonWriter& w, const MapDescription& description, const std::vector<bool>& listed,
               std::size_t instantiation, std::string& text) {
  if (instantiation >= description.instantiations.size()) return;
  const InstantiationDescription& inst = description.instantiations[instantiation];
  if (listed[instantiation]) {
    w.key(map_key::kInstantiation);
    w.string(inst.name);
  } else if (inst.raw) {
    w.key(map_key::kRaw);
    w.hexBytes(*inst.raw);
  } else {
    w.key(map_key::kTypes);
    description::writeTypeList(w, inst.types, text);
  }
}

}  // namespace

namespace description {

void writeTypeList(JsonWriter& w, const std::vector<Type>& types, std::string& text, const TypeNames* names) {
  w.beginArray(Layout::Inline);
  for (const Type& type : types) {
    text.clear();
    formatType(type, text, names);
    w.string(text);
  }
  w.endArray();
}

void beginDescription(JsonWriter& w, bool sorted) {
  w.beginObject();
  w.key(map_key::kSorted);
  w.boolean(sorted);
}

void beginDictionaries(JsonWriter& w) {
  w.key(map_key::kDictionaries);
  w.beginArray();
}

void writeDictionaryOffset(JsonWriter& w, std::uint32_t offset) {
  w.key(map_key::kOffset);
  w.hex32(offset);
}

void writeLayout(JsonWriter& w, const LayoutOverrides& layout) {
  if (!layout.count && !layout.duplicateRvas && layout.fill.empty() && layout.trailing.empty() && !layout.truncate)
    return;
  w.key(map_key::kLayout);
  w.beginObject();
  if (layout.count) {
    w.key(map_key::kCount);
    w.hex32(*layout.count);
  }
  if (layout.duplicateRvas) {
    w.key(map_key::kDuplicateRvas);
    w.boolean(true);
  }
  if (!layout.fill.empty()) {
    w.key(map_key::kFill);
    w.beginArray();
    for (const HeapFill& piece : layout.fill) {
      w.beginObject(Layout::Inline);
      w.key(map_key::kOffset);
      w.hex32(piece.offset);
      w.key(map_key::kRaw);
      w.hexBytes(piece.bytes);
      w.endObject();
    }
    w.endArray();
  }
  if (!layout.trailing.empty()) {
    w.key(map_key::kTrailing);
    w.hexBytes(layout.trailing);
  }
  if (layout.truncate) {
    w.member(map_key::kTruncate, *layout.truncate);
  }
  w.endObject();
}

}  // namespace description

std::string writeDescription(const MapDescription& description) {
  const std::vector<bool> listed = listedByName(description);
  std::string out;
  out.reserve(64 + description.dictionaries.size() * 48);
  std::string text;
  JsonWriter w(out);
  description::beginDescription(w, description.sorted);
  writeListed(w, description, listed, text);
  description::beginDictionaries(w);
  const std::vector<DictionaryOffset>& offsets = description.layout.offsets;
  for (std::size_t i = 0, nextOffset = 0; i < description.dictionaries.size(); ++i) {
    const DictionaryDescription& d = description.dictionaries[i];
    while (nextOffset < offsets.size() && offsets[nextOffset].dictionary < i) ++nextOffset;
    w.beginObject(Layout::Inline);
    w.key(map_key::kRva);
    w.hex32(d.rva);
    writeForm(w, description, listed, d.instantiation, text);
    if (nextOffset < offsets.size() && offsets[nextOffset].dictionary == i)
      description::writeDictionaryOffset(w, offsets[nextOffset].offset);
    w.endObject();
  }
  w.endArray();
  description::writeLayout(w, description.layout);
  w.endObject();
  out += '\n';
  return out;
}

}  // namespace gdmap
