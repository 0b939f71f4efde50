#include "image/module_names.hpp"

#include <gdmap/schema/rules.hpp>

namespace gdmap::cli {

const ModuleNames::Module* ModuleNames::moduleOf(const std::string& path) {
  if (path.empty()) return nullptr;
  auto it = byPath_.find(path);
  if (it != byPath_.end()) return &it->second;
  Module module;
  Expected<InputBytes> file = InputBytes::open(path);
  Expected<metadata::AssemblyTypeNames> read =
      file ? metadata::AssemblyTypeNames::open(file->bytes()) : Expected<metadata::AssemblyTypeNames>(file.error());
  if (read) {
    module.names = std::make_unique<metadata::AssemblyTypeNames>(std::move(*read));
    if (Expected<metadata::MethodSignatures> s = metadata::MethodSignatures::open(file->bytes()))
      module.signatures = std::make_unique<metadata::MethodSignatures>(std::move(*s));
    module.file = std::move(*file);  // a mapping moves with its bytes: the signatures keep reading them
  } else {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.rule = read.error().rule;
    d.message = "the module " + path + " cannot be read for its names: " + read.error().message;
    d.file = target_;
    report_.add(std::move(d));
  }
  return &byPath_.emplace(path, std::move(module)).first->second;
}

const metadata::AssemblyTypeNames* ModuleNames::namesOf(const std::string& path) {
  const Module* module = moduleOf(path);
  return module ? module->names.get() : nullptr;
}

const metadata::MethodSignatures* ModuleNames::signaturesOf(const std::string& path) {
  const Module* module = moduleOf(path);
  return module ? module->signatures.get() : nullptr;
}

std::string ModuleNames::methodName(const std::string& path, std::uint32_t token) {
  const metadata::AssemblyTypeNames* names = namesOf(path);
  return names ? names->methodName(token) : std::string();
}

std::string ModuleNames::signatureOf(const std::string& path, std::uint32_t token,
                                     const il::Instantiation* instantiation) {
  const Module* module = moduleOf(path);
  return module && module->signatures ? module->signatures->signatureOf(token, instantiation) : std::string();
}

std::string ModuleNames::typeName(const std::string& path, std::uint32_t typeDef) {
  const metadata::AssemblyTypeNames* names = namesOf(path);
  return names ? names->nameOf(Token{typeDef}) : std::string();
}

}  // namespace gdmap::cli
