#pragma once
// The one walker of the ECMA-335 Type grammar (II.23.2.12, with the
// augments in FORMAT.md §2) over untrusted bytes. It checks every rule and
// reports what it reads to a sink policy, so that decoding (build a model),
// skipping (check only, no allocation) and naming the field at an offset all
// share one grammar. The sinks live in signature_sinks.hpp. Every count and
// the depth are checked against gdmap::Limits, and counts against the bytes
// left, before the walk loops or recurses on them; every error names its
// rule (rules.hpp).
//
// It keeps its own position over the span rather than a ByteCursor: each
// read must report its field to the sink before the value is checked, and a
// failed compressed integer maps to one of two rules by its kind, which the
// cursor's one-rule-per-read interface would need wrapping for anyway.
//
// A sink provides:
//   using Node = ...;                        what one Type is built into
//   void element(Node&, ElementType);
//   void token(Node&, Token);                CLASS/VALUETYPE/GENERICINST/CMOD
//   void valueTypeHead(Node&, bool);
//   void number(Node&, std::uint32_t);      VAR/MVAR
//   void rank(Node&, std::uint32_t);
//   void size(Node&, std::uint32_t);
//   void lowerBound(Node&, std::int32_t);
//   void callingConvention(Node&, std::uint8_t);
//   void genericParameterCount(Node&, std::uint32_t);
//   void sentinel(Node&, std::uint32_t);
//   void operand(Node&, Node&& child);       inner type, argument, return, parameter
//   void typeAt(std::size_t offset);         a (sub)type's element byte
//   void field(SignatureField, std::uint32_t index, std::size_t begin, std::size_t end);
//   void enter(SignatureField, std::uint32_t index);  a subtype starts
//   void leave();                                     ... and ends
// field() is called as soon as a value's bytes are known, before the value
// is checked, so that an error's offset always lies in a reported field.
#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/compressed_int.hpp>
#include <gdmap/schema/element_type.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/limits.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/schema/type.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace gdmap::signature {

// The named parts of a Type, for field paths (see type_decoder.cpp).
enum class SignatureField : std::uint8_t {
  Inner,
  Modifier,
  Token,
  GenericType,
  GenericTypeToken,
  ArgumentCount,
  Arguments,
  Index,
  Rank,
  SizeCount,
  Sizes,
  LowerBoundCount,
  LowerBounds,
  CallingConvention,
  GenericParameterCount,
  ParameterCount,
  Return,
  Parameters,
  Sentinel,
};

// Whether a field holds several values, shown as `name[i]`.
constexpr bool isIndexed(SignatureField f) {
  return f == SignatureField::Arguments || f == SignatureField::Sizes || f == SignatureField::LowerBounds ||
         f == SignatureField::Parameters;
}

// The path text of a field, without the index: ".shape.rank".
const char* fieldName(SignatureField f);

template <typename Sink>
class SignatureWalker {
 public:
  using Node = typename Sink::Node;

  SignatureWalker(ByteSpan bytes, std::size_t offset, TypeDecodeNotes* notes, Sink& sink)
      : bytes_(bytes), pos_(offset), notes_(notes), sink_(sink) {}

  // Walks one Type from the start offset. On failure error() says why.
  bool walk(Node& out) { return readType(out, 1, false); }

  std::size_t offset() const { return pos_; }
  const Error& error() const { return error_; }

 private:
  bool fail(std::size_t at, std::string message, const char* rule) {
    error_ = Error{at, std::move(message), rule};
    return false;
  }

  std::size_t left() const { return bytes_.size() - pos_; }

  void noteNonMinimal(std::size_t at) {
    if (notes_ == nullptr) return;
    if (notes_->nonMinimalIntegers++ == 0) notes_->firstNonMinimalOffset = at;
  }

  bool readUInt(SignatureField f, std::uint32_t index, std::uint32_t& value) {
    return readCompressed<DecodedUInt>(decodeCompressedUInt, f, index, value);
  }
  bool readInt(SignatureField f, std::uint32_t index, std::int32_t& value) {
    return readCompressed<DecodedInt>(decodeCompressedInt, f, index, value);
  }

  template <typename Decoded, typename Value>
  bool readCompressed(CompressedIntError (*decode)(ByteSpan, Decoded&), SignatureField f, std::uint32_t index,
                      Value& value) {
    const std::size_t at = pos_;
    Decoded decoded;
    const CompressedIntError e = decode(bytes_.subspan(pos_), decoded);
    if (e != CompressedIntError::None) {
      sink_.field(f, index, at, at + 1);
      // A lead byte announcing more bytes than remain is a cut signature;
      // 111xxxxx is no integer at all.
      return fail(at, std::string(fieldLabel(f)) + ": " + std::string(describe(e)),
                  e == CompressedIntError::InvalidLead ? rules::kInvalidCompressedInt : rules::kTruncatedSignature);
    }
    pos_ += decoded.length;
    sink_.field(f, index, at, pos_);
    if (!decoded.minimal) noteNonMinimal(at);
    value = decoded.value;
    return true;
  }

  // A count of items that each take at least one byte, `reserved` more
  // bytes being needed after them: checked against its limit and the bytes
  // left before anything loops on it.
  bool readCount(SignatureField f, const char* what, unsigned limit, std::size_t reserved, std::uint32_t& count) {
    const std::size_t at = pos_;
    if (!readUInt(f, 0, count)) return false;
    if (count > limit) {
      return fail(
          at, std::string(what) + " " + std::to_string(count) + " is more than the limit of " + std::to_string(limit),
          rules::kCountTooLarge);
    }
    return fitsBytesLeft(at, what, count, reserved);
  }

  bool fitsBytesLeft(std::size_t at, const char* what, std::uint32_t count, std::size_t reserved) {
    if (count <= left() && left() - count >= reserved) return true;
    return fail(at,
                std::string(what) + " " + std::to_string(count) + " is more than the " + std::to_string(left()) +
                    " bytes left can hold",
                rules::kCountExceedsBytes);
  }

  // TypeDefOrRefOrSpecEncoded (II.23.2.8).
  bool readToken(SignatureField f, bool allowTypeSpec, Token& token) {
    const std::size_t at = pos_;
    std::uint32_t coded = 0;
    if (!readUInt(f, 0, coded)) return false;
    const std::uint32_t tag = coded & 3u;
    const std::uint32_t row = coded >> 2;
    if (tag == 3) return fail(at, "token tag 3 is not TypeDef (0), TypeRef (1) or TypeSpec (2)", rules::kInvalidToken);
    if (tag == 2 && !allowTypeSpec) {
      return fail(at, "TypeSpec after CLASS/VALUETYPE: only a TypeDef or TypeRef may follow", rules::kInvalidToken);
    }
    if (row > 0x00FFFFFFu) {
      return fail(at, "token row " + std::to_string(row) + " does not fit in 24 bits", rules::kInvalidToken);
    }
    static constexpr std::uint32_t kTables[3] = {0x02, 0x01, 0x1B};
    token = Token{kTables[tag] << 24 | row};
    return true;
  }

  // `parameterFollows`: an enclosing FNPTR list reads a parameter right
  // after this type's bytes, so a 0x41 there is that list's sentinel and no
  // FNPTR ending this type takes it as its trailing one.
  bool readSubtype(SignatureField f, std::uint32_t index, Node& parent, unsigned depth, bool parameterFollows) {
    sink_.enter(f, index);
    Node child{};
    if (!readType(child, depth + 1, parameterFollows)) return false;
    sink_.leave();
    sink_.operand(parent, std::move(child));
    return true;
  }

  bool readType(Node& out, unsigned depth, bool parameterFollows) {
    const std::size_t begin = pos_;
    sink_.typeAt(begin);
    if (left() == 0)
      return fail(begin, "truncated: expected a type, found the end of the data", rules::kTruncatedSignature);
    if (depth > Limits::maxTypeDepth) {
      return fail(begin, "types nest deeper than the limit of " + std::to_string(Limits::maxTypeDepth),
                  rules::kTypeNestingTooDeep);
    }
    const std::uint8_t code = bytes_[pos_++];
    const auto element = static_cast<ElementType>(code);
    if (isPrimitive(element)) {
      sink_.element(out, element);
      return true;
    }
    switch (element) {
      case ElementType::Ptr:
      case ElementType::ByRef:
      case ElementType::SzArray:
      case ElementType::Pinned:
        sink_.element(out, element);
        return readSubtype(SignatureField::Inner, 0, out, depth, parameterFollows);
      case ElementType::CModReqd:
      case ElementType::CModOpt: {
        sink_.element(out, element);
        Token modifier;
        if (!readToken(SignatureField::Modifier, true, modifier)) return false;
        sink_.token(out, modifier);
        return readSubtype(SignatureField::Inner, 0, out, depth, parameterFollows);
      }
      case ElementType::Class:
      case ElementType::ValueType: {
        sink_.element(out, element);
        Token token;
        if (!readToken(SignatureField::Token, false, token)) return false;
        sink_.token(out, token);
        return true;
      }
      case ElementType::Var:
      case ElementType::MVar: {
        sink_.element(out, element);
        std::uint32_t index = 0;
        if (!readUInt(SignatureField::Index, 0, index)) return false;
        sink_.number(out, index);
        return true;
      }
      case ElementType::Array: sink_.element(out, element); return readArray(out, depth);
      case ElementType::GenericInst:
        sink_.element(out, element);
        return readGenericInstance(out, depth, parameterFollows);
      case ElementType::FnPtr: sink_.element(out, element); return readFunctionPointer(out, depth, parameterFollows);
      case ElementType::Sentinel:
        return fail(begin, "SENTINEL (0x41) may only stand in a FNPTR parameter list", rules::kInvalidSentinel);
      default:
        return fail(begin, "element type " + hex8(code) + " is not valid in a type signature",
                    rules::kUnknownElementType);
    }
  }

  // ARRAY Type ArrayShape (II.23.2.13).
  bool readArray(Node& out, unsigned depth) {
    if (!readSubtype(SignatureField::Inner, 0, out, depth, false)) return false;
    const std::size_t rankAt = pos_;
    std::uint32_t rank = 0;
    if (!readUInt(SignatureField::Rank, 0, rank)) return false;
    if (rank == 0) return fail(rankAt, "array rank must be at least 1", rules::kInvalidArrayShape);
    if (rank > Limits::maxArrayRank) {
      return fail(
          rankAt,
          "array rank " + std::to_string(rank) + " is above the limit of " + std::to_string(Limits::maxArrayRank),
          rules::kArrayRankTooLarge);
    }
    sink_.rank(out, rank);

    // Rank is at most Limits::maxArrayRank, so both counts below are too.
    std::uint32_t sizeCount = 0;
    // The sizes, then at least the lower-bound count.
    if (!readDimensionCount(SignatureField::SizeCount, rank, "sizes", "array size count", 1, sizeCount)) return false;
    for (std::uint32_t i = 0; i < sizeCount; ++i) {
      std::uint32_t size = 0;
      if (!readUInt(SignatureField::Sizes, i, size)) return false;
      sink_.size(out, size);
    }

    std::uint32_t boundCount = 0;
    if (!readDimensionCount(SignatureField::LowerBoundCount, rank, "lower bounds", "array lower bound count", 0,
                            boundCount))
      return false;
    for (std::uint32_t i = 0; i < boundCount; ++i) {
      std::int32_t bound = 0;
      if (!readInt(SignatureField::LowerBounds, i, bound)) return false;
      sink_.lowerBound(out, bound);
    }
    return true;
  }

  // NumSizes or NumLoBounds: at most one per dimension, and no more than
  // the bytes left can hold with `reserved` bytes after them.
  bool readDimensionCount(SignatureField f, std::uint32_t rank, const char* what, const char* countName,
                          std::size_t reserved, std::uint32_t& count) {
    const std::size_t at = pos_;
    if (!readUInt(f, 0, count)) return false;
    if (count > rank) {
      return fail(at, std::to_string(count) + " " + what + " for an array of rank " + std::to_string(rank),
                  rules::kInvalidArrayShape);
    }
    return fitsBytesLeft(at, countName, count, reserved);
  }

  // The byte a form goes on with (GENERICINST's head, FNPTR's calling
  // convention), or the truncation saying what it needs.
  bool readLeadByte(SignatureField field, const char* needs, std::uint8_t& byte) {
    const std::size_t at = pos_;
    if (left() == 0)
      return fail(at, std::string("truncated: ") + needs + ", found the end of the data", rules::kTruncatedSignature);
    byte = bytes_[pos_++];
    sink_.field(field, 0, at, pos_);
    return true;
  }

  // GENERICINST (CLASS | VALUETYPE) TypeDefOrRefEncoded GenArgCount Type+.
  bool readGenericInstance(Node& out, unsigned depth, bool parameterFollows) {
    const std::size_t headAt = pos_;
    std::uint8_t head = 0;
    if (!readLeadByte(SignatureField::GenericType, "GENERICINST needs CLASS or VALUETYPE", head)) return false;
    if (head != static_cast<std::uint8_t>(ElementType::Class) &&
        head != static_cast<std::uint8_t>(ElementType::ValueType)) {
      return fail(headAt, "GENERICINST must be followed by CLASS (0x12) or VALUETYPE (0x11), found " + hex8(head),
                  rules::kInvalidGenericInstance);
    }
    sink_.valueTypeHead(out, head == static_cast<std::uint8_t>(ElementType::ValueType));
    Token token;
    if (!readToken(SignatureField::GenericTypeToken, false, token)) return false;
    sink_.token(out, token);

    const std::size_t countAt = pos_;
    std::uint32_t count = 0;
    if (!readCount(SignatureField::ArgumentCount, "GENERICINST argument count", Limits::maxGenericArguments, 0,
                   count)) {
      return false;
    }
    if (count == 0)
      return fail(countAt, "GENERICINST needs at least one type argument", rules::kInvalidGenericInstance);
    for (std::uint32_t i = 0; i < count; ++i) {
      if (!readSubtype(SignatureField::Arguments, i, out, depth, i + 1 == count && parameterFollows)) return false;
    }
    return true;
  }

  // FNPTR MethodDefSig/MethodRefSig (II.23.2.1-2): the calling convention,
  // [GenParamCount], ParamCount, RetType, Param* with at most one SENTINEL.
  bool readFunctionPointer(Node& out, unsigned depth, bool parameterFollows) {
    const std::size_t conventionAt = pos_;
    std::uint8_t convention = 0;
    if (!readLeadByte(SignatureField::CallingConvention, "FNPTR needs a calling convention", convention)) return false;
    if (!callconv::isValid(convention)) {
      return fail(conventionAt,
                  "calling convention " + hex8(convention) +
                      " is invalid: its kind (low nibble) must be 0-5 or 9 and bit 0x80 must be clear",
                  rules::kInvalidCallingConvention);
    }
    sink_.callingConvention(out, convention);
    if (convention & callconv::kGeneric) {
      std::uint32_t genericCount = 0;
      if (!readUInt(SignatureField::GenericParameterCount, 0, genericCount)) return false;
      sink_.genericParameterCount(out, genericCount);
    }
    std::uint32_t parameterCount = 0;
    // The return type needs a byte besides the parameters.
    if (!readCount(SignatureField::ParameterCount, "FNPTR parameter count", Limits::maxFunctionPointerParameters, 1,
                   parameterCount)) {
      return false;
    }
    if (!readSubtype(SignatureField::Return, 0, out, depth, parameterCount > 0 || parameterFollows)) return false;

    // The sentinel rule (type.hpp), as System.Reflection.Metadata's
    // SignatureDecoder reads it: before a parameter this list still has to
    // read, a 0x41 is its sentinel (no type starts with 0x41), even right
    // after a nested pointer's last parameter. After the last parameter only
    // a vararg signature that has none yet takes it, as its trailing
    // sentinel (ilasm writes `1B 05 01 08 08 41`), and only when no
    // enclosing list reads a parameter next; otherwise the 0x41 is left to
    // the enclosing list. sentinelConflict (type.hpp) is the same rule seen
    // from the encoder and the text parser, which refuse models that would
    // read back otherwise.
    const bool mayEndWithSentinel = callconv::isVarArg(convention) && !parameterFollows;
    bool sawSentinel = false;
    for (std::uint32_t i = 0; i <= parameterCount; ++i) {
      const bool last = i == parameterCount;
      if (atSentinel() && (!last || (mayEndWithSentinel && !sawSentinel))) {
        const std::size_t sentinelAt = pos_++;
        sink_.field(SignatureField::Sentinel, 0, sentinelAt, pos_);
        if (sawSentinel) return fail(sentinelAt, kTwoSentinels, rules::kInvalidSentinel);
        sawSentinel = true;
        sink_.sentinel(out, i);
        // Before a parameter a second 0x41 can only be a second sentinel.
        if (!last && atSentinel()) {
          sink_.field(SignatureField::Sentinel, 0, pos_, pos_ + 1);
          return fail(pos_, kTwoSentinels, rules::kInvalidSentinel);
        }
      }
      if (i == parameterCount) break;
      if (!readSubtype(SignatureField::Parameters, i, out, depth, i + 1 < parameterCount || parameterFollows)) {
        return false;
      }
    }
    return true;
  }

  static constexpr const char* kTwoSentinels = "a FNPTR parameter list may hold only one SENTINEL (0x41)";

  bool atSentinel() const { return left() > 0 && bytes_[pos_] == static_cast<std::uint8_t>(ElementType::Sentinel); }

  // The message prefix for a malformed integer: the field it was meant to be.
  static const char* fieldLabel(SignatureField f) { return fieldName(f) + 1; }

  ByteSpan bytes_;
  std::size_t pos_;
  TypeDecodeNotes* notes_;
  Sink& sink_;
  Error error_;
};

}  // namespace gdmap::signature
