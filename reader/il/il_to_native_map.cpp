// The method table and the two-call protocol, C++ and C entry points. The C
// functions never let an exception cross into C: any failure inside (in
// practice an allocation) becomes E_FAIL or a null table.
#include <gdmap/reader/il_to_native_map.h>
#include <gdmap/reader/il_map_table.hpp>
#include <gdmap/schema/bounds_to_api.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <string>

using gdmap::Error;
using gdmap::Status;
using gdmap::Success;
using gdmap::il::ApiEntry;
using gdmap::il::Bound;

namespace {

std::string methodName(std::uint32_t token) { return "method " + gdmap::hex32(token); }

}  // namespace

Status gdmap_il_map_table::addBounds(std::uint32_t token, std::uint32_t codeSize, std::span<const Bound> bounds) {
  if (methods_.count(token) != 0)
    return Error(0, methodName(token) + " is already in the table", gdmap::rules::kIlDuplicateToken);
  if (const auto i = gdmap::il::firstDescendingBound(bounds))
    return Error(0,
                 methodName(token) + ": bounds[" + std::to_string(*i) + "].native: native offset " +
                     std::to_string(bounds[*i].nativeOffset) + " is below the previous bound's " +
                     std::to_string(bounds[*i - 1].nativeOffset),
                 gdmap::rules::kIlBoundsNotAscending);
  methods_.emplace(token, gdmap::il::boundsToApi(bounds, codeSize));
  return Success{};
}

Status gdmap_il_map_table::addMap(std::uint32_t token, std::vector<ApiEntry> entries) {
  if (methods_.count(token) != 0)
    return Error(0, methodName(token) + " is already in the table", gdmap::rules::kIlDuplicateToken);
  methods_.emplace(token, std::move(entries));
  return Success{};
}

Status gdmap_il_map_table::add(const gdmap::il::Method& method) {
  if (method.layout && method.layout->raw)
    return Error(0,
                 methodName(method.token) +
                     ": its blob is given verbatim (\"raw\"), which holds no bounds or map to answer from; give "
                     "its bounds or its map (`gdmap il dump` of a valid blob gives its bounds)",
                 gdmap::rules::kIlRawMethod);
  if (method.verbatimMap) return addMap(method.token, method.map);
  if (!method.codeSize)
    return Error(0, methodName(method.token) + ": the API array of bounds needs the method's code size",
                 gdmap::rules::kIlCodeSizeRequired);
  return addBounds(method.token, *method.codeSize, method.bounds);
}

const std::vector<ApiEntry>* gdmap_il_map_table::find(std::uint32_t token) const {
  const auto it = methods_.find(token);
  return it == methods_.end() ? nullptr : &it->second;
}

gdmap_hresult gdmap_il_map_table::getILToNativeMapping(std::uint32_t token, std::uint32_t cMap, std::uint32_t* pcMap,
                                                       gdmap_il_to_native_map map[]) const {
  if (cMap > 0 && (pcMap == nullptr || map == nullptr)) return GDMAP_E_INVALIDARG;
  const std::vector<ApiEntry>* entries = find(token);
  if (entries == nullptr) return GDMAP_E_FAIL;
  const auto count = static_cast<std::uint32_t>(entries->size());
  if (map != nullptr) {
    const std::uint32_t copied = std::min(cMap, count);
    for (std::uint32_t i = 0; i < copied; ++i) {
      const ApiEntry& e = (*entries)[i];
      map[i] = gdmap_il_to_native_map{e.ilOffset, e.nativeStartOffset, e.nativeEndOffset};
    }
  }
  if (pcMap != nullptr) *pcMap = count;
  return GDMAP_S_OK;
}

namespace gdmap::il {

Expected<MethodTable> buildMethodTable(std::span<const Method> methods) {
  MethodTable table;
  table.reserve(methods.size());
  for (std::size_t i = 0; i < methods.size(); ++i) {
    if (Status s = table.add(methods[i]); !s) {
      Error e = s.error();
      e.path = "methods[" + std::to_string(i) + "]";
      e.index = i;
      return e;
    }
  }
  return table;
}

}  // namespace gdmap::il

extern "C" {

gdmap_il_map_table* gdmap_il_map_table_create(void) {
  try {
    return new gdmap_il_map_table();
  } catch (...) {
    return nullptr;
  }
}

void gdmap_il_map_table_destroy(gdmap_il_map_table* table) { delete table; }

gdmap_hresult gdmap_il_map_table_add_bounds(gdmap_il_map_table* table, uint32_t methodToken, uint32_t codeSize,
                                            const gdmap_il_bound* bounds, uint32_t count) {
  if (table == nullptr || (bounds == nullptr && count > 0)) return GDMAP_E_INVALIDARG;
  try {
    std::vector<Bound> copy;
    copy.reserve(count);
    for (uint32_t i = 0; i < count; ++i)
      copy.push_back(Bound{bounds[i].nativeOffset, bounds[i].ilOffset, bounds[i].source});
    return table->addBounds(methodToken, codeSize, copy) ? GDMAP_S_OK : GDMAP_E_INVALIDARG;
  } catch (...) {
    return GDMAP_E_FAIL;
  }
}

gdmap_hresult gdmap_il_map_table_add_map(gdmap_il_map_table* table, uint32_t methodToken,
                                         const gdmap_il_to_native_map* entries, uint32_t count) {
  if (table == nullptr || (entries == nullptr && count > 0)) return GDMAP_E_INVALIDARG;
  try {
    std::vector<ApiEntry> copy;
    copy.reserve(count);
    for (uint32_t i = 0; i < count; ++i)
      copy.push_back(ApiEntry{entries[i].ilOffset, entries[i].nativeStartOffset, entries[i].nativeEndOffset});
    return table->addMap(methodToken, std::move(copy)) ? GDMAP_S_OK : GDMAP_E_INVALIDARG;
  } catch (...) {
    return GDMAP_E_FAIL;
  }
}

gdmap_hresult gdmap_get_il_to_native_mapping(const gdmap_il_map_table* table, uint32_t methodToken, uint32_t cMap,
                                             uint32_t* pcMap, gdmap_il_to_native_map map[]) {
  if (table == nullptr) return GDMAP_E_INVALIDARG;
  try {
    return table->getILToNativeMapping(methodToken, cMap, pcMap, map);
  } catch (...) {
    return GDMAP_E_FAIL;
  }
}

}  // extern "C"
