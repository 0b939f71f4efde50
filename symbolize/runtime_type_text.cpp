#include <gdmap/symbolize/r2r_assemblies.hpp>
#include <gdmap/symbolize/runtime_type_text.hpp>

#include <array>
#include <string_view>
#include <utility>

namespace gdmap::symbolize {
namespace {

// CoreLib's types ILAsm has a keyword for.
std::optional<std::string_view> keyword(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 17> kKeywords{{
      {"System.Boolean", "bool"},
      {"System.Char", "char"},
      {"System.SByte", "int8"},
      {"System.Byte", "uint8"},
      {"System.Int16", "int16"},
      {"System.UInt16", "uint16"},
      {"System.Int32", "int32"},
      {"System.UInt32", "uint32"},
      {"System.Int64", "int64"},
      {"System.UInt64", "uint64"},
      {"System.Single", "float32"},
      {"System.Double", "float64"},
      {"System.IntPtr", "native int"},
      {"System.UIntPtr", "native uint"},
      {"System.Object", "object"},
      {"System.String", "string"},
      {"System.__Canon", "__Canon"},
  }};
  for (const auto& [type, word] : kKeywords) {
    if (type == name) return word;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> RuntimeTypeText::text(const runtime::RuntimeType& type) {
  using Kind = runtime::RuntimeType::Kind;
  switch (type.kind) {
    case Kind::Canon: return std::string("__Canon");
    case Kind::SzArray:
    case Kind::Pointer:
    case Kind::ByRef: {
      if (type.arguments.size() != 1) return std::nullopt;
      std::optional<std::string> element = text(type.arguments[0]);
      if (!element) return std::nullopt;
      return *element + (type.kind == Kind::SzArray ? "[]" : type.kind == Kind::Pointer ? "*" : "&");
    }
    case Kind::Class:
    case Kind::ValueType: {
      const std::string& path = paths_.of(type.module);
      const std::string name = names_->typeName(path, type.typeDef);
      if (name.empty()) return std::nullopt;
      const std::string assembly = assemblySimpleName(path);
      if (assembly == "System.Private.CoreLib" && type.arguments.empty()) {
        if (const std::optional<std::string_view> word = keyword(name)) return std::string(*word);
      }
      std::string out = std::string(type.kind == Kind::ValueType ? "valuetype [" : "class [") + assembly + "]" + name;
      if (!type.arguments.empty()) {
        out += '<';
        for (std::size_t i = 0; i < type.arguments.size(); ++i) {
          std::optional<std::string> arg = text(type.arguments[i]);
          if (!arg) return std::nullopt;
          out += (i ? ", " : "") + *arg;
        }
        out += '>';
      }
      return out;
    }
    case Kind::Array:
    case Kind::Other: break;
  }
  return std::nullopt;
}

std::optional<il::Instantiation> RuntimeTypeText::instantiation(const runtime::MethodInstantiation& inst) {
  if (inst.typeArguments.empty() && inst.methodArguments.empty()) return std::nullopt;
  il::Instantiation out;
  for (const runtime::RuntimeType& t : inst.typeArguments) {
    std::optional<std::string> s = text(t);
    if (!s) return std::nullopt;
    out.typeArguments.push_back(std::move(*s));
  }
  for (const runtime::RuntimeType& t : inst.methodArguments) {
    std::optional<std::string> s = text(t);
    if (!s) return std::nullopt;
    out.methodArguments.push_back(std::move(*s));
  }
  return out;
}

}  // namespace gdmap::symbolize
