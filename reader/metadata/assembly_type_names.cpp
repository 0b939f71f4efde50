#include <gdmap/metadata/assembly_type_names.hpp>

#include <gdmap/internal/metadata_heaps.hpp>
#include <gdmap/internal/metadata_streams.hpp>
#include <gdmap/internal/metadata_tables.hpp>
#include "metadata_root.hpp"

#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <optional>

namespace gdmap::metadata {
namespace {

using table::kAssemblyRef;
using table::kMethodDef;
using table::kNestedClass;
using table::kTypeDef;
using table::kTypeRef;

// Strings are built by appending: `"[" + std::string` trips a false g++ 12
// -Wrestrict warning at -O2.
std::string qualified(const std::string& ns, const std::string& name) {
  std::string part = ns;
  if (!part.empty()) part += '.';
  part += name;
  std::string out;
  appendNamePart(part, out);
  return out;
}

std::string joined(std::string outer, char separator, const std::string& inner) {
  outer += separator;
  outer += inner;
  return outer;
}

// Names rows; a string that cannot be read gives "" and is remembered:
// error() is the first, checked once after all the names are built.
class NameBuilder {
 public:
  NameBuilder(const MetadataTables& tables, const Stream& strings) : tables_(tables), strings_(strings) {
    for (std::uint32_t r = 1; r <= tables.rowCount(kNestedClass); ++r) {
      enclosing_[tables.cell(kNestedClass, r, 0)] = tables.cell(kNestedClass, r, 1);
    }
  }

  const std::optional<Error>& error() const { return error_; }

  std::string string(std::uint32_t index) {
    Expected<std::string> s = stringAt(strings_, index);
    if (s) return std::move(s).value();
    if (!error_) error_ = s.error();
    return {};
  }

  std::optional<std::string> typeDef(std::uint32_t row, int depth = 0) {
    if (row == 0 || row > tables_.rowCount(kTypeDef) || depth > kMaxTypeNesting) return std::nullopt;
    const std::string ns = string(tables_.cell(kTypeDef, row, 2));
    std::string own = qualified(ns, string(tables_.cell(kTypeDef, row, 1)));
    const auto outer = enclosing_.find(row);
    if (outer == enclosing_.end()) return own;
    std::optional<std::string> enclosing = typeDef(outer->second, depth + 1);
    if (!enclosing) return std::nullopt;
    return joined(std::move(*enclosing), '/', own);
  }

  std::optional<std::string> typeRef(std::uint32_t row, int depth = 0) {
    if (row == 0 || row > tables_.rowCount(kTypeRef) || depth > kMaxTypeNesting) return std::nullopt;
    const std::string ns = string(tables_.cell(kTypeRef, row, 2));
    std::string own = qualified(ns, string(tables_.cell(kTypeRef, row, 1)));
    const std::uint32_t scope = tables_.cell(kTypeRef, row, 0);
    const std::uint32_t scopeRow = scope >> 2;
    switch (scope & 3u) {
      case 2: {  // AssemblyRef
        if (scopeRow == 0 || scopeRow > tables_.rowCount(kAssemblyRef)) return std::nullopt;
        std::string name = "[";
        name += string(tables_.cell(kAssemblyRef, scopeRow, 6));
        name += ']';
        name += own;
        return name;
      }
      case 3: {  // TypeRef: nested in another reference
        std::optional<std::string> enclosing = typeRef(scopeRow, depth + 1);
        if (!enclosing) return std::nullopt;
        return joined(std::move(*enclosing), '/', own);
      }
      default: return std::nullopt;  // Module, ModuleRef: no ILAsm name without more context
    }
  }

 private:
  const MetadataTables& tables_;
  const Stream& strings_;
  std::unordered_map<std::uint32_t, std::uint32_t> enclosing_;
  std::optional<Error> error_;
};

}  // namespace

Expected<AssemblyTypeNames> AssemblyTypeNames::open(ByteSpan file) {
  const Expected<ByteSpan> root = findMetadataRoot(file);
  if (!root) return root.error();
  const Expected<MetadataStreams> streams = readStreams(*root, static_cast<std::size_t>(root->data() - file.data()));
  if (!streams) return streams.error();
  const Expected<MetadataTables> tables = MetadataTables::open(streams->tables);
  if (!tables) return tables.error();
  AssemblyTypeNames out;
  if (Status read = out.read(*tables, streams->strings); !read) return read.error();
  return out;
}

Status AssemblyTypeNames::read(const MetadataTables& tables, const Stream& strings) {
  NameBuilder names(tables, strings);
  const auto add = [&](std::uint32_t token, std::optional<std::string> name) {
    if (!name) return;
    byName_[unquotedTypeName(*name)].push_back(token);
    byToken_.emplace(token, std::move(*name));
  };
  for (std::uint32_t r = 1; r <= tables.rowCount(kTypeDef); ++r)
    add(std::uint32_t{kTypeDef} << 24 | r, names.typeDef(r));
  for (std::uint32_t r = 1; r <= tables.rowCount(kTypeRef); ++r)
    add(std::uint32_t{kTypeRef} << 24 | r, names.typeRef(r));
  // A name several rows share would not read back to the token it was
  // printed for: those tokens print in hex, so that text printed with
  // names always parses back to the same bytes.
  for (const auto& [name, tokens] : byName_) {
    if (tokens.size() > 1) {
      for (const std::uint32_t t : tokens) byToken_.erase(t);
    }
  }

  // A TypeDef owns the MethodDef rows from its MethodList to the next
  // TypeDef's (ECMA-335 II.22.37): one sweep over both tables.
  const std::uint32_t methods = tables.rowCount(kMethodDef);
  const std::uint32_t types = tables.rowCount(kTypeDef);
  methodNames_.reserve(methods);
  std::uint32_t owner = 0;  // the TypeDef row owning the current method, 0 before the first
  for (std::uint32_t m = 1; m <= methods; ++m) {
    while (owner < types && tables.cell(kTypeDef, owner + 1, 5) <= m) ++owner;
    std::string name;
    if (owner > 0) {
      const Token type{std::uint32_t{kTypeDef} << 24 | owner};
      name = nameOf(type);
      if (name.empty()) name = hex32(type.value);
      name += "::";
    }
    name += names.string(tables.cell(kMethodDef, m, 3));  // shown, never parsed: ILAsm writes .ctor bare
    methodNames_.push_back(std::move(name));
  }
  if (names.error()) return *names.error();
  return Success{};
}

std::string AssemblyTypeNames::methodName(std::uint32_t token) const {
  const std::uint32_t row = token & 0x00FFFFFFu;
  if (token >> 24 != kMethodDef || row == 0 || row > methodNames_.size()) return {};
  return methodNames_[row - 1];
}

std::string AssemblyTypeNames::nameOf(Token token) const {
  const auto found = byToken_.find(token.value);
  return found == byToken_.end() ? std::string() : found->second;
}

Expected<Token> AssemblyTypeNames::tokenOf(std::string_view name) const {
  const auto found = byName_.find(unquotedTypeName(name));
  if (found == byName_.end()) {
    return Error{0, "no TypeDef or TypeRef of the assembly is named " + std::string(name), rules::kUnknownTypeName};
  }
  if (found->second.size() > 1) {
    std::string tokens;
    for (const std::uint32_t t : found->second) {
      if (!tokens.empty()) tokens += ", ";
      tokens += hex32(t);
    }
    return Error{0, std::string(name) + " names several types (" + tokens + "): write the token instead",
                 rules::kAmbiguousTypeName};
  }
  return Token{found->second.front()};
}

}  // namespace gdmap::metadata
