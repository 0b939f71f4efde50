#include "extract/bound_lines.hpp"

#include "il/il_arguments.hpp"

#include <vector>

namespace gdmap::cli {
namespace {
constexpr std::uint32_t kMethodDefTable = 0x06;
}

Status addBoundLines(il::Method& method, const symbolize::ImagePdb& pdb) {
  method.lines.clear();
  method.document.clear();
  const std::uint32_t row = method.token & 0x00FFFFFF;
  if ((method.token >> 24) != kMethodDefTable || row == 0 || row > pdb.pdb().methodCount()) return Success{};
  // Every bound's IL offset asked at once: one decode of the method's
  // points, no document name copied per bound.
  std::vector<std::uint32_t> offsets;
  std::vector<std::size_t> bounds;
  offsets.reserve(method.bounds.size());
  bounds.reserve(method.bounds.size());
  for (std::size_t i = 0; i < method.bounds.size(); ++i) {
    const std::uint32_t il = method.bounds[i].ilOffset;
    if (!il::specialIlName(il).empty()) continue;
    offsets.push_back(il);
    bounds.push_back(i);
  }
  if (offsets.empty()) return Success{};
  Expected<std::vector<std::optional<pdb::SequencePoint>>> points = pdb.pdb().stackTracePoints(row, offsets);
  if (!points) {
    Error e = points.error();
    e.message = "the PDB's lines of method " + tokenText(method.token) + ": " + e.message;
    return e;
  }
  // The method's document is its first line's; a line elsewhere names its own.
  std::uint32_t documentRow = 0;
  for (std::size_t k = 0; k < bounds.size(); ++k) {
    const std::optional<pdb::SequencePoint>& point = (*points)[k];
    if (!point) continue;
    if (documentRow == 0) {
      Expected<std::string> name = pdb.pdb().documentName(point->document);
      if (!name) return name.error();
      method.document = std::move(*name);
      documentRow = point->document;
    }
    method.lines.resize(bounds[k] + 1);
    il::BoundLine& bound = method.lines[bounds[k]];
    bound.line = point->startLine;
    bound.column = point->startColumn;
    if (point->document != documentRow) {
      Expected<std::string> name = pdb.pdb().documentName(point->document);
      if (!name) return name.error();
      bound.document = std::move(*name);
    }
  }
  return Success{};
}

}  // namespace gdmap::cli
