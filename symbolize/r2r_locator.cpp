#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/symbolize/r2r_locator.hpp>

#include <algorithm>

namespace gdmap::symbolize {

const char* partName(Part part) {
  switch (part) {
    case Part::Body: return "body";
    case Part::Funclet: return "funclet";
    case Part::Cold: return "cold";
  }
  return "body";
}

std::vector<std::optional<Owner>> ownersOf(const r2r::R2RImage& image) {
  std::vector<std::optional<Owner>> owners(image.runtimeFunctions.size());
  for (std::size_t i = 0; i < image.methods.size(); ++i) {
    const r2r::MethodBody& m = image.methods[i];
    if (i > 0 && image.methods[i - 1].firstRuntimeFunction == m.firstRuntimeFunction) continue;
    std::uint32_t sharing = 0;
    while (i + 1 + sharing < image.methods.size() &&
           image.methods[i + 1 + sharing].firstRuntimeFunction == m.firstRuntimeFunction)
      ++sharing;
    for (std::uint32_t k = 0; k < m.runtimeFunctionCount; ++k) {
      owners[m.firstRuntimeFunction + k] = Owner{i, k == 0 ? Part::Body : Part::Funclet, sharing};
    }
    for (std::uint32_t k = 0; k < m.coldRuntimeFunctionCount; ++k) {
      owners[m.firstColdRuntimeFunction + k] = Owner{i, Part::Cold, sharing};
    }
  }
  return owners;
}

std::optional<std::size_t> functionAt(const r2r::R2RImage& image, std::uint32_t rva) {
  const auto& fs = image.runtimeFunctions;
  const auto it = std::upper_bound(fs.begin(), fs.end(), rva,
                                   [](std::uint32_t a, const r2r::RuntimeFunction& f) { return a < f.begin; });
  if (it == fs.begin()) return std::nullopt;
  const std::size_t i = static_cast<std::size_t>(it - fs.begin()) - 1;
  if (rva >= fs[i].end) return std::nullopt;
  return i;
}

std::uint32_t nativeOffsetOf(const r2r::R2RImage& image, const r2r::MethodBody& method, std::size_t function,
                             std::uint32_t rva) {
  if (function < method.firstColdRuntimeFunction || method.coldRuntimeFunctionCount == 0) return rva - method.entryRva;
  std::uint32_t offset = 0;
  for (std::uint32_t k = 0; k < method.runtimeFunctionCount; ++k)
    offset += image.runtimeFunctions[method.firstRuntimeFunction + k].size();
  for (std::size_t f = method.firstColdRuntimeFunction; f < function; ++f) offset += image.runtimeFunctions[f].size();
  return offset + (rva - image.runtimeFunctions[function].begin);
}

MethodMaps::MethodMaps(const r2r::R2RImage& image)
    : image_(&image), maps_(image.methods.size()), done_(image.methods.size()) {}

const MethodIlMap* MethodMaps::of(std::size_t method) {
  std::optional<MethodIlMap>& map = maps_[method];
  if (!map && !done_[method]) {
    done_[method] = true;
    const r2r::MethodBody& m = image_->methods[method];
    const ByteSpan bounds = m.bounds.first(m.bounds.size() - m.boundsTrailing);
    if (!bounds.empty()) {
      if (const Expected<il::BoundsView> view = il::openBounds(bounds, image_->profile.bounds)) {
        map = makeMethodIlMap(view->toVector(), m.codeSize);
      }
    }
  }
  return map ? &*map : nullptr;
}

R2RLocator::R2RLocator(const r2r::R2RImage& image) : image_(&image), owners_(ownersOf(image)), maps_(image) {}

Located R2RLocator::locate(std::uint32_t rva, AddressKind kind) {
  Located l;
  l.rva = rva;
  l.kind = kind;
  const std::optional<std::size_t> f = functionAt(*image_, rva);
  if (!f || !owners_[*f]) return l;
  const Owner owner = *owners_[*f];
  const r2r::MethodBody& m = image_->methods[owner.method];
  l.method = &m;
  for (std::uint32_t k = 1; k <= owner.sharing; ++k) l.sharing.push_back(&image_->methods[owner.method + k]);
  l.part = owner.part;
  l.offset = nativeOffsetOf(*image_, m, *f, rva);
  l.lookup = lookupOffset(l.offset, kind);
  const MethodIlMap* map = maps_.of(owner.method);
  if (map == nullptr) {
    l.noBounds = true;
    return l;
  }
  // A native offset in [start, end) of an entry: which IL the instruction came from.
  for (const il::ApiEntry& e : map->entries) {
    if (e.nativeStartOffset <= l.lookup && l.lookup < e.nativeEndOffset) l.entries.push_back(e);
  }
  l.il = mapNativeOffsetToIl(*map, l.lookup);
  return l;
}

}  // namespace gdmap::symbolize
