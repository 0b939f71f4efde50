#pragma once
// The names a process's modules give (the module's file, read the first
// time one of its names is asked): --names for its methods, and the types
// of generic instantiations (il extract --pid/CORE, il locate).
#include "common/file_io.hpp"
#include "common/report.hpp"

#include <gdmap/metadata/assembly_type_names.hpp>
#include <gdmap/metadata/method_signature.hpp>
#include <gdmap/schema/il_map.hpp>

#include <cstdint>
#include <memory>
#include <optional>
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
  // The method as SOS names it (metadata/method_signature.hpp), for the
  // body of `instantiation` (null: none); empty as above, or when a type of
  // the instantiation cannot be named.
  std::string signatureOf(const std::string& path, std::uint32_t token, const il::Instantiation* instantiation);
  // `Ns.Name` (nested: `Ns.Outer/Inner`) of a TypeDef; empty as above.
  std::string typeName(const std::string& path, std::uint32_t typeDef);
  // The module's names whole (null as above): the R2R reader's --names.
  const metadata::AssemblyTypeNames* namesOf(const std::string& path);
  // Its signatures whole (null as above).
  const metadata::MethodSignatures* signaturesOf(const std::string& path);

 private:
  // One module's file, kept open for its signatures' sake, and what it names.
  struct Module {
    std::optional<InputBytes> file;
    std::unique_ptr<metadata::AssemblyTypeNames> names;  // null: unreadable
    std::unique_ptr<metadata::MethodSignatures> signatures;
  };
  const Module* moduleOf(const std::string& path);

  Report& report_;
  std::string target_;
  std::unordered_map<std::string, Module> byPath_;
};

}  // namespace gdmap::cli
