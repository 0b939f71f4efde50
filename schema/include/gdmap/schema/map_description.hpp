#pragma once
// The content of a generic dictionary map, as a description states it:
// which RVA gets which instantiation. JSON-free; schema/description_json.hpp
// reads and writes it as text.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/type.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap {

// The types of one heap item, or (`raw`) the item's exact bytes, length
// prefix included, written verbatim and never validated.
struct InstantiationDescription {
  std::string name;  // empty for an inline `types` or `raw`
  std::vector<Type> types;
  std::optional<Bytes> raw;
};

struct DictionaryDescription {
  std::uint32_t rva = 0;
  std::size_t instantiation = 0;  // index into MapDescription::instantiations
};

struct MapDescription {
  bool sorted = true;
  std::vector<InstantiationDescription> instantiations;
  // In the description's order: dictionaries[i] is element i of the JSON
  // array /dictionaries (the parser and describeMap() keep it so, whatever
  // `sorted` says), which is what lets dictionaryPointer(i) name it.
  std::vector<DictionaryDescription> dictionaries;
};

// JSON pointers (RFC 6901) of a description's parts, for diagnostics. They
// are derived on demand rather than stored, so that a description of
// millions of dictionaries holds no string per entry for messages that are
// almost never written.

// RFC 6901: one reference token, with '~' written "~0" and '/' "~1".
std::string escapePointerToken(std::string_view token);

// "/dictionaries/3" for index 3.
std::string dictionaryPointer(std::size_t index);

// Where instantiations[index] is defined: "/instantiations/<escaped name>"
// for a named one; for an inline one, the `types` or `raw` member of the
// first dictionary that uses it ("/dictionaries/1/types"); "" when no
// dictionary does (or `index` is out of range). Linear in the number of
// dictionaries: for error paths only.
std::string instantiationPointer(const MapDescription& description, std::size_t index);

}  // namespace gdmap
