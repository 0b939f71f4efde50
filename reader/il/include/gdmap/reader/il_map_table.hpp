#pragma once
// The methods a profiler mock answers GetILToNativeMapping for, keyed by
// token, each with its API array computed once (from bounds as the runtime
// does, or verbatim). The C handle of il_to_native_map.h is this class: C
// sees only its name, C++ calls it gdmap::il::MethodTable.
#include <gdmap/reader/il_to_native_map.h>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/il_map.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

struct gdmap_il_map_table {
 public:
  // Adds a method, or nothing on error: a token already in the table
  // (il-duplicate-token), bounds without a code size (il-code-size-required)
  // or not ascending (il-bounds-not-ascending). Error offsets are 0; the
  // message names the token and, for bounds, the bound.
  gdmap::Status add(const gdmap::il::Method& method);
  gdmap::Status addBounds(std::uint32_t token, std::uint32_t codeSize, std::span<const gdmap::il::Bound> bounds);
  gdmap::Status addMap(std::uint32_t token, std::vector<gdmap::il::ApiEntry> entries);

  // The method's API array, or null when the table has no such token.
  const std::vector<gdmap::il::ApiEntry>* find(std::uint32_t token) const;
  std::size_t size() const { return methods_.size(); }
  void reserve(std::size_t methods) { methods_.reserve(methods); }

  // The protocol of il_to_native_map.h (gdmap_get_il_to_native_mapping).
  gdmap_hresult getILToNativeMapping(std::uint32_t token, std::uint32_t cMap, std::uint32_t* pcMap,
                                     gdmap_il_to_native_map map[]) const;

 private:
  std::unordered_map<std::uint32_t, std::vector<gdmap::il::ApiEntry>> methods_;
};

namespace gdmap::il {

using MethodTable = ::gdmap_il_map_table;

// A table of `methods` (a description's, once loaded); or the first error,
// located by the method's index i in `methods`: `index` is i and `path`
// "methods[i]" (the message is the one add() gave).
Expected<MethodTable> buildMethodTable(std::span<const Method> methods);

}  // namespace gdmap::il
