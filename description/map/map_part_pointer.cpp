// The map writer says which part of its input an error is about
// (MapPart); the description knows where that part is in its JSON.
#include "map_part_pointer.hpp"

#include <gdmap/description/description_json.hpp>

namespace gdmap {
namespace description {
namespace {

// Where instantiation `j` is defined. One no dictionary uses has no JSON
// pointer, so it is named by its index.
std::string definitionPointer(const MapDescription& d, std::size_t j) {
  std::string p = instantiationPointer(d, j);
  if (p.empty()) {
    p = "instantiation[";
    p += std::to_string(j);
    p += ']';
  }
  return p;
}

// Where type `t` of instantiation `j` sits: a named instantiation is itself
// the array of types; an inline one is a dictionary's `types` member.
std::string typePointer(const MapDescription& d, std::size_t j, std::size_t t) {
  std::string p = definitionPointer(d, j);
  const bool isArray =
      !d.instantiations[j].name.empty() || (p.size() >= 6 && p.compare(p.size() - 6, 6, "/types") == 0);
  p += isArray ? "/" : "/types/";
  p += std::to_string(t);
  return p;
}

}  // namespace

std::string mapPartPointer(const MapDescription* description, const MapPart& part) {
  const bool known = description != nullptr && part.index < description->instantiations.size();
  switch (part.kind) {
    case MapPart::Kind::Dictionary: return dictionaryPointer(part.index);
    case MapPart::Kind::Fill: return "/layout/fill/" + std::to_string(part.index);
    case MapPart::Kind::Truncate: return "/layout/truncate";
    case MapPart::Kind::Instantiation: return known ? definitionPointer(*description, part.index) : std::string();
    case MapPart::Kind::Type: return known ? typePointer(*description, part.index, part.type) : std::string();
    // layout.offsets is the model's list of the dictionaries' `offset`
    // members, in no place of its own; and the whole map has none.
    case MapPart::Kind::Offset:
    case MapPart::Kind::Map: break;
  }
  return {};
}

}  // namespace description

std::string mapPartPointer(const MapDescription& description, const MapPart& part) {
  return description::mapPartPointer(&description, part);
}

}  // namespace gdmap
