#include <gdmap/schema/type.hpp>

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

bool takesFollowingSentinel(const Type& type) {
  // Walk down the types whose bytes end with their last operand's bytes.
  const Type* t = &type;
  for (;;) {
    switch (t->element) {
      case ElementType::Ptr:
      case ElementType::ByRef:
      case ElementType::SzArray:
      case ElementType::Pinned:
      case ElementType::CModReqd:
      case ElementType::CModOpt:
      case ElementType::GenericInst: break;
      case ElementType::FnPtr: {
        const FunctionPointerInfo& m = t->method;
        if (callconv::isVarArg(m.callingConvention) && !m.sentinel) return true;
        // A trailing SENTINEL is its last byte; otherwise the last parameter
        // (or the return type, with none) ends it.
        if (!t->operands.empty() && m.sentinel == t->operands.size() - 1) return false;
        break;
      }
      default: return false;  // ends with a token, a number or an array shape
    }
    if (t->operands.empty()) return false;
    t = &t->operands.back();
  }
}

}  // namespace gdmap
