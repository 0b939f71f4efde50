#pragma once
// The keys of the dictionary map description (docs/description.md), each
// spelled here once: the reader's key table (description_json.cpp), the
// builder's diagnostics and the writers (writeDescription, the dumps) all
// name a key by these constants.
#include <string_view>

namespace gdmap::description::map_key {

inline constexpr std::string_view kSchema = "$schema";
inline constexpr std::string_view kSorted = "sorted";
inline constexpr std::string_view kInstantiations = "instantiations";
inline constexpr std::string_view kDictionaries = "dictionaries";
inline constexpr std::string_view kLayout = "layout";
// A dictionary's.
inline constexpr std::string_view kRva = "rva";
inline constexpr std::string_view kInstantiation = "instantiation";
inline constexpr std::string_view kTypes = "types";
inline constexpr std::string_view kRaw = "raw";        // also a fill piece's
inline constexpr std::string_view kOffset = "offset";  // also a fill piece's
// A type's, as {"hex": ...}.
inline constexpr std::string_view kHex = "hex";
// /layout's.
inline constexpr std::string_view kCount = "count";
inline constexpr std::string_view kDuplicateRvas = "duplicateRvas";
inline constexpr std::string_view kFill = "fill";
inline constexpr std::string_view kTrailing = "trailing";
inline constexpr std::string_view kTruncate = "truncate";

}  // namespace gdmap::description::map_key
