#include "description_input.hpp"

#include "diagnostic_output.hpp"
#include "exit_status.hpp"
#include "file_io.hpp"

#include <gdmap/description/description_json.hpp>
#include <gdmap/writer/map_builder.hpp>

namespace gdmap::cli {

std::optional<LoadedDescription> loadDescription(const std::string& path, int& status) {
  auto input = InputBytes::open(path);
  if (!input) {
    printError(input.error().message);
    status = kUsageOrIo;
    return std::nullopt;
  }
  DescriptionParse parsed = parseDescription(input->text());
  printDiagnostics(parsed.diagnostics, input->displayName());
  if (!parsed.description) {
    status = kInvalid;
    return std::nullopt;
  }
  auto map = buildMap(*parsed.description);
  if (!map) {
    printError(input->displayName() + ": " + map.error().message);
    status = kInvalid;
    return std::nullopt;
  }
  return LoadedDescription{std::move(*parsed.description), std::move(map).value()};
}

}  // namespace gdmap::cli
