#include "r2r_signature.hpp"

#include <optional>

#include "r2r_failure.hpp"

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

class TypeTextReader {
 public:
  TypeTextReader(ByteSpan bytes, std::size_t offset, std::uint64_t fileOffset, const TypeNames* names)
      : in_(bytes, static_cast<std::size_t>(fileOffset), rules::kR2rBadInstanceSignature),
        fileOffset_(fileOffset),
        names_(names) {
    in_.seek(offset);
  }

  std::size_t position() const { return in_.position(); }
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

  std::uint32_t compressed(const char* what) {
    const std::uint32_t v = in_.compressedUInt();
    check(what);
    return v;
  }

  // `arguments`, when given, receives the text of each generic argument of
  // this type when it is a generic instance (through a module override).
  void type(std::string& out, unsigned depth, std::vector<std::string>* arguments = nullptr) {
    const std::size_t at = in_.offset();
    if (depth > Limits::maxTypeDepth) {
      bad(at, "types nest deeper than " + std::to_string(Limits::maxTypeDepth));
    }
    const std::uint8_t code = in_.u8();
    check("type");
    const auto element = static_cast<ElementType>(code);
    if (isPrimitive(element)) {
      out += primitiveName(element);
      return;
    }
    switch (code) {
      case kCanonZapSig: out += "__Canon"; return;
      case kModuleZapSig: {
        const std::uint32_t module = compressed("module index");
        out += "[module " + std::to_string(module) + "] ";
        // The tokens inside belong to that module: this image's names
        // would be wrong for them.
        const TypeNames* own = std::exchange(names_, nullptr);
        type(out, depth + 1, arguments);
        names_ = own;
        return;
      }
      case static_cast<std::uint8_t>(ElementType::Class):
      case static_cast<std::uint8_t>(ElementType::ValueType): {
        const Token t = token(at);
        formatType(element == ElementType::Class ? Type::classType(t) : Type::valueType(t), out, names_);
        return;
      }
      case static_cast<std::uint8_t>(ElementType::Var):
      case static_cast<std::uint8_t>(ElementType::MVar): {
        const std::uint32_t n = compressed("generic parameter number");
        formatType(element == ElementType::Var ? Type::typeVariable(n) : Type::methodVariable(n), out, names_);
        return;
      }
      case static_cast<std::uint8_t>(ElementType::GenericInst): genericInstance(out, depth, arguments); return;
      case static_cast<std::uint8_t>(ElementType::Ptr):
        type(out, depth + 1);
        out += '*';
        return;
      case static_cast<std::uint8_t>(ElementType::ByRef):
        type(out, depth + 1);
        out += '&';
        return;
      case static_cast<std::uint8_t>(ElementType::SzArray):
        type(out, depth + 1);
        out += "[]";
        return;
      case static_cast<std::uint8_t>(ElementType::Array): array(out, depth); return;
      case static_cast<std::uint8_t>(ElementType::FnPtr):
      case static_cast<std::uint8_t>(ElementType::CModReqd):
      case static_cast<std::uint8_t>(ElementType::CModOpt):
      case static_cast<std::uint8_t>(ElementType::Pinned): {
        // Plain ECMA-335 forms with no runtime extension inside: the
        // project's decoder reads them, formatType prints them.
        std::size_t offset = in_.position() - 1;
        Expected<Type> t = decodeType(in_.bytes(), offset);
        if (!t) bad(fileOffset_ + t.error().offset, t.error().message);
        in_.seek(offset);
        formatType(*t, out, names_);
        return;
      }
      default: bad(at, "element type " + hex8(code) + " has no meaning in a type");
    }
  }

 private:
  [[noreturn]] void bad(std::uint64_t at, const std::string& message) {
    fail(at, message, rules::kR2rBadInstanceSignature);
  }
  void check(const char* what) {
    if (!in_.ok()) {
      const Error e = in_.takeError();
      bad(e.offset, std::string(what) + ": " + e.message);
    }
  }

  // TypeDefOrRefEncoded (ECMA-335 II.23.2.8).
  Token token(std::size_t at) {
    const std::uint32_t coded = compressed("type token");
    const std::uint32_t tag = coded & 3u;
    if (tag == 3) bad(at + 1, "token tag 3 is not TypeDef, TypeRef or TypeSpec");
    static constexpr std::uint32_t kTables[3] = {0x02, 0x01, 0x1B};
    return Token{kTables[tag] << 24 | (coded >> 2)};
  }

  void genericInstance(std::string& out, unsigned depth, std::vector<std::string>* arguments) {
    const std::size_t headAt = in_.offset();
    const std::uint8_t head = in_.u8();
    check("GENERICINST");
    if (head != static_cast<std::uint8_t>(ElementType::Class) &&
        head != static_cast<std::uint8_t>(ElementType::ValueType)) {
      bad(headAt, "GENERICINST must be followed by CLASS or VALUETYPE, found " + hex8(head));
    }
    const Token t = token(headAt);
    formatType(head == static_cast<std::uint8_t>(ElementType::Class) ? Type::classType(t) : Type::valueType(t), out,
               names_);
    const std::size_t countAt = in_.offset();
    const std::uint32_t count = compressed("GENERICINST argument count");
    // Each argument takes at least one byte.
    if (count == 0 || count > in_.remaining()) {
      bad(countAt, "GENERICINST argument count " + std::to_string(count) + " with " + std::to_string(in_.remaining()) +
                       " bytes left");
    }
    out += '<';
    for (std::uint32_t i = 0; i < count; ++i) {
      if (i > 0) out += ", ";
      const std::size_t start = out.size();
      type(out, depth + 1);
      if (arguments != nullptr) arguments->push_back(out.substr(start));
    }
    out += '>';
  }

  void array(std::string& out, unsigned depth) {
    type(out, depth + 1);
    const std::size_t rankAt = in_.offset();
    ArrayShape shape;
    shape.rank = compressed("array rank");
    if (shape.rank == 0 || shape.rank > Limits::maxArrayRank) bad(rankAt, "array rank " + std::to_string(shape.rank));
    const std::uint32_t sizes = compressed("array size count");
    if (sizes > shape.rank) bad(rankAt, std::to_string(sizes) + " array sizes for rank " + std::to_string(shape.rank));
    for (std::uint32_t i = 0; i < sizes; ++i) shape.sizes.push_back(compressed("array size"));
    const std::uint32_t bounds = compressed("array lower bound count");
    if (bounds > shape.rank) {
      bad(rankAt, std::to_string(bounds) + " array lower bounds for rank " + std::to_string(shape.rank));
    }
    for (std::uint32_t i = 0; i < bounds; ++i) {
      shape.lowerBounds.push_back(in_.compressedInt());
      check("array lower bound");
    }
    // formatType's spelling of the shape: print it after a known element.
    const std::string text = formatType(Type::array(Type::primitive(ElementType::I4), shape));
    out.append(text, primitiveName(ElementType::I4).size());
  }

  ByteCursor in_;
  std::uint64_t fileOffset_;
  const TypeNames* names_;
};

}  // namespace

InstanceSignature parseInstanceSignature(ByteSpan bytes, std::uint64_t fileOffset, const TypeNames* names) {
  InstanceSignature sig;
  TypeTextReader reader(bytes, 0, fileOffset, names);
  sig.flags = reader.compressed("flags");
  constexpr std::uint32_t kUnsupported =
      method_sig::kSlotInsteadOfToken | method_sig::kMemberRefToken | method_sig::kConstrained;
  if (sig.flags & kUnsupported) {
    // The runtime asserts these never key an instance entry point.
    fail(fileOffset,
         "method flags " + shortHex(sig.flags) +
             " (slot, MemberRef or constrained forms cannot key an instance entry point)",
         rules::kR2rBadInstanceSignature);
  }
  // kAsyncVariant is R2R 26's (.NET 11); any other bit is unknown: an
  // unknown flag could change what follows, so it is not guessed at.
  if (sig.flags & ~(std::uint32_t{0xFF} | method_sig::kAsyncVariant)) {
    fail(fileOffset, "unknown method flags " + shortHex(sig.flags), rules::kR2rBadInstanceSignature);
  }
  if (sig.flags & method_sig::kUpdateContext) {
    // The tokens that follow are that module's (a composite image's
    // component, or a module of the version bubble).
    sig.module = reader.compressed("module index");
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
    reader.type(sig.ownerType, 0, &sig.typeArguments);
  }
  const std::size_t rowAt = reader.position();
  const std::uint32_t row = reader.compressed("method row");
  if (row == 0 || row > 0x00FFFFFFu) {
    fail(fileOffset + rowAt, "method row " + std::to_string(row) + " is not a MethodDef row",
         rules::kR2rBadInstanceSignature);
  }
  sig.token = 0x06000000u | row;
  if (sig.flags & method_sig::kMethodInstantiation) {
    const std::size_t countAt = reader.position();
    const std::uint32_t count = reader.compressed("method argument count");
    if (count == 0 || count > bytes.size() - reader.position()) {
      fail(fileOffset + countAt, "method argument count " + std::to_string(count), rules::kR2rBadInstanceSignature);
    }
    for (std::uint32_t i = 0; i < count; ++i) {
      std::string argument;
      reader.type(argument, 0);
      sig.methodArguments.push_back(std::move(argument));
    }
  }
  sig.length = reader.position();
  return sig;
}

}  // namespace gdmap::r2r
