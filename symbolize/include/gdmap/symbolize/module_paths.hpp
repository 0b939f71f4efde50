#pragma once
// The file of each module of a .NET process (a Module's address to the
// path the runtime loaded it from), asked of the runtime once per module:
// what names a JIT-compiled method's module and, through ModuleNames, its
// names and the types of its instantiations.
#include <gdmap/reader/runtime_code.hpp>

#include <cstdint>
#include <string>
#include <unordered_map>

namespace gdmap::symbolize {

class ModulePaths {
 public:
  // `code` must outlive the object.
  explicit ModulePaths(const runtime::RuntimeCode& code) : code_(&code) {}

  // The file of the Module at `module`; empty when the runtime names none
  // (an assembly loaded from bytes, a dynamic module) or the Module cannot
  // be read.
  const std::string& of(std::uint64_t module);

 private:
  const runtime::RuntimeCode* code_;
  std::unordered_map<std::uint64_t, std::string> paths_;
};

}  // namespace gdmap::symbolize
