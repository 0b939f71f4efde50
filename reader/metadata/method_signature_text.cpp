#include "method_signature_text.hpp"

#include <string_view>

// Every Type here came from the signature walker (decodeType) or the type
// text parser (parseType), both of which bound the nesting by
// Limits::maxTypeDepth: the recursion below is bounded by it too.
namespace gdmap::metadata {
namespace {

// CoreLib's name of a primitive: SigFormat's short one (`Int32`; `object`
// and `string` in full) and the type's own (`System.Int32`).
struct PrimitiveName {
  std::string_view parameter;
  std::string_view type;
};

std::optional<PrimitiveName> primitive(ElementType e) {
  switch (e) {
    case ElementType::Void: return PrimitiveName{"Void", "System.Void"};
    case ElementType::Boolean: return PrimitiveName{"Boolean", "System.Boolean"};
    case ElementType::Char: return PrimitiveName{"Char", "System.Char"};
    case ElementType::I1: return PrimitiveName{"SByte", "System.SByte"};
    case ElementType::U1: return PrimitiveName{"Byte", "System.Byte"};
    case ElementType::I2: return PrimitiveName{"Int16", "System.Int16"};
    case ElementType::U2: return PrimitiveName{"UInt16", "System.UInt16"};
    case ElementType::I4: return PrimitiveName{"Int32", "System.Int32"};
    case ElementType::U4: return PrimitiveName{"UInt32", "System.UInt32"};
    case ElementType::I8: return PrimitiveName{"Int64", "System.Int64"};
    case ElementType::U8: return PrimitiveName{"UInt64", "System.UInt64"};
    case ElementType::R4: return PrimitiveName{"Single", "System.Single"};
    case ElementType::R8: return PrimitiveName{"Double", "System.Double"};
    case ElementType::I: return PrimitiveName{"IntPtr", "System.IntPtr"};
    case ElementType::U: return PrimitiveName{"UIntPtr", "System.UIntPtr"};
    case ElementType::Object: return PrimitiveName{"System.Object", "System.Object"};
    case ElementType::String: return PrimitiveName{"System.String", "System.String"};
    case ElementType::TypedByRef: return PrimitiveName{"TypedReference", "System.TypedReference"};
    default: return std::nullopt;
  }
}

// TypeNameBuilder::EscapeName: a backslash before each character type
// names reserve.
void appendEscaped(std::string_view text, std::string& out) {
  for (const char c : text) {
    if (c == ',' || c == '[' || c == ']' || c == '&' || c == '*' || c == '+' || c == '\\') out += '\\';
    out += c;
  }
}

// An ARRAY's rank as both spellings write it after the element: `[,]`.
void appendRankCommas(std::uint32_t rank, std::string& out) {
  for (std::uint32_t i = 1; i < rank; ++i) out += ',';
}

bool appendAssemblyOf(const Type& type, const TypeNamer& names, std::string& out);

}  // namespace

void appendNestedName(const TypePath& path, std::string& out) {
  for (std::size_t i = 0; i < path.parts.size(); ++i) {
    if (i != 0) out += '+';
    appendEscaped(path.parts[i], out);
  }
}

bool appendParameterText(const Type& type, const TypeNamer& names, const SignatureContext& context, std::string& out) {
  if (const std::optional<PrimitiveName> p = primitive(type.element)) {
    out += p->parameter;
    return true;
  }
  switch (type.element) {
    case ElementType::CModReqd:
    case ElementType::CModOpt:
    case ElementType::Pinned:  // SigParser::GetElemType skips custom modifiers
      return !type.operands.empty() && appendParameterText(type.operands[0], names, context, out);
    case ElementType::Class:
    case ElementType::ValueType: {
      // The type's own namespace and name: no enclosing type.
      const std::optional<TypePath> path = names.pathOf(type.token);
      if (!path || path->parts.empty()) return false;
      out += path->parts.back();
      return true;
    }
    case ElementType::GenericInst: {
      const std::optional<TypePath> path = names.pathOf(type.token);
      if (!path || path->parts.empty()) return false;
      out += path->parts.back();
      out += '<';
      for (std::size_t i = 0; i < type.operands.size(); ++i) {
        if (i != 0) out += ',';
        if (!appendParameterText(type.operands[i], names, context, out)) return false;
      }
      out += '>';
      return true;
    }
    case ElementType::Var:
    case ElementType::MVar: {
      const bool method = type.element == ElementType::MVar;
      const std::vector<Type>* arguments = method ? context.methodArguments : context.typeArguments;
      if (arguments != nullptr && type.number < arguments->size()) {
        // The argument, spelled as SigFormat::AddType spells a type handle:
        // the same forms, with no parameter left to stand for.
        return appendParameterText((*arguments)[type.number], names, SignatureContext{}, out);
      }
      out += method ? "!!" : "!";
      out += std::to_string(type.number);
      return true;
    }
    case ElementType::SzArray:
    case ElementType::Array:
    case ElementType::Ptr:
    case ElementType::ByRef: {
      if (type.operands.empty() || !appendParameterText(type.operands[0], names, context, out)) return false;
      if (type.element == ElementType::Ptr) {
        out += '*';
      } else if (type.element == ElementType::ByRef) {
        out += " ByRef";
      } else {
        out += '[';
        if (type.element == ElementType::Array) appendRankCommas(type.shape.rank, out);
        out += ']';
      }
      return true;
    }
    case ElementType::FnPtr: {
      if (type.operands.empty() || !appendParameterText(type.operands[0], names, context, out)) return false;
      out += " (";
      for (std::size_t i = 1; i < type.operands.size(); ++i) {
        if (i != 1) out += ", ";
        if (!appendParameterText(type.operands[i], names, context, out)) return false;
      }
      if (callconv::isVarArg(type.method.callingConvention)) out += type.operands.size() > 1 ? ", ..." : "...";
      out += ')';
      return true;
    }
    default: return false;
  }
}

bool appendTypeStringName(const Type& type, const TypeNamer& names, std::string& out) {
  if (const std::optional<PrimitiveName> p = primitive(type.element)) {
    out += p->type;
    return true;
  }
  switch (type.element) {
    case ElementType::Class:
    case ElementType::ValueType:
    case ElementType::GenericInst: {
      const std::optional<TypePath> path = names.pathOf(type.token);
      if (!path || path->parts.empty()) return false;
      appendNestedName(*path, out);
      return type.element != ElementType::GenericInst || appendInstantiationText(type.operands, names, out);
    }
    case ElementType::SzArray:
    case ElementType::Array:
    case ElementType::Ptr:
    case ElementType::ByRef: {
      if (type.operands.empty() || !appendTypeStringName(type.operands[0], names, out)) return false;
      if (type.element == ElementType::Ptr) {
        out += '*';
      } else if (type.element == ElementType::ByRef) {
        out += '&';
      } else if (type.element == ElementType::SzArray) {
        out += "[]";
      } else {
        // TypeNameBuilder::AddArray: a one-dimensional ARRAY is `[*]`.
        out += type.shape.rank == 1 ? "[*" : "[";
        appendRankCommas(type.shape.rank, out);
        out += ']';
      }
      return true;
    }
    case ElementType::CModReqd:
    case ElementType::CModOpt:
    case ElementType::Pinned: return !type.operands.empty() && appendTypeStringName(type.operands[0], names, out);
    default: return false;  // a generic parameter or a function pointer: no argument a body is compiled for
  }
}

bool appendInstantiationText(const std::vector<Type>& arguments, const TypeNamer& names, std::string& out) {
  if (arguments.empty()) return true;
  out += '[';
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    // Each argument with its assembly (FormatFullInst), in brackets of its own.
    out += i == 0 ? "[" : ",[";
    if (!appendTypeStringName(arguments[i], names, out)) return false;
    out += ", ";
    if (!appendAssemblyOf(arguments[i], names, out)) return false;
    out += ']';
  }
  out += ']';
  return true;
}

namespace {

// The assembly TypeString names after a type: its definition's, an array's,
// pointer's or byref's element's.
bool appendAssemblyOf(const Type& type, const TypeNamer& names, std::string& out) {
  if (primitive(type.element)) {
    out += names.coreLibrary();
    return true;
  }
  switch (type.element) {
    case ElementType::Class:
    case ElementType::ValueType:
    case ElementType::GenericInst: {
      const std::optional<TypePath> path = names.pathOf(type.token);
      if (!path || path->assembly.empty()) return false;
      out += path->assembly;
      return true;
    }
    default: return !type.operands.empty() && appendAssemblyOf(type.operands[0], names, out);
  }
}

}  // namespace
}  // namespace gdmap::metadata
