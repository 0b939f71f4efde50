#pragma once
// Internal to reader/map: where two types that differ first differ, named
// with the signature reader's field paths (type_decoder.hpp), so that a
// change deep in a long nested generic is shown as the part that changed,
// not as two long texts cut alike (diffMaps()).
#include <gdmap/schema/type.hpp>
#include <gdmap/schema/type_names.hpp>

#include <string>

namespace gdmap::detail {

struct TypeDifference {
  // ".arguments[0].inner", ".genericType", ".return", ".parameters[1]";
  // "" when the types differ at their top.
  std::string path;
  std::string a;  // the text of A's type at `path`, capped around the difference
  std::string b;  // the same in B
};

// `a` and `b` differ. The path descends while one operand alone holds the
// first difference; a type of up to Limits::maxTypeDepth levels costs
// O(depth * size).
TypeDifference firstTypeDifference(const Type& a, const Type& b, const TypeNames* names);

}  // namespace gdmap::detail
