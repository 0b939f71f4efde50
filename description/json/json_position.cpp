#include <gdmap/description/json_position.hpp>

#include <gdmap/internal/json_locator.hpp>

#include <vector>

namespace gdmap {

void locateInJson(std::string_view jsonText, std::span<Diagnostic> diagnostics) {
  std::vector<json_location::Target> targets;
  std::vector<Diagnostic*> asked;
  for (Diagnostic& d : diagnostics) {
    if (d.path.empty() || d.offset != Diagnostic::npos) continue;
    targets.emplace_back(d.path);
    asked.push_back(&d);
  }
  if (asked.empty()) return;
  const std::vector<std::size_t> offsets = json_location::locatePointers(jsonText, targets);
  std::vector<std::size_t> found;
  std::vector<Diagnostic*> located;
  for (std::size_t i = 0; i < asked.size(); ++i) {
    if (offsets[i] == json_location::npos) continue;
    found.push_back(offsets[i]);
    located.push_back(asked[i]);
  }
  const std::vector<json_location::LineColumn> positions = json_location::lineColumns(jsonText, found);
  for (std::size_t i = 0; i < located.size(); ++i) {
    located[i]->offset = found[i];
    located[i]->line = positions[i].line;
    located[i]->column = positions[i].column;
  }
}

}  // namespace gdmap
