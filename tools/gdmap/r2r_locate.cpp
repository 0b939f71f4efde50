#include "r2r_locate.hpp"

#include "il_entry_json.hpp"
#include "json_object.hpp"
#include "r2r_components.hpp"

#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/schema/bounds_to_api.hpp>
#include <gdmap/schema/hex.hpp>

#include <algorithm>

namespace gdmap::cli {

const char* partName(Part p) {
  switch (p) {
    case Part::Body: return "body";
    case Part::Funclet: return "funclet";
    case Part::Cold: return "cold";
  }
  return "body";
}

// Runtime function -> its method and part; functions no method claims
// (none in real images) have none. Of methods sharing one body, the first
// in the image's order owns it (locate() names the others).
std::vector<std::optional<Owner>> ownersOf(const r2r::R2RImage& image) {
  std::vector<std::optional<Owner>> owners(image.runtimeFunctions.size());
  for (std::size_t i = 0; i < image.methods.size(); ++i) {
    const r2r::MethodBody& m = image.methods[i];
    if (i > 0 && image.methods[i - 1].firstRuntimeFunction == m.firstRuntimeFunction) continue;
    for (std::uint32_t k = 0; k < m.runtimeFunctionCount; ++k) {
      owners[m.firstRuntimeFunction + k] = Owner{i, k == 0 ? Part::Body : Part::Funclet};
    }
    for (std::uint32_t k = 0; k < m.coldRuntimeFunctionCount; ++k) {
      owners[m.firstColdRuntimeFunction + k] = Owner{i, Part::Cold};
    }
  }
  return owners;
}

// The runtime function whose code holds `rva`, if any (the table is sorted
// and disjoint).
std::optional<std::size_t> functionAt(const r2r::R2RImage& image, std::uint32_t rva) {
  const auto& fs = image.runtimeFunctions;
  const auto it = std::upper_bound(fs.begin(), fs.end(), rva,
                                   [](std::uint32_t a, const r2r::RuntimeFunction& f) { return a < f.begin; });
  if (it == fs.begin()) return std::nullopt;
  const std::size_t i = static_cast<std::size_t>(it - fs.begin()) - 1;
  if (rva >= fs[i].end) return std::nullopt;
  return i;
}

// The native offset the bounds use for `rva`: hot code is one block from
// the entry (the body, then its funclets); a cold part continues after the
// hot code's size.
std::uint32_t nativeOffsetOf(const r2r::R2RImage& image, const r2r::MethodBody& m, std::size_t function,
                             std::uint32_t rva) {
  if (function < m.firstColdRuntimeFunction || m.coldRuntimeFunctionCount == 0) return rva - m.entryRva;
  std::uint32_t offset = 0;
  for (std::uint32_t k = 0; k < m.runtimeFunctionCount; ++k)
    offset += image.runtimeFunctions[m.firstRuntimeFunction + k].size();
  for (std::size_t f = m.firstColdRuntimeFunction; f < function; ++f) offset += image.runtimeFunctions[f].size();
  return offset + (rva - image.runtimeFunctions[function].begin);
}

std::string ilText(std::uint32_t il) {
  const std::string_view special = il::specialIlName(il);
  return special.empty() ? shortHex(il) : std::string(special);
}

// The body's instantiation as `--instantiation` takes it (`<int32>`,
// `async resumption`); empty for a method's plain body.
std::string instantiationOf(const r2r::MethodBody& m) {
  const std::optional<il::Instantiation> inst = bodyInstantiation(m);
  return inst ? il::instantiationText(inst) : std::string();
}

std::string stringArrayJson(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    appendJsonString(items[i], out);
  }
  return out + "]";
}

Located locate(const r2r::R2RImage& image, const std::vector<std::optional<Owner>>& owners, ApiTables& tables,
               std::uint32_t rva) {
  Located l;
  l.rva = rva;
  const std::optional<std::size_t> f = functionAt(image, rva);
  if (!f || !owners[*f]) return l;
  const r2r::MethodBody& m = image.methods[owners[*f]->method];
  l.method = &m;
  for (std::size_t k = owners[*f]->method + 1;
       k < image.methods.size() && image.methods[k].firstRuntimeFunction == m.firstRuntimeFunction; ++k) {
    l.sharing.push_back(&image.methods[k]);
  }
  l.part = owners[*f]->part;
  l.offset = nativeOffsetOf(image, m, *f, rva);
  const std::optional<std::vector<il::ApiEntry>>& api = tables.of(owners[*f]->method);
  if (!api) {
    l.noBounds = true;
    return l;
  }
  // A native offset in [start, end) of an entry: which IL the instruction came from.
  for (const il::ApiEntry& e : *api) {
    if (e.nativeStartOffset <= l.offset && l.offset < e.nativeEndOffset) l.entries.push_back(e);
  }
  return l;
}

}  // namespace gdmap::cli
