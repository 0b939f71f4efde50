#pragma once
// The data model of one ECMA-335 Type signature (II.23.2.12), general enough
// to hold every byte sequence the grammar allows (custom modifiers and
// `pinned` before any type, function pointers with full method signatures)
// so that decode -> model -> encode reproduces the bytes exactly (integers in
// their shortest form aside).
#include <gdmap/schema/element_type.hpp>
#include <gdmap/schema/limits.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace gdmap {

// Metadata tables a type token may name (the token's high byte).
enum class TokenTable : std::uint8_t { TypeRef = 0x01, TypeDef = 0x02, TypeSpec = 0x1B };

// A metadata token 0xTTRRRRRR: table TT, 1-based row RRRRRR.
struct Token {
  std::uint32_t value = 0;

  constexpr std::uint8_t table() const { return static_cast<std::uint8_t>(value >> 24); }
  constexpr std::uint32_t row() const { return value & 0x00FFFFFFu; }
  friend constexpr bool operator==(Token, Token) = default;
};

// ECMA-335 II.23.2.13. `sizes` and `lowerBounds` each describe a prefix of
// the dimensions; both are at most `rank` long. A type that has bytes has a
// rank of 1 to Limits::maxArrayRank (32).
struct ArrayShape {
  std::uint32_t rank = 1;
  std::vector<std::uint32_t> sizes;
  std::vector<std::int32_t> lowerBounds;
  friend bool operator==(const ArrayShape&, const ArrayShape&) = default;
};

// The first byte of a method signature (II.23.2.1-3): a kind in the low
// nibble and flags above it.
namespace callconv {
inline constexpr std::uint8_t kDefault = 0x00;
inline constexpr std::uint8_t kCdecl = 0x01;
inline constexpr std::uint8_t kStdCall = 0x02;
inline constexpr std::uint8_t kThisCall = 0x03;
inline constexpr std::uint8_t kFastCall = 0x04;
inline constexpr std::uint8_t kVarArg = 0x05;
inline constexpr std::uint8_t kUnmanaged = 0x09;
inline constexpr std::uint8_t kKindMask = 0x0F;
inline constexpr std::uint8_t kGeneric = 0x10;
inline constexpr std::uint8_t kHasThis = 0x20;
inline constexpr std::uint8_t kExplicitThis = 0x40;
// Whether the byte is one a FNPTR may carry: a known kind, no bit 0x80.
constexpr bool isValid(std::uint8_t c) {
  const std::uint8_t kind = c & kKindMask;
  return (c & 0x80) == 0 && (kind <= kVarArg || kind == kUnmanaged);
}
// Whether the signature takes variable arguments: only such a signature may
// end with a SENTINEL after its last parameter.
constexpr bool isVarArg(std::uint8_t c) { return (c & kKindMask) == kVarArg; }
}  // namespace callconv

// The method-signature part of a FNPTR that is not a type.
struct FunctionPointerInfo {
  std::uint8_t callingConvention = callconv::kDefault;
  // Written only when callingConvention has callconv::kGeneric.
  std::uint32_t genericParameterCount = 0;
  // Where SENTINEL (`...`) stands: before parameter[*sentinel]; equal to the
  // parameter count when nothing follows it (ilasm writes that form too),
  // which only a vararg signature may do, and only where no parameter of an
  // enclosing list follows it: elsewhere a 0x41 after the last parameter
  // belongs to the enclosing parameter list (the sentinel rule below).
  std::optional<std::uint32_t> sentinel;
  friend bool operator==(const FunctionPointerInfo&, const FunctionPointerInfo&) = default;
};

struct Type {
  ElementType element = ElementType::Object;
  // Class, ValueType: the type. GenericInst: the generic type definition.
  // CModReqd, CModOpt: the modifier type.
  Token token;
  // GenericInst: the generic type is a VALUETYPE (else a CLASS).
  bool valueTypeHead = false;
  // Var, MVar: the generic parameter's index.
  std::uint32_t number = 0;
  // Ptr, ByRef, SzArray, Array, Pinned, CModReqd, CModOpt: operands[0] is
  //   the type they apply to.
  // GenericInst: the type arguments (at least one).
  // FnPtr: operands[0] is the return type, the rest are the parameters.
  std::vector<Type> operands;
  ArrayShape shape;            // Array only.
  FunctionPointerInfo method;  // FnPtr only.

  friend bool operator==(const Type&, const Type&) = default;

  // Constructors for each form; they build the model, they do not validate
  // it (the encoder does).
  static Type primitive(ElementType e);
  static Type classType(Token t);
  static Type valueType(Token t);
  static Type genericInstance(bool valueTypeHead, Token genericType, std::vector<Type> arguments);
  static Type typeVariable(std::uint32_t index);    // !N
  static Type methodVariable(std::uint32_t index);  // !!N
  static Type pointer(Type pointee);
  static Type byRef(Type referent);
  static Type szArray(Type element);
  static Type array(Type element, ArrayShape shape);
  static Type pinned(Type inner);
  static Type modified(bool required, Token modifier, Type inner);
  static Type functionPointer(FunctionPointerInfo info, Type returnType, std::vector<Type> parameters);
};

// Where a SENTINEL (0x41) stands in bytes, every decoder agrees, and
// System.Reflection.Metadata is the reference: before a parameter a list
// still has to read, a 0x41 is always that list's sentinel, even right after
// a nested function pointer's last parameter. Only after the last parameter,
// where no enclosing list reads a parameter next, does a vararg FNPTR that
// has none yet take a 0x41 as its trailing sentinel (ilasm's
// `1B 05 01 08 08 41`); the innermost such pointer takes it. The two
// functions below and sentinelConflict are that rule seen from a model;
// reader/signature/signature_walker.hpp is the same rule seen from bytes.

// Whether a trailing SENTINEL written right after the bytes of `type` would
// be read as part of `type`: true when those bytes end with the parameter
// list of a vararg FNPTR that has no SENTINEL of its own.
bool takesFollowingSentinel(const Type& type);

// Whether the bytes of `type` end with a FNPTR's trailing SENTINEL: before
// a parameter of an enclosing list that 0x41 would be read as that list's.
bool endsWithSentinel(const Type& type);

// What would read back otherwise at `boundary` of the FNPTR `fnptr`'s
// parameter list: before parameter[boundary], or after the last parameter
// when boundary is the parameter count.
enum class SentinelConflict : std::uint8_t {
  None,
  // method.sentinel is past the last parameter.
  PastEnd,
  // A trailing sentinel in a signature that is not vararg.
  TrailingNotVarArg,
  // A trailing sentinel right after a type that takes it (takesFollowingSentinel).
  TakenByType,
  // The type before a parameter ends with its own trailing sentinel
  // (endsWithSentinel), which would be read as this list's.
  TrailingBeforeParameter,
};
SentinelConflict sentinelConflict(const Type& fnptr, std::uint32_t boundary);

}  // namespace gdmap
