#pragma once
// The content of a generic dictionary map, as a description states it:
// which RVA gets which instantiation. JSON-free; schema/description_json.hpp
// reads and writes it as text.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/type.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gdmap {

// The types of one heap item, or (`raw`) the item's exact bytes, length
// prefix included, written verbatim and never validated.
struct InstantiationDescription {
  std::string name;  // empty for an inline `types` or `raw`
  std::vector<Type> types;
  std::optional<Bytes> raw;
  std::string pointer;  // JSON pointer of its definition, for diagnostics
};

struct DictionaryDescription {
  std::uint32_t rva = 0;
  std::size_t instantiation = 0;  // index into MapDescription::instantiations
  std::string pointer;            // "/dictionaries/3"
};

struct MapDescription {
  bool sorted = true;
  std::vector<InstantiationDescription> instantiations;
  std::vector<DictionaryDescription> dictionaries;
};

}  // namespace gdmap
