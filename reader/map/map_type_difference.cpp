#include "map_type_difference.hpp"

#include <gdmap/schema/type_text.hpp>
#include "map_field_values.hpp"

#include <tuple>

namespace gdmap::detail {
namespace {

// Everything but the operands themselves.
bool sameNode(const Type& x, const Type& y) {
  return x.element == y.element && x.token == y.token && x.valueTypeHead == y.valueTypeHead && x.number == y.number &&
         x.shape == y.shape && x.method == y.method && x.operands.size() == y.operands.size();
}

// The field path of operand k, as typeFieldPath() names it.
std::string operandPath(const Type& t, std::size_t k) {
  switch (t.element) {
    case ElementType::GenericInst: return ".arguments[" + std::to_string(k) + "]";
    case ElementType::FnPtr: return k == 0 ? std::string(".return") : ".parameters[" + std::to_string(k - 1) + "]";
    default: return ".inner";
  }
}

std::string text(const Type& t, const TypeNames* names) {
  std::string out;
  formatType(t, out, names);
  return out;
}

}  // namespace

TypeDifference firstTypeDifference(const Type& a, const Type& b, const TypeNames* names) {
  TypeDifference d;
  const Type* x = &a;
  const Type* y = &b;
  // Iterative: the depth is bounded by the decoder, the stack need not be.
  while (sameNode(*x, *y)) {
    std::size_t k = 0;
    while (k < x->operands.size() && x->operands[k] == y->operands[k]) ++k;
    if (k == x->operands.size()) break;  // equal types: not called so
    d.path += operandPath(*x, k);
    x = &x->operands[k];
    y = &y->operands[k];
  }
  // The generic type alone changed: its head is the part to show.
  if (x->element == ElementType::GenericInst && y->element == ElementType::GenericInst && x->operands == y->operands) {
    const auto head = [](const Type& t) {
      return t.valueTypeHead ? Type::valueType(t.token) : Type::classType(t.token);
    };
    d.path += ".genericType";
    std::tie(d.a, d.b) = cappedPair(text(head(*x), names), text(head(*y), names));
    return d;
  }
  std::tie(d.a, d.b) = cappedPair(text(*x, names), text(*y, names));
  return d;
}

}  // namespace gdmap::detail
