// The JSON pointers of a description's parts, derived from its indexes.
#include <gdmap/schema/map_description.hpp>

namespace gdmap {

std::string escapePointerToken(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string dictionaryPointer(std::size_t index) {
  // Appended rather than "literal" + std::string: g++ 12 at -O2 warns
  // falsely (-Wrestrict, GCC bug 105329) on that form.
  std::string out = "/dictionaries/";
  out += std::to_string(index);
  return out;
}

std::string instantiationPointer(const MapDescription& description, std::size_t index) {
  if (index >= description.instantiations.size()) return {};
  const InstantiationDescription& inst = description.instantiations[index];
  if (!inst.name.empty()) {
    std::string out = "/instantiations/";
    out += escapePointerToken(inst.name);
    return out;
  }
  // An unnamed instantiation is a dictionary's own `types` or `raw` member:
  // the parser makes one per such dictionary, and a writer spells it out
  // inline at every use, the first of which is its earliest definition.
  for (std::size_t i = 0; i < description.dictionaries.size(); ++i) {
    if (description.dictionaries[i].instantiation != index) continue;
    std::string out = dictionaryPointer(i);
    out += inst.raw ? "/raw" : "/types";
    return out;
  }
  return {};
}

}  // namespace gdmap
