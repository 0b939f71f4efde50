#pragma once
// A process's generic instantiations as ILAsm type text, the form the
// R2R reader and the IL descriptions use (`class [Asm]Ns.Name<int32>`,
// `__Canon`, `string[]`), each type named from its module's metadata
// (ModuleNames): what `gdmap il extract --pid/CORE` and `gdmap il locate`
// write for a JIT-compiled body of a generic method or type.
#include <gdmap/reader/runtime_code.hpp>
#include <gdmap/schema/il_map.hpp>
#include <gdmap/symbolize/module_names.hpp>
#include <gdmap/symbolize/module_paths.hpp>

#include <optional>
#include <string>

namespace gdmap::symbolize {

class RuntimeTypeText {
 public:
  // `code` and `names` must outlive the object.
  RuntimeTypeText(const runtime::RuntimeCode& code, ModuleNames& names) : paths_(code), names_(&names) {}

  // The method's instantiation, or nothing when it has none or one of its
  // types cannot be named (a generic parameter, a module without a file).
  std::optional<il::Instantiation> instantiation(const runtime::MethodInstantiation& inst);
  // One type's text, or nothing as above.
  std::optional<std::string> text(const runtime::RuntimeType& type);

 private:
  ModulePaths paths_;
  ModuleNames* names_;
};

}  // namespace gdmap::symbolize
