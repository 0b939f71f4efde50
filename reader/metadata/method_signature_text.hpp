#pragma once
// The two spellings of a type in SOS's method names (method_signature.hpp):
// the runtime's TypeString (the declaring type and the instantiations'
// arguments: `Ns.Outer+Inner`, `[[System.Int32, System.Private.CoreLib]]`)
// and its SigFormat (the parameters: `Int32`, `Inner`, `List`1<Int32> ByRef`).
// Both format a decoded Type (the signature walker's model) whose tokens a
// TypeNamer names.
#include <gdmap/schema/type.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gdmap::metadata {

// Where a type is defined: its name parts, outermost enclosing type first
// (each `Ns.Name`, unescaped), and its assembly's simple name.
struct TypePath {
  std::vector<std::string> parts;
  std::string assembly;
};

class TypeNamer {
 public:
  virtual ~TypeNamer() = default;
  // The type `token` names; nullopt when it cannot be named.
  virtual std::optional<TypePath> pathOf(Token token) const = 0;
  // The assembly that defines the primitives, `object` and `string`.
  virtual const std::string& coreLibrary() const = 0;
};

// What a VAR or MVAR stands for in a parameter: the instantiation's
// argument (null: none given, printed `!N` and `!!N`).
struct SignatureContext {
  const std::vector<Type>* typeArguments = nullptr;
  const std::vector<Type>* methodArguments = nullptr;
};

// SigFormat's spelling of one parameter. False when a token cannot be
// named or the model holds what a parameter cannot (a TypeSpec token).
bool appendParameterText(const Type& type, const TypeNamer& names, const SignatureContext& context, std::string& out);

// TypeString's spelling of a type without its assembly (`Ns.Outer+Inner`,
// with a generic instance's arguments each `[Name, Assembly]`).
bool appendTypeStringName(const Type& type, const TypeNamer& names, std::string& out);

// `[[A, Asm],[B, Asm]]`: an instantiation as TypeString appends it to a
// type or method name (nothing for no arguments).
bool appendInstantiationText(const std::vector<Type>& arguments, const TypeNamer& names, std::string& out);

// `Ns.Outer+Inner`: a TypePath's parts as TypeString joins and escapes them.
void appendNestedName(const TypePath& path, std::string& out);

}  // namespace gdmap::metadata
