#include "common/type_names_input.hpp"

#include "app/exit_status.hpp"
#include "common/file_io.hpp"

#include <gdmap/metadata/assembly_type_names.hpp>
#include <gdmap/schema/rules.hpp>

namespace gdmap::cli {

void reportNotAssembly(const Error& error, const std::string& file, std::string_view what, Report& report) {
  // Where in the file it stops being an assembly; the CLI's rule.
  Diagnostic d = binaryDiagnostic(error);
  d.rule = rules::kNamesNotAssembly;
  d.message = std::string(what) + d.message;
  d.file = file;
  report.add(std::move(d));
}

std::unique_ptr<metadata::AssemblyTypeNames> assemblyNames(ByteSpan bytes, const std::string& file,
                                                           std::string_view what, Report& report) {
  Expected<metadata::AssemblyTypeNames> names = metadata::AssemblyTypeNames::open(bytes);
  if (!names) {
    reportNotAssembly(names.error(), file, what, report);
    return nullptr;
  }
  return std::make_unique<metadata::AssemblyTypeNames>(std::move(names).value());
}

std::unique_ptr<TypeNames> loadTypeNames(const std::string& path, Report& report) {
  const std::optional<InputBytes> input = openInput(path, report);
  if (!input) return nullptr;
  return assemblyNames(input->bytes(), path, "--names needs an assembly: ", report);
}

}  // namespace gdmap::cli
