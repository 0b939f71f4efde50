#pragma once
// The content of a generic dictionary map, as a description states it:
// which RVA gets which instantiation. JSON-free: the gdmap::description
// library (<gdmap/description/description_json.hpp>) reads and writes it as
// JSON text.
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
// prefix included, written verbatim and not validated beyond being
// non-empty (an item is at least its length prefix: rule empty-raw-item).
struct InstantiationDescription {
  // Empty for an inline `types` or `raw`. (A description may also name an
  // instantiation "", a JSON key like any other; parseDescription reports
  // about it at "/instantiations/", but in a MapDescription it reads as
  // unnamed, so instantiationPointer() and writeDescription() treat it as
  // inline.)
  std::string name;
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
// dictionaries: for one error. A caller that names many instantiations uses
// InstantiationPointers, or its diagnostics cost quadratic time.
std::string instantiationPointer(const MapDescription& description, std::size_t index);

// instantiationPointer() for any number of instantiations: one pass over
// the dictionaries up front, then each pointer in the time of its name.
// Holds a reference to `description`, which must outlive it.
class InstantiationPointers {
 public:
  explicit InstantiationPointers(const MapDescription& description);
  std::string operator()(std::size_t index) const;

 private:
  const MapDescription& description_;
  // Per instantiation: the first dictionary that uses it, or SIZE_MAX.
  std::vector<std::size_t> firstUse_;
};

}  // namespace gdmap
