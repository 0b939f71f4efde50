// Type model -> canonical ILAsm type text (the parser is type_text_parse.cpp).
// It appends to one string and allocates nothing else: it prints hundreds of
// thousands of types per run. A model no encoder accepts (an unknown element
// type, missing operands, a bad calling convention) still prints, as
// something the parser rejects, rather than crashing.
#include <gdmap/schema/type_text.hpp>

#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/limits.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string_view>

namespace gdmap {
namespace {

void appendToken(Token token, std::string& out, const TypeNames* names) {
  if (names != nullptr) {
    std::string name = names->nameOf(token);
    if (!name.empty()) {
      out += name;
      return;
    }
  }
  appendHex32(token.value, out);
}

void appendNumber(std::int64_t value, std::string& out) {
  char text[24];
  const auto result = std::to_chars(text, text + sizeof text, value);
  out.append(text, result.ptr);
}

void printType(const Type& type, std::string& out, const TypeNames* names);

void printOperand(const Type& type, std::size_t index, std::string& out, const TypeNames* names) {
  if (index < type.operands.size()) printType(type.operands[index], out, names);
  else out += "<missing type>";
}

// Per dimension: `lo...hi`, `lo...`, `size` or nothing; rank 1 with neither
// is `...` so that it differs from `[]` (SZARRAY). No type within
// Limits::maxArrayRank has a larger rank; a model above it (which nothing
// encodes) prints only its described dimensions, then `rank(N)`, so that
// even rank 0x1FFFFFFF prints in a few bytes rather than 512 MB of commas.
void printShape(const ArrayShape& shape, std::string& out) {
  out += '[';
  if (shape.rank == 1 && shape.sizes.empty() && shape.lowerBounds.empty()) out += "...";
  const std::size_t described =
      std::min<std::size_t>(std::max(shape.sizes.size(), shape.lowerBounds.size()), shape.rank);
  for (std::size_t i = 0; i < described; ++i) {
    if (i > 0) out += ',';
    const bool hasLower = i < shape.lowerBounds.size();
    const bool hasSize = i < shape.sizes.size();
    if (hasLower) {
      const std::int64_t lower = shape.lowerBounds[i];
      appendNumber(lower, out);
      out += "...";
      if (hasSize) appendNumber(lower + static_cast<std::int64_t>(shape.sizes[i]) - 1, out);
    } else {
      appendNumber(shape.sizes[i], out);
    }
  }
  if (shape.rank > Limits::maxArrayRank) {
    if (described > 0) out += ',';
    out += "rank(";
    appendNumber(shape.rank, out);
    out += ')';
  } else if (shape.rank > described) {
    // The remaining dimensions are empty: only their commas show.
    out.append(shape.rank - std::max<std::size_t>(described, 1), ',');
  }
  out += ']';
}

void printCallingConvention(const FunctionPointerInfo& info, std::string& out) {
  const std::uint8_t c = info.callingConvention;
  if (c & callconv::kHasThis) out += "instance ";
  if (c & callconv::kExplicitThis) out += "explicit ";
  if (c & callconv::kGeneric) {
    out += "generic(";
    appendNumber(info.genericParameterCount, out);
    out += ") ";
  }
  if (!callconv::isValid(c)) {
    out += "callconv(";
    appendHex8(c, out);
    out += ") ";
    return;
  }
  switch (c & callconv::kKindMask) {
    case callconv::kCdecl: out += "unmanaged cdecl "; break;
    case callconv::kStdCall: out += "unmanaged stdcall "; break;
    case callconv::kThisCall: out += "unmanaged thiscall "; break;
    case callconv::kFastCall: out += "unmanaged fastcall "; break;
    case callconv::kVarArg: out += "vararg "; break;
    case callconv::kUnmanaged: out += "unmanaged "; break;
    default: break;  // default: no word
  }
}

void printFunctionPointer(const Type& type, std::string& out, const TypeNames* names) {
  out += "method ";
  printCallingConvention(type.method, out);
  printOperand(type, 0, out, names);
  out += " *(";
  const std::size_t parameters = type.operands.empty() ? 0 : type.operands.size() - 1;
  const std::optional<std::uint32_t>& sentinel = type.method.sentinel;
  for (std::size_t i = 0; i < parameters; ++i) {
    if (i > 0) out += ", ";
    if (sentinel && *sentinel == i) out += "..., ";
    printType(type.operands[i + 1], out, names);
  }
  if (sentinel && *sentinel >= parameters) out += parameters > 0 ? ", ..." : "...";
  out += ')';
}

// The operator a postfix form writes after its operand.
std::string_view postfixOperator(ElementType element) {
  switch (element) {
    case ElementType::Ptr: return "*";
    case ElementType::ByRef: return "&";
    case ElementType::SzArray: return "[]";
    default: return " pinned";
  }
}

void printType(const Type& type, std::string& out, const TypeNames* names) {
  switch (type.element) {
    case ElementType::Class:
      out += "class ";
      appendToken(type.token, out, names);
      return;
    case ElementType::ValueType:
      out += "valuetype ";
      appendToken(type.token, out, names);
      return;
    case ElementType::GenericInst:
      out += type.valueTypeHead ? "valuetype " : "class ";
      appendToken(type.token, out, names);
      out += '<';
      for (std::size_t i = 0; i < type.operands.size(); ++i) {
        if (i > 0) out += ", ";
        printType(type.operands[i], out, names);
      }
      out += '>';
      return;
    case ElementType::Var:
    case ElementType::MVar:
      out += type.element == ElementType::Var ? "!" : "!!";
      appendNumber(type.number, out);
      return;
    case ElementType::FnPtr: printFunctionPointer(type, out, names); return;
    // Postfix forms: the operand first, then the operator.
    case ElementType::Ptr:
    case ElementType::ByRef:
    case ElementType::SzArray:
    case ElementType::Pinned:
      printOperand(type, 0, out, names);
      out += postfixOperator(type.element);
      return;
    case ElementType::Array:
      printOperand(type, 0, out, names);
      printShape(type.shape, out);
      return;
    case ElementType::CModReqd:
    case ElementType::CModOpt:
      printOperand(type, 0, out, names);
      out += type.element == ElementType::CModReqd ? " modreq(" : " modopt(";
      appendToken(type.token, out, names);
      out += ')';
      return;
    default: break;
  }
  const std::string_view name = primitiveName(type.element);
  if (!name.empty()) {
    out += name;
  } else {
    out += "<element type ";
    appendHex8(static_cast<std::uint8_t>(type.element), out);
    out += '>';
  }
}

}  // namespace

void formatType(const Type& type, std::string& out) { printType(type, out, nullptr); }

std::string formatType(const Type& type) {
  std::string out;
  printType(type, out, nullptr);
  return out;
}

void formatType(const Type& type, std::string& out, const TypeNames& names) { printType(type, out, &names); }

void formatType(const Type& type, std::string& out, const TypeNames* names) { printType(type, out, names); }

std::string formatType(const Type& type, const TypeNames& names) {
  std::string out;
  printType(type, out, &names);
  return out;
}

}  // namespace gdmap
