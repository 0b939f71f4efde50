#include <gdmap/metadata/method_signature.hpp>

#include "metadata_root.hpp"
#include "method_signature_text.hpp"

#include <gdmap/internal/metadata_heaps.hpp>
#include <gdmap/internal/metadata_streams.hpp>
#include <gdmap/internal/metadata_table_schema.hpp>
#include <gdmap/internal/metadata_tables.hpp>

#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/type_names.hpp>
#include <gdmap/schema/type_text.hpp>

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

namespace gdmap::metadata {
namespace {

using table::kAssembly;
using table::kAssemblyRef;
using table::kMethodDef;
using table::kNestedClass;
using table::kTypeDef;
using table::kTypeRef;
constexpr std::size_t kMethodName = 3;
constexpr std::size_t kMethodSignature = 4;

// What an assembly is, by the name SOS gives CoreLib in it.
bool isCoreLibraryName(std::string_view name) { return name == "System.Private.CoreLib" || name == "mscorlib"; }

}  // namespace

struct MethodSignatures::Impl final : TypeNamer {
  MetadataStreams streams;
  MetadataTables tables;
  std::vector<std::uint32_t> owners;  // the TypeDef row owning each MethodDef row (by row - 1), 0: none
  std::string assembly;
  std::string coreLib;

  Impl(const MetadataStreams& s, const MetadataTables& t) : streams(s), tables(t) {}

  std::string string(std::uint8_t table, std::uint32_t row, std::size_t column) const {
    Expected<std::string> s = stringAt(streams.strings, tables.cell(table, row, column));
    return s ? std::move(s).value() : std::string();
  }

  // `Ns.Name` of a TypeDef or TypeRef row (columns 1 and 2 of both).
  std::string qualifiedName(std::uint8_t table, std::uint32_t row) const {
    std::string out = string(table, row, 2);
    if (!out.empty()) out += '.';
    out += string(table, row, 1);
    return out;
  }

  // The TypeDef enclosing TypeDef `row` (NestedClass is sorted by its
  // nested type, II.22.32), or 0.
  std::uint32_t enclosing(std::uint32_t row) const {
    std::uint32_t low = 1, high = tables.rowCount(kNestedClass);
    while (low <= high) {
      const std::uint32_t mid = low + (high - low) / 2;
      const std::uint32_t nested = tables.cell(kNestedClass, mid, 0);
      if (nested == row) return tables.cell(kNestedClass, mid, 1);
      if (nested < row) low = mid + 1;
      else high = mid - 1;
    }
    return 0;
  }

  std::optional<TypePath> typeDefPath(std::uint32_t row) const {
    TypePath path;
    for (int depth = 0; row != 0; ++depth, row = enclosing(row)) {
      if (row > tables.rowCount(kTypeDef) || depth > kMaxTypeNesting) return std::nullopt;
      path.parts.push_back(qualifiedName(kTypeDef, row));
    }
    std::reverse(path.parts.begin(), path.parts.end());
    path.assembly = assembly;
    return path;
  }

  std::optional<TypePath> typeRefPath(std::uint32_t row) const {
    TypePath path;
    for (int depth = 0;; ++depth) {
      if (row == 0 || row > tables.rowCount(kTypeRef) || depth > kMaxTypeNesting) return std::nullopt;
      path.parts.push_back(qualifiedName(kTypeRef, row));
      const std::uint32_t scope = tables.cell(kTypeRef, row, 0);
      if ((scope & 3u) == 3u) {  // nested in another reference
        row = scope >> 2;
        continue;
      }
      if ((scope & 3u) == 2u) {
        const std::uint32_t ref = scope >> 2;
        if (ref == 0 || ref > tables.rowCount(kAssemblyRef)) return std::nullopt;
        path.assembly = string(kAssemblyRef, ref, 6);
      } else {
        path.assembly = assembly;  // this module, or another module of this assembly
      }
      break;
    }
    std::reverse(path.parts.begin(), path.parts.end());
    return path;
  }

  std::optional<TypePath> pathOf(Token token) const override {
    if (token.table() == kTypeDef) return token.row() == 0 ? std::nullopt : typeDefPath(token.row());
    if (token.table() == kTypeRef) return typeRefPath(token.row());
    return std::nullopt;
  }
  const std::string& coreLibrary() const override { return coreLib; }

  // The names SOS gives this assembly and CoreLib in it.
  void readAssemblyNames() {
    if (tables.rowCount(kAssembly) > 0) assembly = string(kAssembly, 1, 7);
    if (isCoreLibraryName(assembly)) {
      coreLib = assembly;
      return;
    }
    // A .NET Framework assembly references mscorlib and nothing of .NET's.
    bool framework = false, modern = false;
    for (std::uint32_t r = 1; r <= tables.rowCount(kAssemblyRef); ++r) {
      const std::string name = string(kAssemblyRef, r, 6);
      framework |= name == "mscorlib";
      modern |= name == "System.Runtime" || name == "System.Private.CoreLib" || name == "netstandard";
    }
    coreLib = framework && !modern ? "mscorlib" : "System.Private.CoreLib";
  }

  // A TypeDef owns the MethodDef rows from its MethodList to the next
  // TypeDef's (II.22.37): one sweep over both tables.
  void readOwners() {
    const std::uint32_t methods = tables.rowCount(kMethodDef);
    const std::uint32_t types = tables.rowCount(kTypeDef);
    owners.resize(methods);
    std::uint32_t owner = 0;
    for (std::uint32_t m = 1; m <= methods; ++m) {
      while (owner < types && tables.cell(kTypeDef, owner + 1, 5) <= m) ++owner;
      owners[m - 1] = owner;
    }
  }
};

namespace {

// Names an instantiation's type text holds, each given a placeholder token
// by parseType and named back here; other tokens are the module's own.
class TextNames final : public TypeNames, public TypeNamer {
 public:
  TextNames(const TypeNamer& module, const std::string& assembly) : module_(module), assembly_(assembly) {}

  std::string nameOf(Token) const override { return {}; }
  Expected<Token> tokenOf(std::string_view name) const override {
    names_.emplace_back(name);
    return Token{std::uint32_t{kTypeRef} << 24 | (kLastRow - static_cast<std::uint32_t>(names_.size() - 1))};
  }

  std::optional<TypePath> pathOf(Token token) const override {
    const std::uint32_t index = kLastRow - token.row();
    if (token.table() != kTypeRef || index >= names_.size()) return module_.pathOf(token);
    return pathOfName(names_[index]);
  }
  const std::string& coreLibrary() const override { return module_.coreLibrary(); }

 private:
  static constexpr std::uint32_t kLastRow = 0x00FFFFFF;

  // `[Asm]Ns.Outer/'<>c'`: the assembly (this one when absent) and each
  // part, quotes removed.
  std::optional<TypePath> pathOfName(std::string_view name) const {
    TypePath path;
    if (name.starts_with('[')) {
      const std::size_t close = name.find(']');
      if (close == std::string_view::npos) return std::nullopt;
      path.assembly = std::string(name.substr(1, close - 1));
      name.remove_prefix(close + 1);
    } else {
      path.assembly = assembly_;
    }
    std::string part;
    bool quoted = false;
    for (const char c : name) {
      if (c == '\'') {
        quoted = !quoted;
      } else if (c == '/' && !quoted) {
        path.parts.push_back(std::move(part));
        part.clear();
      } else {
        part += c;
      }
    }
    path.parts.push_back(std::move(part));
    return path;
  }

  const TypeNamer& module_;
  const std::string& assembly_;
  mutable std::vector<std::string> names_;
};

// The runtime's spellings of ReadyToRun's extensions, as the type text
// parser reads them: `__Canon` is CoreLib's System.__Canon; `[module N] T`
// names another module's tokens, which this metadata cannot name.
std::optional<std::string> plainTypeText(std::string_view text, const std::string& coreLibrary) {
  static constexpr std::string_view kCanon = "__Canon";
  if (text.find("[module ") != std::string_view::npos) return std::nullopt;
  const auto identifier = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
  };
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const bool boundary = i == 0 || !identifier(text[i - 1]);
    const std::size_t end = i + kCanon.size();
    if (boundary && text.substr(i).starts_with(kCanon) && (end == text.size() || !identifier(text[end]))) {
      out += "class [";
      out += coreLibrary;
      out += "]System.__Canon";
      i = end;
      continue;
    }
    out += text[i++];
  }
  return out;
}

bool parseArguments(const std::vector<std::string>& texts, const TextNames& names, const std::string& coreLibrary,
                    std::vector<Type>& out) {
  for (const std::string& text : texts) {
    const std::optional<std::string> plain = plainTypeText(text, coreLibrary);
    if (!plain) return false;
    Expected<Type> type = parseType(*plain, names);
    if (!type) return false;
    out.push_back(std::move(type).value());
  }
  return true;
}

// `(A, B)`: the MethodDefSig's parameters (II.23.2.1), each read by the
// signature walker; `...` after them for a vararg method.
bool appendParameters(ByteSpan blob, const TypeNamer& names, const SignatureContext& context, std::string& out) {
  ByteCursor in(blob);
  const std::uint8_t convention = in.u8();
  if (convention & callconv::kGeneric) in.compressedUInt();
  const std::uint32_t count = in.compressedUInt();
  // Each parameter and the return type take a byte at least.
  if (!in.ok() || count >= in.remaining()) return false;
  std::size_t offset = in.position();
  if (!skipType(blob, offset)) return false;  // the return type: not part of the text
  out += '(';
  for (std::uint32_t i = 0; i < count; ++i) {
    Expected<Type> parameter = decodeType(blob, offset);
    if (!parameter) return false;
    if (i != 0) out += ", ";
    if (!appendParameterText(*parameter, names, context, out)) return false;
  }
  if (callconv::isVarArg(convention)) out += count != 0 ? ", ..." : "...";
  out += ')';
  return true;
}

}  // namespace

MethodSignatures::MethodSignatures(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
MethodSignatures::MethodSignatures(MethodSignatures&&) noexcept = default;
MethodSignatures& MethodSignatures::operator=(MethodSignatures&&) noexcept = default;
MethodSignatures::~MethodSignatures() = default;

Expected<MethodSignatures> MethodSignatures::open(ByteSpan file) {
  const Expected<ByteSpan> root = findMetadataRoot(file);
  if (!root) return root.error();
  Expected<MetadataStreams> streams = readStreams(*root, static_cast<std::size_t>(root->data() - file.data()));
  if (!streams) return streams.error();
  Expected<MetadataTables> tables = MetadataTables::open(streams->tables);
  if (!tables) return tables.error();
  auto impl = std::make_unique<Impl>(*streams, *tables);
  impl->readAssemblyNames();
  impl->readOwners();
  return MethodSignatures(std::move(impl));
}

const std::string& MethodSignatures::assemblyName() const { return impl_->assembly; }
const std::string& MethodSignatures::coreLibraryName() const { return impl_->coreLib; }
std::uint32_t MethodSignatures::methodCount() const { return static_cast<std::uint32_t>(impl_->owners.size()); }

std::string MethodSignatures::signatureOf(std::uint32_t token, const il::Instantiation* instantiation) const {
  const Impl& md = *impl_;
  const std::uint32_t row = token & 0x00FFFFFFu;
  if (token >> 24 != kMethodDef || row == 0 || row > md.owners.size() || md.owners[row - 1] == 0) return {};
  TextNames names(md, md.assembly);
  std::vector<Type> typeArguments, methodArguments;
  if (instantiation != nullptr &&
      !(parseArguments(instantiation->typeArguments, names, md.coreLib, typeArguments) &&
        parseArguments(instantiation->methodArguments, names, md.coreLib, methodArguments))) {
    return {};
  }
  std::string out;
  const std::optional<TypePath> owner = md.typeDefPath(md.owners[row - 1]);
  if (!owner) return {};
  appendNestedName(*owner, out);
  if (!appendInstantiationText(typeArguments, names, out)) return {};
  out += '.';
  out += md.string(kMethodDef, row, kMethodName);
  if (!appendInstantiationText(methodArguments, names, out)) return {};
  const Expected<ByteSpan> blob = blobAt(md.streams.blobs, md.tables.cell(kMethodDef, row, kMethodSignature));
  if (!blob) return {};
  // A generic parameter stands for the instantiation's argument; without
  // one SOS prints `!0` / `!!0`.
  const SignatureContext context{typeArguments.empty() ? nullptr : &typeArguments,
                                 methodArguments.empty() ? nullptr : &methodArguments};
  if (!appendParameters(*blob, names, context, out)) return {};
  return out;
}

}  // namespace gdmap::metadata
