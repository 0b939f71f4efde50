#pragma once
// ECMA-335 II.23.1.16 element type codes that may appear in a Type signature.
#include <cstdint>
#include <optional>
#include <string_view>

namespace gdmap {

enum class ElementType : std::uint8_t {
  Void = 0x01,
  Boolean = 0x02,
  Char = 0x03,
  I1 = 0x04,
  U1 = 0x05,
  I2 = 0x06,
  U2 = 0x07,
  I4 = 0x08,
  U4 = 0x09,
  I8 = 0x0A,
  U8 = 0x0B,
  R4 = 0x0C,
  R8 = 0x0D,
  String = 0x0E,
  Ptr = 0x0F,
  ByRef = 0x10,
  ValueType = 0x11,
  Class = 0x12,
  Var = 0x13,
  Array = 0x14,
  GenericInst = 0x15,
  TypedByRef = 0x16,
  I = 0x18,
  U = 0x19,
  FnPtr = 0x1B,
  Object = 0x1C,
  SzArray = 0x1D,
  MVar = 0x1E,
  CModReqd = 0x1F,
  CModOpt = 0x20,
  Sentinel = 0x41,
  Pinned = 0x45,
};

// Element types that stand alone: one byte, no operands (void, bool, ...,
// string, object, typedref, native int/uint).
constexpr bool isPrimitive(ElementType e) {
  const auto c = static_cast<std::uint8_t>(e);
  return (c >= 0x01 && c <= 0x0E) || c == 0x16 || c == 0x18 || c == 0x19 || c == 0x1C;
}

// The ILAsm keyword for a primitive (`int32`, `native uint`, ...), empty for others.
std::string_view primitiveName(ElementType e);

}  // namespace gdmap
