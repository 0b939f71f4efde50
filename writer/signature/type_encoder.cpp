// Type model -> bytes. The model can hold what the grammar cannot express,
// so every field is checked on the way; an error names the field by the
// path scheme documented in reader/signature/type_decoder.cpp (without the leading
// dot), e.g. "arguments[1].shape.rank: array rank must be at least 1".
#include <gdmap/internal/plural.hpp>
#include <gdmap/writer/type_encoder.hpp>

#include <gdmap/schema/compressed_int.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/limits.hpp>
#include <gdmap/schema/rules.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gdmap {
namespace {

const char* elementName(ElementType e) {
  switch (e) {
    case ElementType::Ptr: return "PTR";
    case ElementType::ByRef: return "BYREF";
    case ElementType::SzArray: return "SZARRAY";
    case ElementType::Array: return "ARRAY";
    case ElementType::Pinned: return "PINNED";
    case ElementType::CModReqd: return "CMOD_REQD";
    case ElementType::CModOpt: return "CMOD_OPT";
    case ElementType::Class: return "CLASS";
    case ElementType::ValueType: return "VALUETYPE";
    case ElementType::Var: return "VAR";
    case ElementType::MVar: return "MVAR";
    case ElementType::GenericInst: return "GENERICINST";
    case ElementType::FnPtr: return "FNPTR";
    default: return "a primitive type";
  }
}

class TypeEncoder {
 public:
  explicit TypeEncoder(Bytes& out) : out_(out) {}

  bool encode(const Type& type) { return write(type, 1); }
  const Error& error() const { return error_; }

 private:
  struct Step {
    const char* name;
    std::optional<std::uint32_t> index;
  };

  bool fail(const char* field, std::optional<std::uint32_t> index, const std::string& message, const char* rule) {
    std::string text;
    for (const Step& step : path_) appendStep(text, step);
    if (field != nullptr) appendStep(text, Step{field, index});
    if (!text.empty()) text += ": ";
    error_ = Error{0, text + message, rule};
    return false;
  }
  bool fail(const std::string& message, const char* rule) { return fail(nullptr, std::nullopt, message, rule); }

  static void appendStep(std::string& text, const Step& step) {
    if (!text.empty()) text += '.';
    text += step.name;
    if (!step.index) return;
    // Appended piece by piece: `"[" + std::string` trips a false g++ 12
    // -Wrestrict warning at -O2.
    text += '[';
    text += std::to_string(*step.index);
    text += ']';
  }

  void byte(std::uint8_t b) { out_.push_back(b); }

  bool unsignedValue(const char* field, std::optional<std::uint32_t> index, std::uint32_t value) {
    if (appendCompressedUInt(out_, value)) return true;
    return fail(field, index, std::to_string(value) + " is larger than a compressed integer can hold (0x1FFFFFFF)",
                rules::kValueOutOfRange);
  }

  // TypeDefOrRefOrSpecEncoded (II.23.2.8).
  bool token(const char* field, Token token, bool allowTypeSpec) {
    std::uint32_t tag = 0;
    switch (token.table()) {
      case 0x02: tag = 0; break;
      case 0x01: tag = 1; break;
      case 0x1B:
        if (!allowTypeSpec) {
          return fail(field, std::nullopt, "TypeSpec after CLASS/VALUETYPE: only a TypeDef or TypeRef may follow",
                      rules::kInvalidToken);
        }
        tag = 2;
        break;
      default:
        return fail(field, std::nullopt,
                    "table " + hex8(token.table()) + " is not TypeDef (0x02), TypeRef (0x01) or TypeSpec (0x1b)",
                    rules::kInvalidToken);
    }
    // A 24-bit row shifted by two always fits the 29 bits.
    appendCompressedUInt(out_, token.row() << 2 | tag);
    return true;
  }

  bool operandCount(const Type& t, std::size_t expected) {
    if (t.operands.size() == expected) return true;
    return fail(std::string(elementName(t.element)) + " takes " + plural(expected, "operand", "operands") + ", found " +
                    std::to_string(t.operands.size()),
                rules::kInvalidType);
  }

  bool subtype(const char* field, std::optional<std::uint32_t> index, const Type& t, unsigned depth) {
    path_.push_back(Step{field, index});
    if (!write(t, depth + 1)) return false;
    path_.pop_back();
    return true;
  }

  bool write(const Type& t, unsigned depth) {
    if (depth > Limits::maxTypeDepth) {
      return fail("types nest deeper than the limit of " + std::to_string(Limits::maxTypeDepth),
                  rules::kTypeNestingTooDeep);
    }
    const auto code = static_cast<std::uint8_t>(t.element);
    if (isPrimitive(t.element)) {
      if (!operandCount(t, 0)) return false;
      byte(code);
      return true;
    }
    switch (t.element) {
      case ElementType::Ptr:
      case ElementType::ByRef:
      case ElementType::SzArray:
      case ElementType::Pinned:
        if (!operandCount(t, 1)) return false;
        byte(code);
        return subtype("inner", std::nullopt, t.operands[0], depth);
      case ElementType::CModReqd:
      case ElementType::CModOpt:
        if (!operandCount(t, 1)) return false;
        byte(code);
        return token("modifier", t.token, true) && subtype("inner", std::nullopt, t.operands[0], depth);
      case ElementType::Class:
      case ElementType::ValueType:
        if (!operandCount(t, 0)) return false;
        byte(code);
        return token("token", t.token, false);
      case ElementType::Var:
      case ElementType::MVar:
        if (!operandCount(t, 0)) return false;
        byte(code);
        return unsignedValue("index", std::nullopt, t.number);
      case ElementType::Array:
        if (!operandCount(t, 1)) return false;
        byte(code);
        // The rank byte follows the element type's bytes; Limits keeps it
        // below 0x41, so it is never read as a SENTINEL ending them.
        static_assert(Limits::maxArrayRank < static_cast<std::uint8_t>(ElementType::Sentinel));
        return subtype("inner", std::nullopt, t.operands[0], depth) && shape(t.shape);
      case ElementType::GenericInst: return genericInstance(t, depth);
      case ElementType::FnPtr: return functionPointer(t, depth);
      case ElementType::Sentinel:
        return fail("SENTINEL (0x41) is not a type: a function pointer records it in method.sentinel",
                    rules::kInvalidSentinel);
      default:
        return fail("element type " + hex8(code) + " is not valid in a type signature", rules::kUnknownElementType);
    }
  }

  // NumSizes or NumLoBounds: at most one per dimension.
  bool dimensionCount(const char* path, std::size_t count, std::uint32_t rank, const char* what) {
    if (count > rank) {
      return fail(path, std::nullopt,
                  std::to_string(count) + " " + what + " for an array of rank " + std::to_string(rank),
                  rules::kInvalidArrayShape);
    }
    appendCompressedUInt(out_, static_cast<std::uint32_t>(count));
    return true;
  }

  // ArrayShape (II.23.2.13).
  bool shape(const ArrayShape& s) {
    if (s.rank == 0)
      return fail("shape.rank", std::nullopt, "array rank must be at least 1", rules::kInvalidArrayShape);
    if (s.rank > Limits::maxArrayRank) {
      return fail(
          "shape.rank", std::nullopt,
          "array rank " + std::to_string(s.rank) + " is above the limit of " + std::to_string(Limits::maxArrayRank),
          rules::kArrayRankTooLarge);
    }
    appendCompressedUInt(out_, s.rank);
    if (!dimensionCount("shape.sizeCount", s.sizes.size(), s.rank, "sizes")) return false;
    for (std::size_t i = 0; i < s.sizes.size(); ++i) {
      if (!unsignedValue("shape.sizes", static_cast<std::uint32_t>(i), s.sizes[i])) return false;
    }
    if (!dimensionCount("shape.lowerBoundCount", s.lowerBounds.size(), s.rank, "lower bounds")) return false;
    for (std::size_t i = 0; i < s.lowerBounds.size(); ++i) {
      if (!appendCompressedInt(out_, s.lowerBounds[i])) {
        return fail("shape.lowerBounds", static_cast<std::uint32_t>(i),
                    std::to_string(s.lowerBounds[i]) +
                        " is outside the signed compressed integer range (-268435456 to 268435455)",
                    rules::kValueOutOfRange);
      }
    }
    return true;
  }

  // GENERICINST (CLASS | VALUETYPE) TypeDefOrRefEncoded GenArgCount Type+.
  bool genericInstance(const Type& t, unsigned depth) {
    if (t.operands.empty()) {
      return fail("argumentCount", std::nullopt, "GENERICINST needs at least one type argument",
                  rules::kInvalidGenericInstance);
    }
    if (t.operands.size() > Limits::maxGenericArguments) {
      return fail("argumentCount", std::nullopt,
                  std::to_string(t.operands.size()) + " type arguments are more than the limit of " +
                      std::to_string(Limits::maxGenericArguments),
                  rules::kCountTooLarge);
    }
    byte(static_cast<std::uint8_t>(ElementType::GenericInst));
    byte(static_cast<std::uint8_t>(t.valueTypeHead ? ElementType::ValueType : ElementType::Class));
    if (!token("genericType.token", t.token, false)) return false;
    appendCompressedUInt(out_, static_cast<std::uint32_t>(t.operands.size()));
    for (std::size_t i = 0; i < t.operands.size(); ++i) {
      if (!subtype("arguments", static_cast<std::uint32_t>(i), t.operands[i], depth)) return false;
    }
    return true;
  }

  // Where the decoder would read a SENTINEL back (type.hpp, the sentinel
  // rule): each boundary of the list, before a parameter and after the last.
  bool sentinelsFit(const Type& t) {
    const FunctionPointerInfo& m = t.method;
    const auto parameterCount = static_cast<std::uint32_t>(t.operands.size() - 1);
    for (std::uint32_t boundary = 0; boundary <= parameterCount; ++boundary) {
      switch (sentinelConflict(t, boundary)) {
        case SentinelConflict::None: break;
        case SentinelConflict::PastEnd:
          return fail(
              "sentinel", std::nullopt,
              "SENTINEL before parameter " + std::to_string(*m.sentinel) + " of " + std::to_string(parameterCount),
              rules::kInvalidSentinel);
        case SentinelConflict::TrailingNotVarArg:
          return fail("sentinel", std::nullopt,
                      "a SENTINEL after the last parameter is allowed only in a vararg signature (calling "
                      "convention kind 5); here a 0x41 would be read as the enclosing parameter list's",
                      rules::kInvalidSentinel);
        case SentinelConflict::TakenByType:
          return fail("sentinel", std::nullopt,
                      "a SENTINEL right after a vararg function pointer type that has no SENTINEL of its own "
                      "would be read as that function pointer's",
                      rules::kInvalidSentinel);
        case SentinelConflict::TrailingBeforeParameter:
          return fail(boundary == 0 ? "return" : "parameters",
                      boundary == 0 ? std::nullopt : std::optional<std::uint32_t>(boundary - 1),
                      "ends with a function pointer's trailing SENTINEL, which a decoder reads as the SENTINEL of "
                      "this parameter list since parameter " +
                          std::to_string(boundary) + " follows",
                      rules::kInvalidSentinel);
      }
    }
    return true;
  }

  // FNPTR MethodDefSig/MethodRefSig (II.23.2.1-2).
  bool functionPointer(const Type& t, unsigned depth) {
    const FunctionPointerInfo& m = t.method;
    if (t.operands.empty())
      return fail("return", std::nullopt, "FNPTR needs a return type (operands[0])", rules::kInvalidType);
    const std::size_t parameterCount = t.operands.size() - 1;
    if (!callconv::isValid(m.callingConvention)) {
      return fail("callingConvention", std::nullopt,
                  "calling convention " + hex8(m.callingConvention) +
                      " is invalid: its kind (low nibble) must be 0-5 or 9 and bit 0x80 must be clear",
                  rules::kInvalidCallingConvention);
    }
    const bool generic = (m.callingConvention & callconv::kGeneric) != 0;
    if (!generic && m.genericParameterCount != 0) {
      return fail("genericParameterCount", std::nullopt,
                  std::to_string(m.genericParameterCount) +
                      " generic parameters without the generic flag (0x10) in the calling convention",
                  rules::kInvalidCallingConvention);
    }
    if (parameterCount > Limits::maxFunctionPointerParameters) {
      return fail("parameterCount", std::nullopt,
                  std::to_string(parameterCount) + " parameters are more than the limit of " +
                      std::to_string(Limits::maxFunctionPointerParameters),
                  rules::kCountTooLarge);
    }
    if (!sentinelsFit(t)) return false;
    byte(static_cast<std::uint8_t>(ElementType::FnPtr));
    byte(m.callingConvention);
    if (generic && !unsignedValue("genericParameterCount", std::nullopt, m.genericParameterCount)) return false;
    appendCompressedUInt(out_, static_cast<std::uint32_t>(parameterCount));
    if (!subtype("return", std::nullopt, t.operands[0], depth)) return false;
    for (std::size_t i = 0; i <= parameterCount; ++i) {
      if (m.sentinel == i) byte(static_cast<std::uint8_t>(ElementType::Sentinel));
      if (i == parameterCount) break;
      if (!subtype("parameters", static_cast<std::uint32_t>(i), t.operands[i + 1], depth)) return false;
    }
    return true;
  }

  Bytes& out_;
  std::vector<Step> path_;
  Error error_;
};

}  // namespace

Status encodeType(const Type& type, Bytes& out) {
  const std::size_t originalSize = out.size();
  TypeEncoder encoder(out);
  if (encoder.encode(type)) return Success{};
  out.resize(originalSize);
  return encoder.error();
}

Expected<Bytes> encodeType(const Type& type) {
  Bytes out;
  Status status = encodeType(type, out);
  if (!status) return status.error();
  return out;
}

}  // namespace gdmap
