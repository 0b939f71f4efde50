#pragma once
// The names a process's modules give, each module's file read the first
// time one of its names is asked: a method's `Ns.Type::Method` and its
// signature as SOS writes it, a TypeDef's `Ns.Name`, and the module's
// names and signatures whole (what the R2R reader names methods with).
// For anyone naming a process's code: `gdmap il extract --pid/CORE
// --names`, `gdmap il locate`, RuntimeTypeText.
#include <gdmap/metadata/assembly_type_names.hpp>
#include <gdmap/metadata/method_signature.hpp>
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/il_map.hpp>
#include <gdmap/symbolize/r2r_assemblies.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>

namespace gdmap::symbolize {

class ModuleNames {
 public:
  // Told once of each module file that cannot be read as an assembly: a
  // warning with the reader's rule, its message naming the file; the
  // caller says where it was asked (Diagnostic::file).
  using Warn = std::function<void(Diagnostic)>;

  // `resolver` opens the files (null: memory-mapped, as AssemblyResolver
  // does by default); it must outlive the object.
  explicit ModuleNames(Warn warn = {}, const AssemblyResolver* resolver = nullptr);
  ModuleNames(ModuleNames&&) noexcept;
  ModuleNames& operator=(ModuleNames&&) noexcept;
  ~ModuleNames();

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
  // The module's names whole (null as above): the R2R reader's names.
  const metadata::AssemblyTypeNames* namesOf(const std::string& path);
  // Its signatures whole (null as above).
  const metadata::MethodSignatures* signaturesOf(const std::string& path);

 private:
  // One module's file, kept open for its signatures' sake, and what it names.
  struct Module {
    AssemblyFile file;
    std::unique_ptr<metadata::AssemblyTypeNames> names;  // null: unreadable
    std::unique_ptr<metadata::MethodSignatures> signatures;
  };
  const Module* moduleOf(const std::string& path);

  Warn warn_;
  const AssemblyResolver* resolver_;
  std::unordered_map<std::string, Module> byPath_;
};

}  // namespace gdmap::symbolize
