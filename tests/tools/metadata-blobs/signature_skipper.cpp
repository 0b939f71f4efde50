#include "signature_skipper.hpp"

#include <string>

namespace gdmap::metadata {
namespace {

// The same bound gdmap uses (kMaxTypeDepth); it keeps the recursion shallow.
constexpr unsigned kMaxDepth = 256;

class Skipper {
 public:
  explicit Skipper(ByteSpan bytes) : bytes_(bytes) {}

  std::size_t position() const { return position_; }
  bool atEnd() const { return position_ == bytes_.size(); }

  std::uint8_t byte() {
    if (atEnd()) fail("truncated signature");
    return bytes_[position_++];
  }
  std::uint8_t peek() const {
    if (atEnd()) fail("truncated signature");
    return bytes_[position_];
  }

  // A compressed unsigned integer; the signed form has the same lengths.
  std::uint32_t compressed() {
    const std::uint8_t lead = byte();
    if ((lead & 0x80) == 0) return lead;
    if ((lead & 0xC0) == 0x80) return (std::uint32_t{lead & 0x3Fu} << 8) | byte();
    if ((lead & 0xE0) == 0xC0) {
      std::uint32_t value = lead & 0x1Fu;
      for (int i = 0; i < 3; ++i) value = (value << 8) | byte();
      return value;
    }
    fail("invalid compressed integer");
  }

  // Every counted item takes at least one byte: a count larger than the
  // bytes left cannot be right and must not drive a loop.
  std::uint32_t count() {
    const std::uint32_t n = compressed();
    if (n > bytes_.size() - position_) fail("count larger than the bytes left");
    return n;
  }

  void token() {
    if ((compressed() & 3) == 3) fail("TypeDefOrRefOrSpecEncoded tag 3");
  }

  void type(unsigned depth) {
    if (depth > kMaxDepth) fail("nesting too deep");
    const std::uint8_t element = byte();
    switch (element) {
      case 0x01:
      case 0x02:
      case 0x03:
      case 0x04:
      case 0x05:
      case 0x06:
      case 0x07:
      case 0x08:
      case 0x09:
      case 0x0A:
      case 0x0B:
      case 0x0C:
      case 0x0D:
      case 0x0E:
      case 0x16:
      case 0x18:
      case 0x19:
      case 0x1C: return;
      case 0x0F:
      case 0x10:
      case 0x1D:
      case 0x45:  // PTR, BYREF, SZARRAY, PINNED
        return type(depth + 1);
      case 0x1F:
      case 0x20:  // CMOD_REQD, CMOD_OPT before any type
        token();
        return type(depth + 1);
      case 0x11:
      case 0x12: return token();
      case 0x13:
      case 0x1E: compressed(); return;
      case 0x14: arrayShape(depth); return;
      case 0x15: genericInstance(depth); return;
      case 0x1B: functionPointer(depth); return;
      default: position_--; fail("unknown element type");
    }
  }

  void typeList(std::uint32_t n, unsigned depth, std::vector<ByteSpan>* out) {
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::size_t start = position_;
      type(depth);
      if (out) out->push_back(bytes_.subspan(start, position_ - start));
    }
  }

  void genericHead() {
    const std::uint8_t head = byte();
    if (head != 0x11 && head != 0x12) fail("GENERICINST head is not CLASS or VALUETYPE");
    token();
  }

  std::uint32_t genericCount() {
    const std::uint32_t n = count();
    if (n == 0) fail("GENERICINST with no arguments");
    return n;
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw MalformedAssembly("signature byte " + std::to_string(position_) + ": " + message);
  }

 private:
  void arrayShape(unsigned depth) {
    type(depth + 1);
    const std::uint32_t rank = compressed();
    if (rank == 0) fail("ARRAY rank 0");
    const std::uint32_t sizes = count();
    if (sizes > rank) fail("more sizes than rank");
    for (std::uint32_t i = 0; i < sizes; ++i) compressed();
    const std::uint32_t bounds = count();
    if (bounds > rank) fail("more lower bounds than rank");
    for (std::uint32_t i = 0; i < bounds; ++i) compressed();
  }

  void genericInstance(unsigned depth) {
    genericHead();
    typeList(genericCount(), depth + 1, nullptr);
  }

  void functionPointer(unsigned depth) {
    const std::uint8_t convention = byte();
    const std::uint8_t kind = convention & 0x0F;
    if ((convention & 0x80) != 0 || (kind > 5 && kind != 9)) fail("invalid calling convention");
    if (convention & 0x10) compressed();
    const std::uint32_t parameters = count();
    type(depth + 1);  // return type
    bool sawSentinel = false;
    for (std::uint32_t i = 0; i < parameters; ++i) {
      if (peek() == 0x41) {
        if (sawSentinel) fail("second SENTINEL");
        sawSentinel = true;
        ++position_;
      }
      type(depth + 1);
    }
    // ilasm writes a sentinel with no parameter after it.
    if (!atEnd() && peek() == 0x41 && !sawSentinel) ++position_;
  }

  ByteSpan bytes_;
  std::size_t position_ = 0;
};

}  // namespace

std::optional<std::vector<ByteSpan>> genericInstanceArguments(ByteSpan typeSpec) {
  if (typeSpec.empty() || typeSpec[0] != 0x15) return std::nullopt;
  Skipper s(typeSpec);
  s.byte();
  s.genericHead();
  std::vector<ByteSpan> arguments;
  s.typeList(s.genericCount(), 1, &arguments);
  if (!s.atEnd()) s.fail("bytes after the type");
  return arguments;
}

std::vector<ByteSpan> methodSpecArguments(ByteSpan instantiation) {
  Skipper s(instantiation);
  if (s.byte() != 0x0A) s.fail("not a GENERICINST method signature (0x0A)");
  const std::uint32_t n = s.count();
  if (n == 0) s.fail("method instantiation with no arguments");
  std::vector<ByteSpan> arguments;
  s.typeList(n, 0, &arguments);
  if (!s.atEnd()) s.fail("bytes after the last argument");
  return arguments;
}

}  // namespace gdmap::metadata
