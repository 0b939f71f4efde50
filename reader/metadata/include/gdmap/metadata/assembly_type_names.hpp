#pragma once
// TypeNames over one assembly's metadata: what `--names ASSEMBLY` plugs into
// type text. TypeDefs are named `Ns.Name` (nested: `Ns.Outer/Inner`),
// TypeRefs `[AssemblyRef]Ns.Name` (nested: `[A]Ns.Outer/Inner`), as ILAsm
// writes them; a TypeRef scoped to a module, and every TypeSpec, keep their
// hex token, and so do rows whose name another row shares (two references
// to one type): what is printed with names always parses back.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/type_names.hpp>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace gdmap::metadata {

class MetadataTables;
struct Stream;

class AssemblyTypeNames : public TypeNames {
 public:
  // The names of `file`, a PE image with CLI metadata; or where it is not
  // one: the PE reader's error (r2r-not-pe, r2r-no-header, ...) or an
  // invalid-metadata error for a malformed metadata root, stream header,
  // table stream or string, each at its byte offset in `file` and with
  // the structure as its path ("metadata root.streams[2]",
  // "#~ table stream", "#Strings[1234]").
  static Expected<AssemblyTypeNames> open(ByteSpan file);

  std::string nameOf(Token token) const override;
  Expected<Token> tokenOf(std::string_view name) const override;

  std::size_t size() const { return byToken_.size(); }

  // A MethodDef's name with its owner, as ILAsm writes a method reference:
  // `Ns.Type::Name`; empty for a token that is no MethodDef row here.
  std::string methodName(std::uint32_t token) const;

 private:
  AssemblyTypeNames() = default;
  Status read(const MetadataTables& tables, const Stream& strings);

  std::vector<std::string> methodNames_;                                // by MethodDef row - 1
  std::unordered_map<std::uint32_t, std::string> byToken_;              // token -> name as written
  std::unordered_map<std::string, std::vector<std::uint32_t>> byName_;  // unquoted name -> tokens
};

}  // namespace gdmap::metadata
