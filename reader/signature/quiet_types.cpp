#include <gdmap/internal/quiet_types.hpp>

#include <gdmap/schema/compressed_int.hpp>
#include <gdmap/schema/limits.hpp>
#include <gdmap/schema/type.hpp>

namespace gdmap::detail {
namespace {

constexpr std::size_t kMaxQuietItem = 256;
static_assert(Limits::maxTypeDepth + 1 >= kMaxQuietItem, "a declined depth check must be impossible below the cap");
static_assert(Limits::maxArrayRank < 0x80, "a rank is one byte");

class QuietReader {
 public:
  explicit QuietReader(ByteSpan bytes, std::size_t pos) : bytes_(bytes), pos_(pos) {}

  std::size_t position() const { return pos_; }

  // One type. `argument`: it stands where a generic argument must be
  // instantiable (the checker's ArgumentScanner positions): not inside a
  // pointer's pointee, a byref's referent or a function pointer signature.
  // `parameterFollows`: an enclosing FNPTR list reads a parameter right
  // after it (the walker's flag of that name).
  bool type(bool argument, bool parameterFollows) {
    if (pos_ >= bytes_.size()) return false;
    const std::uint8_t e = bytes_[pos_++];
    if ((e >= 0x02 && e <= 0x0E) || e == 0x18 || e == 0x19 || e == 0x1C) return true;
    std::uint32_t value = 0;
    switch (e) {
      case 0x01:  // VOID
      case 0x16:  // TYPEDBYREF
        return !argument;
      case 0x0F: return type(false, parameterFollows);                    // PTR
      case 0x10:                                                          // BYREF
      case 0x45: return !argument && type(false, parameterFollows);       // PINNED
      case 0x1D: return type(argument, parameterFollows);                 // SZARRAY
      case 0x1F:                                                          // CMOD_REQD
      case 0x20: return token(true) && type(argument, parameterFollows);  // CMOD_OPT
      case 0x11:                                                          // VALUETYPE
      case 0x12: return token(false);                                     // CLASS
      case 0x13:                                                          // VAR
      case 0x1E: return unsignedInt(value);                               // MVAR
      case 0x14: return array(argument);
      case 0x15: return genericInstance(argument, parameterFollows);
      case 0x1B: return functionPointer(parameterFollows);
      default: return false;
    }
  }

 private:
  // A compressed unsigned integer in its shortest form; anything else is
  // declined (the full walk names it).
  bool unsignedInt(std::uint32_t& value) {
    const std::size_t left = bytes_.size() - pos_;
    if (left == 0) return false;
    const std::uint8_t b = bytes_[pos_];
    if (b < 0x80) {
      value = b;
      pos_ += 1;
      return true;
    }
    if ((b & 0xC0) == 0x80) {
      if (left < 2) return false;
      value = (std::uint32_t{b & 0x3Fu} << 8) | bytes_[pos_ + 1];
      pos_ += 2;
      return value >= 0x80;
    }
    if ((b & 0xE0) == 0xC0) {
      if (left < 4) return false;
      value = (std::uint32_t{b & 0x1Fu} << 24) | (std::uint32_t{bytes_[pos_ + 1]} << 16) |
              (std::uint32_t{bytes_[pos_ + 2]} << 8) | bytes_[pos_ + 3];
      pos_ += 4;
      return value >= 0x4000;
    }
    return false;
  }

  // TypeDefOrRefOrSpecEncoded; a TypeSpec only where `allowTypeSpec`.
  bool token(bool allowTypeSpec) {
    std::uint32_t coded = 0;
    if (!unsignedInt(coded)) return false;
    const std::uint32_t tag = coded & 3u;
    return (tag < 2 || (tag == 2 && allowTypeSpec)) && (coded >> 2) <= 0x00FFFFFFu;
  }

  // A compressed signed integer in its shortest form (rarer: the reader's
  // own decoder).
  bool signedInt() {
    DecodedInt decoded;
    if (decodeCompressedInt(bytes_.subspan(pos_), decoded) != CompressedIntError::None || !decoded.minimal) {
      return false;
    }
    pos_ += decoded.length;
    return true;
  }

  // ARRAY element rank numSizes size* numLoBounds loBound*.
  bool array(bool argument) {
    std::uint32_t rank = 0;
    std::uint32_t count = 0;
    std::uint32_t size = 0;
    if (!type(argument, false) || !unsignedInt(rank) || rank == 0 || rank > Limits::maxArrayRank) return false;
    if (!unsignedInt(count) || count > rank) return false;
    for (std::uint32_t i = 0; i < count; ++i) {
      if (!unsignedInt(size)) return false;
    }
    if (!unsignedInt(count) || count > rank) return false;
    for (std::uint32_t i = 0; i < count; ++i) {
      if (!signedInt()) return false;
    }
    return true;
  }

  // GENERICINST (CLASS|VALUETYPE) TypeDefOrRefEncoded count argument+.
  bool genericInstance(bool argument, bool parameterFollows) {
    if (pos_ >= bytes_.size() || (bytes_[pos_] != 0x11 && bytes_[pos_] != 0x12)) return false;
    ++pos_;
    std::uint32_t count = 0;
    if (!token(false) || !unsignedInt(count) || count == 0) return false;
    // Each argument takes a byte: a count beyond the bytes left fails on
    // the way, after at most that many steps.
    for (std::uint32_t i = 0; i < count; ++i) {
      if (!type(argument, i + 1 == count && parameterFollows)) return false;
    }
    return true;
  }

  // FNPTR convention [genericCount] paramCount return param*, with the
  // walker's sentinel rule: one SENTINEL before any parameter, or after the
  // last in a vararg signature that has none yet when no enclosing list
  // reads a parameter next.
  bool functionPointer(bool parameterFollows) {
    if (pos_ >= bytes_.size()) return false;
    const std::uint8_t convention = bytes_[pos_++];
    std::uint32_t count = 0;
    if (!callconv::isValid(convention)) return false;
    if ((convention & callconv::kGeneric) != 0 && !unsignedInt(count)) return false;
    if (!unsignedInt(count) || !type(false, count > 0 || parameterFollows)) return false;
    const bool mayEndWithSentinel = callconv::isVarArg(convention) && !parameterFollows;
    bool sawSentinel = false;
    for (std::uint32_t i = 0; i <= count; ++i) {
      const bool last = i == count;
      if (atSentinel() && (!last || (mayEndWithSentinel && !sawSentinel))) {
        ++pos_;
        if (sawSentinel || (!last && atSentinel())) return false;
        sawSentinel = true;
      }
      if (last) break;
      if (!type(false, i + 1 < count || parameterFollows)) return false;
    }
    return true;
  }

  bool atSentinel() const { return pos_ < bytes_.size() && bytes_[pos_] == 0x41; }

  ByteSpan bytes_;
  std::size_t pos_;
};

}  // namespace

bool isQuietTypeList(ByteSpan item, std::size_t typesStart, std::uint32_t count) {
  if (item.size() >= kMaxQuietItem || typesStart > item.size() || count > item.size() - typesStart) return false;
  QuietReader reader(item, typesStart);
  for (std::uint32_t k = 0; k < count; ++k) {
    if (!reader.type(true, false)) return false;
  }
  return reader.position() == item.size();
}

}  // namespace gdmap::detail
