#include <gdmap/schema/bounds_to_api.hpp>
#include <gdmap/symbolize/il_offset.hpp>

#include <algorithm>

namespace gdmap::symbolize {

const char* addressKindName(AddressKind kind) { return kind == AddressKind::Return ? "return" : "exact"; }

std::uint32_t lookupOffset(std::uint32_t offset, AddressKind kind) {
  return kind == AddressKind::Return && offset > 0 ? offset - 1 : offset;
}

const char* ilMappingName(IlMapping mapping) {
  switch (mapping) {
    case IlMapping::Exact: return "exact";
    case IlMapping::Approximate: return "approximate";
    case IlMapping::Prolog: return "prolog";
    case IlMapping::Epilog: return "epilog";
    case IlMapping::Unmapped: return "unmapped";
    case IlMapping::NoInfo: break;
  }
  return "no_info";
}

MethodIlMap makeMethodIlMap(std::span<const il::Bound> bounds, std::uint32_t codeSize) {
  MethodIlMap map;
  map.entries = il::boundsToApi(bounds, codeSize);
  // SetBoundaries' ilLast: max((int)ilLast, (int)ilOffset) from 0, so the
  // special offsets (negative as int) never count.
  for (const il::Bound& b : bounds) {
    if (static_cast<std::int32_t>(b.ilOffset) > static_cast<std::int32_t>(map.lastIl)) map.lastIl = b.ilOffset;
  }
  return map;
}

IlOffset mapNativeOffsetToIl(const MethodIlMap& map, std::uint32_t nativeOffset) {
  IlOffset out;
  for (const il::ApiEntry& e : map.entries) {
    if (nativeOffset < e.nativeStartOffset || nativeOffset >= e.nativeEndOffset) continue;
    out.entry = e;
    switch (e.ilOffset) {
      case il::kProlog: out.mapping = IlMapping::Prolog; break;
      case il::kNoMapping: out.mapping = IlMapping::Unmapped; break;
      case il::kEpilog:
        out.mapping = IlMapping::Epilog;
        out.ilOffset = map.lastIl;
        break;
      default:
        out.mapping = nativeOffset == e.nativeStartOffset ? IlMapping::Exact : IlMapping::Approximate;
        out.ilOffset = e.ilOffset;
        break;
    }
    return out;
  }
  return out;
}

}  // namespace gdmap::symbolize
