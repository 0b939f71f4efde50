#include "module_names.hpp"

#include "file_io.hpp"

#include <gdmap/schema/rules.hpp>

namespace gdmap::cli {

const metadata::AssemblyTypeNames* ModuleNames::namesOf(const std::string& path) {
  if (path.empty()) return nullptr;
  auto it = byPath_.find(path);
  if (it == byPath_.end()) {
    std::unique_ptr<metadata::AssemblyTypeNames> names;
    Expected<InputBytes> file = InputBytes::open(path);
    Expected<metadata::AssemblyTypeNames> read =
        file ? metadata::AssemblyTypeNames::open(file->bytes()) : Expected<metadata::AssemblyTypeNames>(file.error());
    if (read) {
      names = std::make_unique<metadata::AssemblyTypeNames>(std::move(*read));
    } else {
      Diagnostic d;
      d.severity = Severity::Warning;
      d.rule = read.error().rule;
      d.message = "the module " + path + " cannot be read for its names: " + read.error().message;
      d.file = target_;
      report_.add(std::move(d));
    }
    it = byPath_.emplace(path, std::move(names)).first;
  }
  return it->second.get();
}

std::string ModuleNames::methodName(const std::string& path, std::uint32_t token) {
  const metadata::AssemblyTypeNames* names = namesOf(path);
  return names ? names->methodName(token) : std::string();
}

std::string ModuleNames::typeName(const std::string& path, std::uint32_t typeDef) {
  const metadata::AssemblyTypeNames* names = namesOf(path);
  return names ? names->nameOf(Token{typeDef}) : std::string();
}

}  // namespace gdmap::cli
