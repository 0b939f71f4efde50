#pragma once
// What the three writers of map descriptions (writeDescription(), the dump
// and the exact dump) write alike, through the one JsonWriter: a type list,
// a dictionary's offset, /layout; their keys from description_keys.hpp.
#include <gdmap/description/json_writer.hpp>
#include <gdmap/schema/map_description.hpp>
#include <gdmap/schema/type_text.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace gdmap::description {

// A description's head: the object opened and its "sorted" member.
void beginDescription(JsonWriter& w, bool sorted);
// The "dictionaries" member opened: one dictionary a line follows.
void beginDictionaries(JsonWriter& w);
// `["int32", "class Ns.T"]`, on one line; `text` is scratch.
void writeTypeList(JsonWriter& w, const std::vector<Type>& types, std::string& text, const TypeNames* names = nullptr);
// A dictionary's offset member: its key, then "0x000000nn".
void writeDictionaryOffset(JsonWriter& w, std::uint32_t offset);
// The layout member of the description, nothing when it has no key (its
// offsets are written in their dictionaries).
void writeLayout(JsonWriter& w, const LayoutOverrides& layout);

}  // namespace gdmap::description
