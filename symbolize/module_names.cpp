#include <gdmap/symbolize/module_names.hpp>

namespace gdmap::symbolize {

ModuleNames::ModuleNames(Warn warn, const AssemblyResolver* resolver) : warn_(std::move(warn)), resolver_(resolver) {}
ModuleNames::ModuleNames(ModuleNames&&) noexcept = default;
ModuleNames& ModuleNames::operator=(ModuleNames&&) noexcept = default;
ModuleNames::~ModuleNames() = default;

const ModuleNames::Module* ModuleNames::moduleOf(const std::string& path) {
  if (path.empty()) return nullptr;
  auto it = byPath_.find(path);
  if (it != byPath_.end()) return &it->second;
  static const AssemblyResolver mapped;
  Module module;
  Expected<AssemblyFile> file = (resolver_ != nullptr ? *resolver_ : mapped).open(path);
  Expected<metadata::AssemblyTypeNames> read =
      file ? metadata::AssemblyTypeNames::open(file->bytes) : Expected<metadata::AssemblyTypeNames>(file.error());
  if (read) {
    module.names = std::make_unique<metadata::AssemblyTypeNames>(std::move(*read));
    if (Expected<metadata::MethodSignatures> s = metadata::MethodSignatures::open(file->bytes))
      module.signatures = std::make_unique<metadata::MethodSignatures>(std::move(*s));
    module.file = std::move(*file);  // its holder keeps the bytes the signatures read
  } else if (warn_) {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.rule = read.error().rule;
    d.message = "the module " + path + " cannot be read for its names: " + read.error().message;
    warn_(std::move(d));
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

}  // namespace gdmap::symbolize
