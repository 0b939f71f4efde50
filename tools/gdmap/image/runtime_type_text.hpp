#pragma once
// A process's generic instantiations as ILAsm type text, the form the
// R2R reader and the IL descriptions use (`class [Asm]Ns.Name<int32>`,
// `__Canon`, `string[]`), named from the modules' metadata.
#include "image/module_names.hpp"

#include <gdmap/reader/runtime_code.hpp>
#include <gdmap/schema/il_map.hpp>

#include <optional>
#include <string>
#include <unordered_map>

namespace gdmap::cli {

class RuntimeTypeText {
 public:
  RuntimeTypeText(const runtime::RuntimeCode& code, ModuleNames& names) : code_(code), names_(names) {}

  // The method's instantiation, or nothing when it has none or one of its
  // types cannot be named (a generic parameter, a module without a file).
  std::optional<il::Instantiation> instantiation(const runtime::MethodInstantiation& inst);
  std::optional<std::string> text(const runtime::RuntimeType& type);

 private:
  const std::string& modulePath(std::uint64_t module);
  const runtime::RuntimeCode& code_;
  ModuleNames& names_;
  std::unordered_map<std::uint64_t, std::string> paths_;
};

}  // namespace gdmap::cli
