#include <gdmap/schema/element_type.hpp>

namespace gdmap {

std::string_view primitiveName(ElementType e) {
  switch (e) {
    case ElementType::Void: return "void";
    case ElementType::Boolean: return "bool";
    case ElementType::Char: return "char";
    case ElementType::I1: return "int8";
    case ElementType::U1: return "uint8";
    case ElementType::I2: return "int16";
    case ElementType::U2: return "uint16";
    case ElementType::I4: return "int32";
    case ElementType::U4: return "uint32";
    case ElementType::I8: return "int64";
    case ElementType::U8: return "uint64";
    case ElementType::R4: return "float32";
    case ElementType::R8: return "float64";
    case ElementType::String: return "string";
    case ElementType::TypedByRef: return "typedref";
    case ElementType::I: return "native int";
    case ElementType::U: return "native uint";
    case ElementType::Object: return "object";
    default: return {};
  }
}

}  // namespace gdmap
