#pragma once
// ILAsm-style text for Type signatures (docs/type-text.md has the grammar),
// with metadata tokens written in hex where ILAsm would write a type name:
// `class 0x01000012<int32, !0[]>`.
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/type.hpp>
#include <gdmap/schema/type_names.hpp>

#include <string>
#include <string_view>

namespace gdmap {

// Canonical text: `class 0x01000012<int32, !0[]>`, `int32 modopt(0x01000002)`.
// Its length is linear in the signature's encoded length. A model beyond
// gdmap::Limits still prints (an ARRAY of rank above 32 as the gdmap
// extension `int32[rank(1000)]`, not N - 1 commas), as text parseType rejects.
std::string formatType(const Type& type);
void formatType(const Type& type, std::string& out);
// The same with names for the tokens `names` knows (type_names.hpp).
std::string formatType(const Type& type, const TypeNames& names);
void formatType(const Type& type, std::string& out, const TypeNames& names);
// Names when `names` is given, tokens when it is null.
void formatType(const Type& type, std::string& out, const TypeNames* names);

// Parses exactly one type (surrounding white space allowed). It accepts
// exactly the models encodeType accepts (the same gdmap::Limits, the same
// SENTINEL placement), so every parsed type has bytes. The error's offset is
// the 0-based byte index in `text` where parsing stopped; its message says
// what was expected there; its rule is `type-text-syntax` for text outside
// the grammar, else the rule the type breaks (rules.hpp).
Expected<Type> parseType(std::string_view text);
// The same, also accepting type names where a token may stand, resolved
// through `names` (an unknown or ambiguous name is an error at its place).
Expected<Type> parseType(std::string_view text, const TypeNames& names);

}  // namespace gdmap
