#include <gdmap/schema/type.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace gdmap {
namespace {

Type wrap(ElementType element, Type inner) {
  Type t;
  t.element = element;
  t.operands.push_back(std::move(inner));
  return t;
}

Type withToken(ElementType element, Token token) {
  Type t;
  t.element = element;
  t.token = token;
  return t;
}

Type withNumber(ElementType element, std::uint32_t number) {
  Type t;
  t.element = element;
  t.number = number;
  return t;
}

}  // namespace

Type Type::primitive(ElementType e) {
  Type t;
  t.element = e;
  return t;
}

Type Type::classType(Token token) { return withToken(ElementType::Class, token); }

Type Type::valueType(Token token) { return withToken(ElementType::ValueType, token); }

Type Type::genericInstance(bool valueTypeHead, Token genericType, std::vector<Type> arguments) {
  Type t = withToken(ElementType::GenericInst, genericType);
  t.valueTypeHead = valueTypeHead;
  t.operands = std::move(arguments);
  return t;
}

Type Type::typeVariable(std::uint32_t index) { return withNumber(ElementType::Var, index); }

Type Type::methodVariable(std::uint32_t index) { return withNumber(ElementType::MVar, index); }

Type Type::pointer(Type pointee) { return wrap(ElementType::Ptr, std::move(pointee)); }
Type Type::byRef(Type referent) { return wrap(ElementType::ByRef, std::move(referent)); }
Type Type::szArray(Type element) { return wrap(ElementType::SzArray, std::move(element)); }
Type Type::pinned(Type inner) { return wrap(ElementType::Pinned, std::move(inner)); }

Type Type::array(Type element, ArrayShape shape) {
  Type t = wrap(ElementType::Array, std::move(element));
  t.shape = std::move(shape);
  return t;
}

Type Type::modified(bool required, Token modifier, Type inner) {
  Type t = wrap(required ? ElementType::CModReqd : ElementType::CModOpt, std::move(inner));
  t.token = modifier;
  return t;
}

Type Type::functionPointer(FunctionPointerInfo info, Type returnType, std::vector<Type> parameters) {
  Type t;
  t.element = ElementType::FnPtr;
  t.method = info;
  t.operands.reserve(parameters.size() + 1);
  t.operands.push_back(std::move(returnType));
  for (Type& p : parameters) t.operands.push_back(std::move(p));
  return t;
}

namespace {

// The operand whose bytes end `type`'s bytes, or nullptr when a token, a
// number or an array shape ends them. A FNPTR's last operand ends it unless
// it has a trailing sentinel (callers look at that first).
const Type* lastOperand(const Type& type) {
  switch (type.element) {
    case ElementType::Ptr:
    case ElementType::ByRef:
    case ElementType::SzArray:
    case ElementType::Pinned:
    case ElementType::CModReqd:
    case ElementType::CModOpt:
    case ElementType::GenericInst:
    case ElementType::FnPtr: return type.operands.empty() ? nullptr : &type.operands.back();
    default: return nullptr;
  }
}

bool hasTrailingSentinel(const Type& fnptr) {
  return !fnptr.operands.empty() && fnptr.method.sentinel == fnptr.operands.size() - 1;
}

}  // namespace

bool takesFollowingSentinel(const Type& type) {
  for (const Type* t = &type; t != nullptr; t = lastOperand(*t)) {
    if (t->element != ElementType::FnPtr) continue;
    if (callconv::isVarArg(t->method.callingConvention) && !t->method.sentinel) return true;
    if (hasTrailingSentinel(*t)) return false;
  }
  return false;
}

bool endsWithSentinel(const Type& type) {
  for (const Type* t = &type; t != nullptr; t = lastOperand(*t)) {
    if (t->element == ElementType::FnPtr && hasTrailingSentinel(*t)) return true;
  }
  return false;
}

SentinelConflict sentinelConflict(const Type& fnptr, std::uint32_t boundary) {
  const std::size_t parameterCount = fnptr.operands.size() - 1;
  const FunctionPointerInfo& m = fnptr.method;
  if (m.sentinel && *m.sentinel > parameterCount) return SentinelConflict::PastEnd;
  // operands[boundary] is the parameter before the boundary, or the return type.
  if (boundary < parameterCount) {
    return endsWithSentinel(fnptr.operands[boundary]) ? SentinelConflict::TrailingBeforeParameter
                                                      : SentinelConflict::None;
  }
  if (m.sentinel != boundary) return SentinelConflict::None;
  if (!callconv::isVarArg(m.callingConvention)) return SentinelConflict::TrailingNotVarArg;
  return takesFollowingSentinel(fnptr.operands[boundary]) ? SentinelConflict::TakenByType : SentinelConflict::None;
}

}  // namespace gdmap
