#pragma once
// Names instead of tokens in type text (`--names ASSEMBLY`): formatType and
// parseType take a TypeNames, which an assembly's metadata implements
// (gdmap::metadata::AssemblyTypeNames). The text form is ILAsm's:
// `class [mscorlib]System.Collections.Generic.List`1<int32>` for a TypeRef,
// `valuetype Ns.Outer/Inner` for a TypeDef, and a part holding any other
// character in single quotes: `class Ns.'<>c'`.
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/type.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace gdmap {

class TypeNames {
 public:
  virtual ~TypeNames() = default;
  // The text naming `token`, as type text writes it (quoted where needed),
  // or empty when the token has no name here (it is then written in hex).
  virtual std::string nameOf(Token token) const = 0;
  // The token named by `name`, a name as typeNameEnd delimits it. Errors
  // (unknown-type-name, ambiguous-type-name) have an offset within `name`.
  virtual Expected<Token> tokenOf(std::string_view name) const = 0;
};

// Accepts every well-formed name, as a placeholder TypeRef token, and names
// no token: what checks type text that may carry names (an extracted
// description's instantiations) when no assembly is at hand.
class AnyTypeNames final : public TypeNames {
 public:
  std::string nameOf(Token) const override { return {}; }
  Expected<Token> tokenOf(std::string_view) const override { return Token{0x01000001}; }
};

// Where the type name starting at text[pos] ends: an optional `[assembly]`,
// then parts of [A-Za-z0-9_.`$@?] or 'quoted', joined by '/'. Returns pos
// when no name starts there (a digit or anything else).
std::size_t typeNameEnd(std::string_view text, std::size_t pos);

// Appends one name part (a namespace-qualified name or a nested name),
// quoted when it holds a character a bare part cannot.
void appendNamePart(std::string_view part, std::string& out);

// The canonical, unquoted form of a name as typeNameEnd delimits it:
// quotes removed, so that `Ns.'Name'` and `Ns.Name` are the same key.
std::string unquotedTypeName(std::string_view name);

}  // namespace gdmap
