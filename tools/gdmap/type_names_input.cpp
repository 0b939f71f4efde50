#include "type_names_input.hpp"

#include "exit_status.hpp"
#include "file_io.hpp"

#include <gdmap/metadata/assembly_type_names.hpp>
#include <gdmap/metadata/metadata_error.hpp>
#include <gdmap/schema/rules.hpp>

namespace gdmap::cli {

std::unique_ptr<TypeNames> loadTypeNames(const std::string& path, Report& report) {
  const std::optional<InputBytes> input = openInput(path, report);
  if (!input) return nullptr;
  try {
    return std::make_unique<metadata::AssemblyTypeNames>(input->bytes());
  } catch (const metadata::MetadataError& e) {
    report.fail(kUsageOrIo, rules::kNamesNotAssembly, path + ": --names needs an assembly: " + e.what());
    return nullptr;
  }
}

void addNamesOption(CLI::App& command, std::string& path) {
  command
      .add_option("--names", path,
                  "An assembly (ECMA-335 PE file): its TypeDef and TypeRef names stand for their tokens in type text")
      ->type_name("ASSEMBLY");
}

}  // namespace gdmap::cli
