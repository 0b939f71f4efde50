#include "description_input.hpp"

#include <gdmap/description/description_json.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/writer/map_builder.hpp>

namespace gdmap::cli {

std::optional<LoadedDescription> loadDescription(const InputBytes& input, Report& report) {
  DescriptionParse parsed = parseDescription(input.text());
  report.add(std::move(parsed.diagnostics), input.displayName());
  if (!parsed.description) return std::nullopt;
  auto map = buildMap(*parsed.description);
  if (!map) {
    // The parser accepted it, so the builder should too; its error still
    // says which rule and where.
    Diagnostic d = binaryDiagnostic(map.error());
    d.offset = Diagnostic::npos;
    if (d.rule.empty()) d.rule = rules::kInvalidType;  // as the builder names a type it cannot write
    d.file = input.displayName();
    report.add(std::move(d));
    return std::nullopt;
  }
  return LoadedDescription{std::move(*parsed.description), std::move(map).value()};
}

}  // namespace gdmap::cli
