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

// `instantiation` for a dictionary that states only its directory offset
// (`"offset"` without a form): the entry points there, no item is written.
inline constexpr std::size_t kNoInstantiation = SIZE_MAX;

struct DictionaryDescription {
  std::uint32_t rva = 0;
  std::size_t instantiation = 0;  // index into MapDescription::instantiations, or kNoInstantiation
};

// A dictionary's directory offset, given explicitly (`"offset"`): with an
// instantiation, its item is placed there; without one (kNoInstantiation),
// the entry just points there. Kept beside the dictionaries, not in them,
// so that a description without overrides costs nothing more.
struct DictionaryOffset {
  std::size_t dictionary = 0;  // index into MapDescription::dictionaries
  std::uint32_t offset = 0;
};

// Bytes at an explicit heap offset that belong to no dictionary (gap or
// filler bytes): `/layout/fill/K`.
struct HeapFill {
  std::uint32_t offset = 0;
  Bytes bytes;
};

// The fields of the binary a description may state instead of letting the
// canonical layout decide (`/layout`, docs/description.md "Overrides"):
// what debugger tests need to write invalid or non-canonical maps. Empty
// (the default): the canonical layout, today's bytes.
struct LayoutOverrides {
  // Out of line (map_description.cpp): every MapDescription carries one,
  // and inline copies of its members' code in each reader of descriptions
  // tip the compiler's inlining budget on the JSON hot path.
  LayoutOverrides();
  ~LayoutOverrides();
  LayoutOverrides(const LayoutOverrides&);
  LayoutOverrides(LayoutOverrides&&) noexcept;
  LayoutOverrides& operator=(const LayoutOverrides&);
  LayoutOverrides& operator=(LayoutOverrides&&) noexcept;

  std::vector<DictionaryOffset> offsets;  // by ascending dictionary index, at most one each
  std::optional<std::uint32_t> count;     // the header's u32 verbatim, bit 31 included
  bool duplicateRvas = false;             // repeated RVAs are written, not refused
  std::vector<HeapFill> fill;             // bytes at explicit heap offsets
  Bytes trailing;                         // bytes after the end of the heap's last placed byte
  std::optional<std::uint64_t> truncate;  // the file is cut to this many bytes
  bool any() const;
};

struct MapDescription {
  bool sorted = true;
  std::vector<InstantiationDescription> instantiations;
  // In the description's order: dictionaries[i] is element i of the JSON
  // array /dictionaries (the parser and describeMap() keep it so, whatever
  // `sorted` says), which is what lets dictionaryPointer(i) name it.
  std::vector<DictionaryDescription> dictionaries;
  LayoutOverrides layout;
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
