#pragma once
// The names a process's modules give (the module's file, read the first
// time one of its names is asked): --names for its methods, and the types
// of generic instantiations (il extract --pid/CORE, il locate).
#include "report.hpp"

#include <gdmap/metadata/assembly_type_names.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

namespace gdmap::cli {

class ModuleNames {
 public:
  ModuleNames(Report& report, std::string target) : report_(report), target_(std::move(target)) {}

  // `Ns.Type::Method` of `token` in the module file `path`; empty when the
  // file cannot be read as an assembly (a warning names it, once) or has
  // no such MethodDef.
  std::string methodName(const std::string& path, std::uint32_t token);
  // `Ns.Name` (nested: `Ns.Outer/Inner`) of a TypeDef; empty as above.
  std::string typeName(const std::string& path, std::uint32_t typeDef);
  // The module's names whole (null as above): the R2R reader's --names.
  const metadata::AssemblyTypeNames* namesOf(const std::string& path);

 private:
  Report& report_;
  std::string target_;
  std::unordered_map<std::string, std::unique_ptr<metadata::AssemblyTypeNames>> byPath_;  // null: unreadable
};

}  // namespace gdmap::cli
