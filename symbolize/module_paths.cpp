#include <gdmap/symbolize/module_paths.hpp>

namespace gdmap::symbolize {

const std::string& ModulePaths::of(std::uint64_t module) {
  auto path = paths_.find(module);
  if (path == paths_.end()) {
    Expected<runtime::ManagedModule> m = code_->module(module);
    path = paths_.emplace(module, m ? m->path : std::string()).first;
  }
  return path->second;
}

}  // namespace gdmap::symbolize
