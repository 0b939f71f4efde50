#include "bound_lines.hpp"

#include "il_arguments.hpp"

#include <gdmap/symbolize/source_lines.hpp>

namespace gdmap::cli {

Status addBoundLines(il::Method& method, const symbolize::ImagePdb& pdb) {
  method.lines.clear();
  method.document.clear();
  method.lines.reserve(method.bounds.size());
  for (std::size_t i = 0; i < method.bounds.size(); ++i) {
    const std::uint32_t il = method.bounds[i].ilOffset;
    if (!il::specialIlName(il).empty()) continue;
    // A method's bounds often name one IL offset twice (a loop's test at
    // its top and its bottom): its line is looked up once.
    if (i > 0 && method.bounds[i - 1].ilOffset == il && method.lines.size() == i) {
      method.lines.push_back(method.lines.back());
      continue;
    }
    Expected<std::optional<pdb::SourceLine>> line = symbolize::sourceLineOf(pdb, method.token, il);
    if (!line) {
      Error e = line.error();
      e.message = "the PDB's lines of method " + tokenText(method.token) + ": " + e.message;
      return e;
    }
    if (!*line) continue;
    // The method's document is its first line's; a line elsewhere names its own.
    if (method.document.empty()) method.document = (*line)->document;
    method.lines.resize(i + 1);
    il::BoundLine& bound = method.lines[i];
    bound.line = (*line)->line;
    bound.column = (*line)->column;
    if ((*line)->document != method.document) bound.document = std::move((*line)->document);
  }
  return Success{};
}

}  // namespace gdmap::cli
