// writeDescription: the text is produced directly rather than through a
// JSON DOM, so that the key order is fixed by this code (not by a map's
// ordering) and a million dictionaries cost one string, one line each.
// Strings are escaped by gdmap::appendJsonString (schema/diagnostic.hpp),
// the same escaper the --json diagnostics use.
#include <gdmap/description/description_json.hpp>

#include "layout_text.hpp"

#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/type_text.hpp>

#include <unordered_set>

namespace gdmap {
namespace {

void appendTypeList(const std::vector<Type>& types, std::string& out) {
  out += '[';
  std::string text;
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (i != 0) out += ", ";
    text.clear();
    formatType(types[i], text);
    appendJsonString(text, out);
  }
  out += ']';
}

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

}  // namespace

namespace description {

void appendDictionaryOffset(std::uint32_t offset, std::string& out) {
  out += ", \"offset\": \"";
  appendHex32(offset, out);
  out += '"';
}

void appendLayout(const LayoutOverrides& layout, std::string& out) {
  // The offsets are written in their dictionaries.
  if (!layout.count && !layout.duplicateRvas && layout.fill.empty() && layout.trailing.empty() && !layout.truncate)
    return;
  out += ",\n  \"layout\": {";
  const char* separator = "\n    ";
  if (layout.count) {
    out += separator;
    out += "\"count\": \"";
    appendHex32(*layout.count, out);
    out += '"';
    separator = ",\n    ";
  }
  if (layout.duplicateRvas) {
    out += separator;
    out += "\"duplicateRvas\": true";
    separator = ",\n    ";
  }
  if (!layout.fill.empty()) {
    out += separator;
    out += "\"fill\": [";
    for (std::size_t i = 0; i < layout.fill.size(); ++i) {
      out += i == 0 ? "\n      {\"offset\": \"" : ",\n      {\"offset\": \"";
      appendHex32(layout.fill[i].offset, out);
      out += "\", \"raw\": \"";
      appendHex(layout.fill[i].bytes, out);
      out += "\"}";
    }
    out += "\n    ]";
    separator = ",\n    ";
  }
  if (!layout.trailing.empty()) {
    out += separator;
    out += "\"trailing\": \"";
    appendHex(layout.trailing, out);
    out += '"';
    separator = ",\n    ";
  }
  if (layout.truncate) {
    out += separator;
    out += "\"truncate\": ";
    out += std::to_string(*layout.truncate);
  }
  out += "\n  }";
}

}  // namespace description

std::string writeDescription(const MapDescription& description) {
  const std::vector<bool> listed = listedByName(description);
  std::string out;
  out.reserve(64 + description.dictionaries.size() * 48);

  out += "{\n  \"sorted\": ";
  out += description.sorted ? "true" : "false";

  bool anyListed = false;
  for (std::size_t i = 0; i < listed.size(); ++i) {
    if (!listed[i]) continue;
    out += anyListed ? ",\n    " : ",\n  \"instantiations\": {\n    ";
    anyListed = true;
    appendJsonString(description.instantiations[i].name, out);
    out += ": ";
    appendTypeList(description.instantiations[i].types, out);
  }
  if (anyListed) out += "\n  }";

  out += ",\n  \"dictionaries\": [";
  const std::vector<DictionaryOffset>& offsets = description.layout.offsets;
  for (std::size_t i = 0, nextOffset = 0; i < description.dictionaries.size(); ++i) {
    const DictionaryDescription& d = description.dictionaries[i];
    while (nextOffset < offsets.size() && offsets[nextOffset].dictionary < i) ++nextOffset;
    out += i == 0 ? "\n    {\"rva\": \"" : ",\n    {\"rva\": \"";
    out += hex32(d.rva);
    out += '"';
    // An index out of range is a caller's bug; writing no form makes the
    // output fail to parse ("missing-field") rather than invent one.
    if (d.instantiation < description.instantiations.size()) {
      const InstantiationDescription& inst = description.instantiations[d.instantiation];
      if (listed[d.instantiation]) {
        out += ", \"instantiation\": ";
        appendJsonString(inst.name, out);
      } else if (inst.raw) {
        out += ", \"raw\": \"";
        out += toHex(*inst.raw);
        out += '"';
      } else {
        out += ", \"types\": ";
        appendTypeList(inst.types, out);
      }
    }
    if (nextOffset < offsets.size() && offsets[nextOffset].dictionary == i)
      description::appendDictionaryOffset(offsets[nextOffset].offset, out);
    out += '}';
  }
  out += description.dictionaries.empty() ? "]" : "\n  ]";
  description::appendLayout(description.layout, out);
  out += "\n}\n";
  return out;
}

}  // namespace gdmap
