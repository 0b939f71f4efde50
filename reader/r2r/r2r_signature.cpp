#include "r2r_signature.hpp"

#include <optional>

#include <gdmap/reader/r2r_image.hpp>
#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/limits.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/schema/type_text.hpp>

namespace gdmap::r2r {
namespace {

constexpr std::uint8_t kCanonZapSig = 0x3E;
constexpr std::uint8_t kModuleZapSig = 0x3F;

// Reads with one ByteCursor; a problem is the cursor's sticky error (read
// errors reworded once, "what: message"), and every step returns false
// after it so that nothing follows the first problem.
class TypeTextReader {
 public:
  TypeTextReader(ByteSpan bytes, std::size_t offset, std::uint64_t fileOffset, const TypeNames* names)
      : in_(bytes, static_cast<std::size_t>(fileOffset), rules::kR2rBadInstanceSignature),
        fileOffset_(fileOffset),
        names_(names) {
    in_.seek(offset);
  }

  std::size_t position() const { return in_.position(); }
  bool ok() const { return in_.ok(); }
  Error takeError() { return in_.takeError(); }
  // A problem found by the caller, at file offset `at`; false.
  bool bad(std::uint64_t at, const std::string& message) {
    in_.fail(static_cast<std::size_t>(at), message, rules::kR2rBadInstanceSignature);
    return false;
  }
  // The tokens that follow belong to another module: this image's names would be wrong for them.
  void forgetNames() { names_ = nullptr; }

  // The module index of a type that starts with ELEMENT_TYPE_MODULE_ZAPSIG
  // (without moving), or nullopt.
  std::optional<std::uint32_t> moduleOfNextType() {
    ByteCursor peek = in_;
    if (peek.remaining() == 0 || peek.u8() != kModuleZapSig) return std::nullopt;
    const std::uint32_t module = peek.compressedUInt();
    if (!peek.ok()) return std::nullopt;
    return module;
  }

  bool compressed(const char* what, std::uint32_t& out) {
    out = in_.compressedUInt();
    return check(what);
  }

  // `arguments`, when given, receives the text of each generic argument of
  // this type when it is a generic instance (through a module override).
  bool type(std::string& out, unsigned depth, std::vector<std::string>* arguments = nullptr) {
    const std::size_t at = in_.offset();
    if (depth > Limits::maxTypeDepth) return bad(at, "types nest deeper than " + std::to_string(Limits::maxTypeDepth));
    const std::uint8_t code = in_.u8();
    if (!check("type")) return false;
    const auto element = static_cast<ElementType>(code);
    if (isPrimitive(element)) {
      out += primitiveName(element);
      return true;
    }
    switch (code) {
      case kCanonZapSig: out += "__Canon"; return true;
      case kModuleZapSig: return moduleType(out, depth, arguments);
      case static_cast<std::uint8_t>(ElementType::Class):
      case static_cast<std::uint8_t>(ElementType::ValueType): {
        Token t;
        if (!token(at, t)) return false;
        formatType(element == ElementType::Class ? Type::classType(t) : Type::valueType(t), out, names_);
        return true;
      }
      case static_cast<std::uint8_t>(ElementType::Var):
      case static_cast<std::uint8_t>(ElementType::MVar): {
        std::uint32_t n = 0;
        if (!compressed("generic parameter number", n)) return false;
        formatType(element == ElementType::Var ? Type::typeVariable(n) : Type::methodVariable(n), out, names_);
        return true;
      }
      case static_cast<std::uint8_t>(ElementType::GenericInst): return genericInstance(out, depth, arguments);
      case static_cast<std::uint8_t>(ElementType::Ptr): return type(out, depth + 1) && (out += '*', true);
      case static_cast<std::uint8_t>(ElementType::ByRef): return type(out, depth + 1) && (out += '&', true);
      case static_cast<std::uint8_t>(ElementType::SzArray): return type(out, depth + 1) && (out += "[]", true);
      case static_cast<std::uint8_t>(ElementType::Array): return array(out, depth);
      case static_cast<std::uint8_t>(ElementType::FnPtr):
      case static_cast<std::uint8_t>(ElementType::CModReqd):
      case static_cast<std::uint8_t>(ElementType::CModOpt):
      case static_cast<std::uint8_t>(ElementType::Pinned): return plainType(out);
      default: return bad(at, "element type " + hex8(code) + " has no meaning in a type");
    }
  }

 private:
  // A read error of the cursor gets `what` before its message; false then.
  // Inline: it follows every read.
  bool check(const char* what) { return in_.ok() || reword(what); }
  [[gnu::cold, gnu::noinline]] bool reword(const char* what) {
    const Error e = in_.takeError();
    return bad(e.offset, std::string(what) + ": " + e.message);
  }

  // ELEMENT_TYPE_MODULE_ZAPSIG: a module index, then a type whose tokens
  // belong to that module: this image's names would be wrong for them.
  bool moduleType(std::string& out, unsigned depth, std::vector<std::string>* arguments) {
    std::uint32_t module = 0;
    if (!compressed("module index", module)) return false;
    out += "[module " + std::to_string(module) + "] ";
    const TypeNames* own = std::exchange(names_, nullptr);
    const bool read = type(out, depth + 1, arguments);
    names_ = own;
    return read;
  }

  // Plain ECMA-335 forms with no runtime extension inside: the project's
  // decoder reads them, formatType prints them.
  bool plainType(std::string& out) {
    std::size_t offset = in_.position() - 1;
    Expected<Type> t = decodeType(in_.bytes(), offset);
    if (!t) return bad(fileOffset_ + t.error().offset, t.error().message);
    in_.seek(offset);
    formatType(*t, out, names_);
    return true;
  }

  // TypeDefOrRefEncoded (ECMA-335 II.23.2.8).
  bool token(std::size_t at, Token& out) {
    std::uint32_t coded = 0;
    if (!compressed("type token", coded)) return false;
    const std::uint32_t tag = coded & 3u;
    if (tag == 3) return bad(at + 1, "token tag 3 is not TypeDef, TypeRef or TypeSpec");
    static constexpr std::uint32_t kTables[3] = {0x02, 0x01, 0x1B};
    out = Token{kTables[tag] << 24 | (coded >> 2)};
    return true;
  }

  bool genericInstance(std::string& out, unsigned depth, std::vector<std::string>* arguments) {
    const std::size_t headAt = in_.offset();
    const std::uint8_t head = in_.u8();
    if (!check("GENERICINST")) return false;
    if (head != static_cast<std::uint8_t>(ElementType::Class) &&
        head != static_cast<std::uint8_t>(ElementType::ValueType)) {
      return bad(headAt, "GENERICINST must be followed by CLASS or VALUETYPE, found " + hex8(head));
    }
    Token t;
    if (!token(headAt, t)) return false;
    formatType(head == static_cast<std::uint8_t>(ElementType::Class) ? Type::classType(t) : Type::valueType(t), out,
               names_);
    const std::size_t countAt = in_.offset();
    std::uint32_t count = 0;
    if (!compressed("GENERICINST argument count", count)) return false;
    // Each argument takes at least one byte.
    if (count == 0 || count > in_.remaining()) {
      return bad(countAt, "GENERICINST argument count " + std::to_string(count) + " with " +
                              std::to_string(in_.remaining()) + " bytes left");
    }
    out += '<';
    for (std::uint32_t i = 0; i < count; ++i) {
      if (i > 0) out += ", ";
      const std::size_t start = out.size();
      if (!type(out, depth + 1)) return false;
      if (arguments != nullptr) arguments->push_back(out.substr(start));
    }
    out += '>';
    return true;
  }

  bool array(std::string& out, unsigned depth) {
    if (!type(out, depth + 1)) return false;
    const std::size_t rankAt = in_.offset();
    ArrayShape shape;
    if (!compressed("array rank", shape.rank)) return false;
    if (shape.rank == 0 || shape.rank > Limits::maxArrayRank) {
      return bad(rankAt, "array rank " + std::to_string(shape.rank));
    }
    std::uint32_t sizes = 0;
    if (!compressed("array size count", sizes)) return false;
    if (sizes > shape.rank) {
      return bad(rankAt, std::to_string(sizes) + " array sizes for rank " + std::to_string(shape.rank));
    }
    for (std::uint32_t i = 0; i < sizes; ++i) {
      std::uint32_t size = 0;
      if (!compressed("array size", size)) return false;
      shape.sizes.push_back(size);
    }
    std::uint32_t bounds = 0;
    if (!compressed("array lower bound count", bounds)) return false;
    if (bounds > shape.rank) {
      return bad(rankAt, std::to_string(bounds) + " array lower bounds for rank " + std::to_string(shape.rank));
    }
    for (std::uint32_t i = 0; i < bounds; ++i) {
      shape.lowerBounds.push_back(in_.compressedInt());
      if (!check("array lower bound")) return false;
    }
    // formatType's spelling of the shape: print it after a known element.
    const std::string text = formatType(Type::array(Type::primitive(ElementType::I4), shape));
    out.append(text, primitiveName(ElementType::I4).size());
    return true;
  }

  ByteCursor in_;
  std::uint64_t fileOffset_;
  const TypeNames* names_;
};

}  // namespace

namespace {

// The flags word: the forms that cannot key an instance entry point, and
// unknown bits, are errors.
bool readFlags(TypeTextReader& reader, std::uint64_t fileOffset, InstanceSignature& sig) {
  if (!reader.compressed("flags", sig.flags)) return false;
  constexpr std::uint32_t kUnsupported =
      method_sig::kSlotInsteadOfToken | method_sig::kMemberRefToken | method_sig::kConstrained;
  if (sig.flags & kUnsupported) {
    // The runtime asserts these never key an instance entry point.
    return reader.bad(fileOffset, "method flags " + shortHex(sig.flags) +
                                      " (slot, MemberRef or constrained forms cannot key an instance entry point)");
  }
  // kAsyncVariant is R2R 26's (.NET 11); any other bit is unknown: an
  // unknown flag could change what follows, so it is not guessed at.
  if (sig.flags & ~(std::uint32_t{0xFF} | method_sig::kAsyncVariant)) {
    return reader.bad(fileOffset, "unknown method flags " + shortHex(sig.flags));
  }
  return true;
}

// The module (kUpdateContext, or the owner type's override) and the owner type.
bool readOwner(TypeTextReader& reader, InstanceSignature& sig) {
  if (sig.flags & method_sig::kUpdateContext) {
    // The tokens that follow are that module's (a composite image's
    // component, or a module of the version bubble).
    if (!reader.compressed("module index", sig.module)) return false;
    sig.hasModule = true;
    reader.forgetNames();
  }
  if (sig.flags & method_sig::kOwnerType) {
    if (!sig.hasModule) {
      if (const std::optional<std::uint32_t> m = reader.moduleOfNextType()) {
        sig.hasModule = true;
        sig.module = *m;
      }
    }
    return reader.type(sig.ownerType, 0, &sig.typeArguments);
  }
  return true;
}

// The MethodDef row, then the method's own generic arguments.
bool readMethod(TypeTextReader& reader, std::size_t size, std::uint64_t fileOffset, InstanceSignature& sig) {
  const std::size_t rowAt = reader.position();
  std::uint32_t row = 0;
  if (!reader.compressed("method row", row)) return false;
  if (row == 0 || row > 0x00FFFFFFu) {
    return reader.bad(fileOffset + rowAt, "method row " + std::to_string(row) + " is not a MethodDef row");
  }
  sig.token = 0x06000000u | row;
  if ((sig.flags & method_sig::kMethodInstantiation) == 0) return true;
  const std::size_t countAt = reader.position();
  std::uint32_t count = 0;
  if (!reader.compressed("method argument count", count)) return false;
  if (count == 0 || count > size - reader.position()) {
    return reader.bad(fileOffset + countAt, "method argument count " + std::to_string(count));
  }
  for (std::uint32_t i = 0; i < count; ++i) {
    std::string argument;
    if (!reader.type(argument, 0)) return false;
    sig.methodArguments.push_back(std::move(argument));
  }
  return true;
}

}  // namespace

Expected<InstanceSignature> parseInstanceSignature(ByteSpan bytes, std::uint64_t fileOffset, const TypeNames* names) {
  InstanceSignature sig;
  TypeTextReader reader(bytes, 0, fileOffset, names);
  if (!readFlags(reader, fileOffset, sig) || !readOwner(reader, sig) ||
      !readMethod(reader, bytes.size(), fileOffset, sig)) {
    return reader.takeError();
  }
  sig.length = reader.position();
  return sig;
}

}  // namespace gdmap::r2r
