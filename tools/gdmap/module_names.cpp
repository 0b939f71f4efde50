#include "module_names.hpp"

#include "file_io.hpp"

#include <gdmap/schema/rules.hpp>

namespace gdmap::cli {

std::string ModuleNames::methodName(const std::string& path, std::uint32_t token) {
  if (path.empty()) return {};
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
      d.message = "--names: the module " + path + " cannot be read for its names: " + read.error().message;
      d.file = target_;
      report_.add(std::move(d));
    }
    it = byPath_.emplace(path, std::move(names)).first;
  }
  return it->second ? it->second->methodName(token) : std::string();
}

}  // namespace gdmap::cli
