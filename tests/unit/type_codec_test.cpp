// The Type signature encoder and decoder against FORMAT.md §2 and ECMA-335
// II.23.2.12: spec vectors both ways, every rejection rule with its offset,
// the nesting limit, and field paths.
#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/limits.hpp>
#include <gdmap/schema/type_text.hpp>
#include <gdmap/writer/type_encoder.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using gdmap::ArrayShape;
using gdmap::Bytes;
using gdmap::ElementType;
using gdmap::FunctionPointerInfo;
using gdmap::Token;
using gdmap::Type;

constexpr Token kTypeRef12{0x01000012};  // TypeDefOrRefOrSpecEncoded 0x49
constexpr Token kTypeRef2{0x01000002};   // 0x09
constexpr Token kTypeDef2{0x02000002};   // 0x08
constexpr Token kTypeSpec3{0x1B000003};  // 0x0E

Type prim(ElementType e) { return Type::primitive(e); }
Type i4() { return prim(ElementType::I4); }

FunctionPointerInfo convention(std::uint8_t c, std::optional<std::uint32_t> sentinel = std::nullopt,
                               std::uint32_t genericCount = 0) {
  FunctionPointerInfo info;
  info.callingConvention = c;
  info.sentinel = sentinel;
  info.genericParameterCount = genericCount;
  return info;
}

ArrayShape shape(std::uint32_t rank, std::vector<std::uint32_t> sizes, std::vector<std::int32_t> bounds) {
  ArrayShape s;
  s.rank = rank;
  s.sizes = std::move(sizes);
  s.lowerBounds = std::move(bounds);
  return s;
}

struct Vector {
  const char* what;
  Bytes bytes;
  Type type;
};

std::vector<Vector> specVectors() {
  using E = ElementType;
  std::vector<Vector> v;
  // Every primitive is its own code.
  for (E e : {E::Void, E::Boolean, E::Char, E::I1, E::U1, E::I2, E::U2, E::I4, E::U4, E::I8, E::U8, E::R4, E::R8,
              E::String, E::TypedByRef, E::I, E::U, E::Object}) {
    v.push_back({"primitive", {static_cast<std::uint8_t>(e)}, prim(e)});
  }
  v.push_back({"class TypeRef 0x12", {0x12, 0x49}, Type::classType(kTypeRef12)});
  v.push_back({"valuetype TypeDef 2", {0x11, 0x08}, Type::valueType(kTypeDef2)});
  v.push_back({"class TypeDef max row", {0x12, 0xC3, 0xFF, 0xFF, 0xFC}, Type::classType(Token{0x02FFFFFF})});
  v.push_back({"!0", {0x13, 0x00}, Type::typeVariable(0)});
  v.push_back({"!!0x80", {0x1E, 0x80, 0x80}, Type::methodVariable(0x80)});
  v.push_back({"int32*", {0x0F, 0x08}, Type::pointer(i4())});
  v.push_back({"int32&", {0x10, 0x08}, Type::byRef(i4())});
  v.push_back({"int32[]", {0x1D, 0x08}, Type::szArray(i4())});
  v.push_back({"int32 pinned", {0x45, 0x08}, Type::pinned(i4())});
  // Mono's ilasm, FORMAT.md §2.
  v.push_back({"int32[5]", {0x14, 0x08, 0x01, 0x01, 0x05, 0x00}, Type::array(i4(), shape(1, {5}, {}))});
  v.push_back({"int32[0...4]", {0x14, 0x08, 0x01, 0x01, 0x05, 0x01, 0x00}, Type::array(i4(), shape(1, {5}, {0}))});
  v.push_back({"int32[...]", {0x14, 0x08, 0x01, 0x00, 0x00}, Type::array(i4(), shape(1, {}, {}))});
  v.push_back({"negative lower bounds",
               {0x14, 0x08, 0x02, 0x02, 0x03, 0x04, 0x02, 0x7B, 0x01},
               Type::array(i4(), shape(2, {3, 4}, {-3, -64}))});
  v.push_back({"wide shape values",
               {0x14, 0x08, 0x02, 0x01, 0xC0, 0x00, 0x40, 0x00, 0x01, 0x80, 0x01},
               Type::array(i4(), shape(2, {0x4000}, {-8192}))});
  v.push_back({"largest rank", {0x14, 0x08, 0x20, 0x00, 0x00}, Type::array(i4(), shape(32, {}, {}))});
  v.push_back(
      {"method int32 *(int32)", {0x1B, 0x00, 0x01, 0x08, 0x08}, Type::functionPointer(convention(0x00), i4(), {i4()})});
  v.push_back({"method instance explicit vararg void *(int32&, ..., string)",
               {0x1B, 0x65, 0x02, 0x01, 0x10, 0x08, 0x41, 0x0E},
               Type::functionPointer(convention(0x65, 1), prim(ElementType::Void),
                                     {Type::byRef(i4()), prim(ElementType::String)})});
  v.push_back({"trailing sentinel",
               {0x1B, 0x05, 0x01, 0x08, 0x08, 0x41},
               Type::functionPointer(convention(0x05, 1), i4(), {i4()})});
  v.push_back({"sentinel first",
               {0x1B, 0x05, 0x01, 0x01, 0x41, 0x08},
               Type::functionPointer(convention(0x05, 0), prim(ElementType::Void), {i4()})});
  v.push_back({"sentinel alone",
               {0x1B, 0x05, 0x00, 0x01, 0x41},
               Type::functionPointer(convention(0x05, 0), prim(ElementType::Void), {})});
  v.push_back({"generic instance method",
               {0x1B, 0x30, 0x02, 0x01, 0x01, 0x08},
               Type::functionPointer(convention(0x30, std::nullopt, 2), prim(ElementType::Void), {i4()})});
  v.push_back(
      {"unmanaged cdecl", {0x1B, 0x01, 0x00, 0x18}, Type::functionPointer(convention(0x01), prim(ElementType::I), {})});
  v.push_back(
      {"unmanaged", {0x1B, 0x09, 0x00, 0x01}, Type::functionPointer(convention(0x09), prim(ElementType::Void), {})});
  // Modifiers nest in byte order: the first modifier is the outer node.
  v.push_back({"int32 modopt(A) modreq(B)",
               {0x1F, 0x09, 0x20, 0x0E, 0x08},
               Type::modified(true, kTypeRef2, Type::modified(false, kTypeSpec3, i4()))});
  v.push_back({"modifier before a class",
               {0x20, 0x08, 0x12, 0x49},
               Type::modified(false, kTypeDef2, Type::classType(kTypeRef12))});
  v.push_back(
      {"class 0x01000012<int32>", {0x15, 0x12, 0x49, 0x01, 0x08}, Type::genericInstance(false, kTypeRef12, {i4()})});
  v.push_back({"class 0x01000012<int32, !0[]>",
               {0x15, 0x12, 0x49, 0x02, 0x08, 0x1D, 0x13, 0x00},
               Type::genericInstance(false, kTypeRef12, {i4(), Type::szArray(Type::typeVariable(0))})});
  v.push_back({"valuetype generic",
               {0x15, 0x11, 0x08, 0x01, 0x15, 0x12, 0x49, 0x01, 0x1C},
               Type::genericInstance(true, kTypeDef2,
                                     {Type::genericInstance(false, kTypeRef12, {prim(ElementType::Object)})})});
  // Accepted structurally anywhere; the map checker warns about these.
  v.push_back({"generic over void, byref, typedref, pinned",
               {0x15, 0x12, 0x49, 0x04, 0x01, 0x10, 0x08, 0x16, 0x45, 0x08},
               Type::genericInstance(
                   false, kTypeRef12,
                   {prim(ElementType::Void), Type::byRef(i4()), prim(ElementType::TypedByRef), Type::pinned(i4())})});
  // Issue #20: before a parameter the outer list still has to read, a 0x41
  // is the outer list's sentinel even right after a vararg pointer that has
  // none (System.Reflection.Metadata's SignatureDecoder reads it so).
  v.push_back({"sentinel before a parameter after a nested open vararg pointer",
               {0x1B, 0x05, 0x02, 0x01, 0x1B, 0x05, 0x00, 0x01, 0x41, 0x08},
               Type::functionPointer(convention(0x05, 1), prim(ElementType::Void),
                                     {Type::functionPointer(convention(0x05), prim(ElementType::Void), {}), i4()})});
  // Issue #20 as ilasm assembles it: method vararg class 0x0100000a<!0&,
  // valuetype 0x01000007> *(method instance explicit vararg native uint
  // *(class 0x01000009, uint8)*, ..., class 0x0100000a<method instance
  // explicit unmanaged cdecl !1 *(uint32), string[-1...3,1...]>)
  // modopt(0x01000008).
  const Type generic = Type::genericInstance(false, Token{0x0100000A},
                                             {Type::byRef(Type::typeVariable(0)), Type::valueType(Token{0x01000007})});
  const Type openVarArg = Type::pointer(Type::functionPointer(
      convention(0x65), prim(ElementType::U), {Type::classType(Token{0x01000009}), prim(ElementType::U1)}));
  const Type last =
      Type::genericInstance(false, Token{0x0100000A},
                            {Type::functionPointer(convention(0x61), Type::typeVariable(1), {prim(ElementType::U4)}),
                             Type::array(prim(ElementType::String), shape(2, {5}, {-1, 1}))});
  v.push_back({"issue #20: ilasm's sentinel after a nested vararg pointer",
               {0x20, 0x21, 0x1B, 0x05, 0x02, 0x15, 0x12, 0x29, 0x02, 0x10, 0x13, 0x00, 0x11, 0x1D,
                0x0F, 0x1B, 0x65, 0x02, 0x19, 0x12, 0x25, 0x05, 0x41, 0x15, 0x12, 0x29, 0x02, 0x1B,
                0x61, 0x01, 0x13, 0x01, 0x09, 0x14, 0x0E, 0x02, 0x01, 0x05, 0x02, 0x7F, 0x02},
               Type::modified(false, Token{0x01000008},
                              Type::functionPointer(convention(0x05, 1), generic, {openVarArg, last}))});
  // Issue #7, defect 1: a non-vararg pointer with no parameters, then the
  // outer (vararg) list's sentinel: the 0x41 is the outer one's.
  v.push_back({"non-vararg function pointer before the outer sentinel",
               {0x1B, 0x65, 0x03, 0x11, 0x29, 0x1B, 0x01, 0x00, 0x01, 0x41, 0x05, 0x13, 0x00},
               Type::functionPointer(convention(0x65, 1), Type::valueType(Token{0x0100000A}),
                                     {Type::functionPointer(convention(0x01), prim(ElementType::Void), {}),
                                      prim(ElementType::U1), Type::typeVariable(0)})});
  // A non-vararg pointer with a sentinel before a parameter, then the
  // outer trailing sentinel.
  v.push_back({"sentinel after a nested pointer that has one before its parameter",
               {0x1B, 0x05, 0x01, 0x01, 0x1B, 0x00, 0x01, 0x01, 0x41, 0x08, 0x41},
               Type::functionPointer(convention(0x05, 1), prim(ElementType::Void),
                                     {Type::functionPointer(convention(0x00, 0), prim(ElementType::Void), {i4()})})});
  // A vararg pointer that has its sentinel already leaves the next 0x41
  // to the enclosing list.
  v.push_back(
      {"sentinel after a nested vararg pointer that has one",
       {0x1B, 0x05, 0x02, 0x01, 0x1B, 0x05, 0x01, 0x01, 0x41, 0x08, 0x41, 0x08},
       Type::functionPointer(convention(0x05, 1), prim(ElementType::Void),
                             {Type::functionPointer(convention(0x05, 0), prim(ElementType::Void), {i4()}), i4()})});
  // A non-vararg pointer as the return type of a vararg pointer with only
  // a sentinel.
  v.push_back({"sentinel after a non-vararg return type",
               {0x1B, 0x05, 0x00, 0x1B, 0x00, 0x00, 0x01, 0x41},
               Type::functionPointer(convention(0x05, 0),
                                     Type::functionPointer(convention(0x00), prim(ElementType::Void), {}), {})});
  return v;
}

// Decode and skip must both reject the bytes at `offset` with a message
// containing `message` and the rule id `rule`.
void expectRejected(const Bytes& bytes, std::size_t offset, const std::string& message, const std::string& rule) {
  std::size_t at = 0;
  const gdmap::Expected<Type> decoded = gdmap::decodeType(bytes, at);
  REQUIRE_FALSE(decoded.ok());
  CHECK(decoded.error().offset == offset);
  CHECK_MESSAGE(decoded.error().message.find(message) != std::string::npos, decoded.error().message);
  CHECK(decoded.error().rule == rule);

  std::size_t skipAt = 0;
  const gdmap::Status skipped = gdmap::skipType(bytes, skipAt);
  REQUIRE_FALSE(skipped.ok());
  CHECK(skipped.error().offset == offset);
  CHECK(skipped.error().message == decoded.error().message);
  CHECK(skipped.error().rule == rule);
}

// The encoder must reject `type`, with a message starting `message` and the
// rule id `rule`, and leave the buffer as it was.
void expectEncodeRejected(const Type& type, const std::string& message, const std::string& rule) {
  Bytes out = {0xAA, 0xBB};
  const gdmap::Status status = gdmap::encodeType(type, out);
  REQUIRE_FALSE(status.ok());
  CHECK_MESSAGE(status.error().message.rfind(message, 0) == 0, status.error().message);
  CHECK(status.error().rule == rule);
  CHECK(out == Bytes{0xAA, 0xBB});
}

Bytes ptrChain(std::size_t pointers) {
  Bytes bytes(pointers, 0x0F);
  bytes.push_back(0x08);
  return bytes;
}

Type pointerModel(std::size_t pointers) {
  Type t = i4();
  for (std::size_t i = 0; i < pointers; ++i) t = Type::pointer(std::move(t));
  return t;
}

}  // namespace

TEST_CASE("codec: spec vectors decode to the expected model") {
  for (const Vector& v : specVectors()) {
    CAPTURE(v.what);
    const gdmap::Expected<Type> decoded = gdmap::decodeTypeBlob(v.bytes);
    REQUIRE_MESSAGE(decoded.ok(), decoded.error().message);
    CHECK(*decoded == v.type);
    std::size_t offset = 0;
    gdmap::TypeDecodeNotes notes;
    REQUIRE(gdmap::skipType(v.bytes, offset, &notes).ok());
    CHECK(offset == v.bytes.size());
    CHECK(notes.nonMinimalIntegers == 0);
  }
}

TEST_CASE("codec: spec vectors encode to the same bytes") {
  for (const Vector& v : specVectors()) {
    CAPTURE(v.what);
    const gdmap::Expected<Bytes> encoded = gdmap::encodeType(v.type);
    REQUIRE_MESSAGE(encoded.ok(), encoded.error().message);
    CHECK(*encoded == v.bytes);
  }
}

TEST_CASE("codec: encodeType appends to what the buffer holds") {
  Bytes out = {0xAA};
  REQUIRE(gdmap::encodeType(Type::pointer(i4()), out).ok());
  CHECK(out == Bytes{0xAA, 0x0F, 0x08});
}

TEST_CASE("codec: decodeType starts at the offset, advances it and reports absolute offsets") {
  const Bytes bytes = {0xAA, 0x0F, 0x08, 0xBB};
  std::size_t offset = 1;
  const gdmap::Expected<Type> decoded = gdmap::decodeType(bytes, offset);
  REQUIRE(decoded.ok());
  CHECK(*decoded == Type::pointer(i4()));
  CHECK(offset == 3);

  const Bytes bad = {0xAA, 0x0F, 0x42};
  offset = 1;
  const gdmap::Expected<Type> failed = gdmap::decodeType(bad, offset);
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.error().offset == 2);
}

TEST_CASE("codec: decodeTypeBlob rejects bytes after the type") {
  const gdmap::Expected<Type> decoded = gdmap::decodeTypeBlob(Bytes{0x08, 0x08});
  REQUIRE_FALSE(decoded.ok());
  CHECK(decoded.error().offset == 1);
  CHECK(decoded.error().rule == "bytes-after-type");
  // An offset past the end is a truncated signature, for all three entries.
  std::size_t past = 3;
  const gdmap::Expected<Type> pastDecode = gdmap::decodeType(Bytes{0x08}, past);
  REQUIRE_FALSE(pastDecode.ok());
  CHECK(pastDecode.error().rule == "truncated-signature");
  past = 3;
  const gdmap::Status pastSkip = gdmap::skipType(Bytes{0x08}, past);
  REQUIRE_FALSE(pastSkip.ok());
  CHECK(pastSkip.error().rule == "truncated-signature");
}

TEST_CASE("codec: non-minimal integers are accepted, counted and re-encoded shortest") {
  // !5 with a 4-byte index, class with a 2-byte token, an array whose rank,
  // size and lower bound (-3) are all in longer forms than needed.
  const Bytes bytes = {0x15, 0x12, 0x80, 0x49, 0xC0, 0x00, 0x00, 0x02, 0x13, 0xC0, 0x00, 0x00, 0x05,
                       0x14, 0x08, 0x80, 0x01, 0x80, 0x01, 0x80, 0x05, 0x80, 0x01, 0xBF, 0xFB};
  std::size_t offset = 0;
  gdmap::TypeDecodeNotes notes;
  const gdmap::Expected<Type> decoded = gdmap::decodeType(bytes, offset, &notes);
  REQUIRE_MESSAGE(decoded.ok(), decoded.error().message);
  CHECK(offset == bytes.size());
  const Type expected =
      Type::genericInstance(false, kTypeRef12, {Type::typeVariable(5), Type::array(i4(), shape(1, {5}, {-3}))});
  CHECK(*decoded == expected);
  CHECK(notes.nonMinimalIntegers == 8);
  CHECK(notes.firstNonMinimalOffset == 2);

  std::size_t skipOffset = 0;
  gdmap::TypeDecodeNotes skipNotes;
  REQUIRE(gdmap::skipType(bytes, skipOffset, &skipNotes).ok());
  CHECK(skipNotes.nonMinimalIntegers == 8);

  const gdmap::Expected<Bytes> encoded = gdmap::encodeType(*decoded);
  REQUIRE(encoded.ok());
  CHECK(*encoded == Bytes{0x15, 0x12, 0x49, 0x02, 0x13, 0x05, 0x14, 0x08, 0x01, 0x01, 0x05, 0x01, 0x7B});
}

TEST_CASE("codec: decoder rejects element types that are not types") {
  expectRejected({0x42}, 0, "element type 0x42 is not valid in a type signature", "unknown-element-type");
  expectRejected({0x00}, 0, "element type 0x00 is not valid", "unknown-element-type");
  expectRejected({0x17}, 0, "element type 0x17 is not valid", "unknown-element-type");
  expectRejected({0x0F, 0x1A}, 1, "element type 0x1a is not valid", "unknown-element-type");
  expectRejected({0x15, 0x12, 0x49, 0x01, 0x21}, 4, "element type 0x21 is not valid", "unknown-element-type");
}

TEST_CASE("codec: decoder rejects SENTINEL outside a function pointer parameter list") {
  expectRejected({0x41}, 0, "SENTINEL", "invalid-sentinel");
  expectRejected({0x1D, 0x41}, 1, "SENTINEL", "invalid-sentinel");
  expectRejected({0x15, 0x12, 0x49, 0x01, 0x41}, 4, "SENTINEL", "invalid-sentinel");
  // A sentinel where the return type belongs.
  expectRejected({0x1B, 0x05, 0x00, 0x41, 0x08}, 3, "SENTINEL", "invalid-sentinel");
}

TEST_CASE("codec: decoder rejects bad tokens") {
  expectRejected({0x12, 0x4B}, 1, "token tag 3", "invalid-token");
  expectRejected({0x1F, 0x03, 0x08}, 1, "token tag 3", "invalid-token");
  expectRejected({0x12, 0x4A}, 1, "TypeSpec after CLASS/VALUETYPE", "invalid-token");
  expectRejected({0x11, 0x0A}, 1, "TypeSpec after CLASS/VALUETYPE", "invalid-token");
  expectRejected({0x15, 0x12, 0x4A, 0x01, 0x08}, 2, "TypeSpec after CLASS/VALUETYPE", "invalid-token");
  // Row 0x1000000 (coded (0x1000000 << 2) | 1) does not fit a token.
  expectRejected({0x12, 0xC4, 0x00, 0x00, 0x01}, 1, "does not fit in 24 bits", "invalid-token");
  expectRejected({0x20, 0xC4, 0x00, 0x00, 0x02, 0x08}, 1, "does not fit in 24 bits", "invalid-token");
}

TEST_CASE("codec: decoder rejects malformed GENERICINST") {
  expectRejected({0x15, 0x12, 0x49, 0x00}, 3, "GENERICINST needs at least one type argument",
                 "invalid-generic-instance");
  expectRejected({0x15, 0x08, 0x49, 0x01, 0x08}, 1, "GENERICINST must be followed by CLASS (0x12) or VALUETYPE (0x11)",
                 "invalid-generic-instance");
  expectRejected({0x15, 0x15, 0x12, 0x49, 0x01, 0x08, 0x01, 0x08}, 1, "GENERICINST must be followed by CLASS",
                 "invalid-generic-instance");
}

TEST_CASE("codec: decoder rejects malformed array shapes") {
  expectRejected({0x14, 0x08, 0x00, 0x00, 0x00}, 2, "array rank must be at least 1", "invalid-array-shape");
  expectRejected({0x14, 0x08, 0x02, 0x03, 0x01, 0x02, 0x03, 0x00}, 3, "3 sizes for an array of rank 2",
                 "invalid-array-shape");
  expectRejected({0x14, 0x08, 0x02, 0x00, 0x03, 0x00, 0x00, 0x00}, 4, "3 lower bounds for an array of rank 2",
                 "invalid-array-shape");
  expectRejected({0x14, 0x08, 0x01, 0x01, 0xE0, 0x00}, 4, "111xxxxx", "invalid-compressed-int");
}

TEST_CASE("codec: decoder rejects two sentinels") {
  expectRejected({0x1B, 0x05, 0x02, 0x01, 0x41, 0x08, 0x41, 0x08}, 6, "only one SENTINEL", "invalid-sentinel");
  expectRejected({0x1B, 0x05, 0x01, 0x01, 0x41, 0x41, 0x08}, 5, "only one SENTINEL", "invalid-sentinel");
  // Issue #20: before the outer list's parameter both 0x41 are its own (a
  // nested pointer takes no trailing sentinel where its enclosing list
  // reads a parameter next), as System.Reflection.Metadata reads them.
  expectRejected({0x1B, 0x05, 0x02, 0x01, 0x1B, 0x05, 0x00, 0x01, 0x41, 0x41, 0x08}, 9, "only one SENTINEL",
                 "invalid-sentinel");
  expectRejected({0x1B, 0x05, 0x01, 0x1B, 0x05, 0x00, 0x01, 0x41, 0x41, 0x08}, 8, "only one SENTINEL",
                 "invalid-sentinel");
  // After the last parameter a list that has its sentinel leaves a 0x41 to
  // the enclosing list; with none, it is left over.
  const gdmap::Expected<Type> blob = gdmap::decodeTypeBlob(Bytes{0x1B, 0x05, 0x01, 0x01, 0x41, 0x08, 0x41});
  REQUIRE_FALSE(blob.ok());
  CHECK(blob.error().offset == 6);
  CHECK(blob.error().rule == "bytes-after-type");
}

TEST_CASE("codec: only a vararg signature ends with a sentinel") {
  // Issue #7, defect 1: after the last parameter of a non-vararg pointer a
  // 0x41 is not that pointer's. Alone, it is left over.
  for (std::uint8_t c : {0x00, 0x01, 0x02, 0x03, 0x04, 0x09, 0x20, 0x60, 0x30}) {
    CAPTURE(int{c});
    const Bytes bytes = c & 0x10 ? Bytes{0x1B, c, 0x00, 0x00, 0x01, 0x41} : Bytes{0x1B, c, 0x00, 0x01, 0x41};
    std::size_t offset = 0;
    const gdmap::Expected<Type> decoded = gdmap::decodeType(bytes, offset);
    REQUIRE(decoded.ok());
    CHECK(offset == bytes.size() - 1);
    CHECK_FALSE(decoded->method.sentinel.has_value());
    expectEncodeRejected(Type::functionPointer(convention(c, 0), prim(ElementType::Void), {}),
                         "sentinel: a SENTINEL after the last parameter is allowed only in a vararg signature",
                         "invalid-sentinel");
  }
  // Before a parameter a sentinel is unambiguous in any signature.
  const Bytes before = {0x1B, 0x00, 0x01, 0x01, 0x41, 0x08};
  const gdmap::Expected<Type> decoded = gdmap::decodeTypeBlob(before);
  REQUIRE(decoded.ok());
  CHECK(*decoded == Type::functionPointer(convention(0x00, 0), prim(ElementType::Void), {i4()}));
  CHECK(*gdmap::encodeType(*decoded) == before);
}

TEST_CASE("codec: decoder rejects invalid calling conventions") {
  for (std::uint8_t c : {0x06, 0x07, 0x08, 0x0A, 0x0F, 0x80, 0x85, 0xB0}) {
    CAPTURE(int{c});
    expectRejected({0x1B, c, 0x00, 0x08}, 1, "is invalid: its kind (low nibble) must be 0-5 or 9",
                   "invalid-calling-convention");
  }
}

TEST_CASE("codec: decoder rejects truncated input") {
  expectRejected({}, 0, "truncated: expected a type, found the end of the data", "truncated-signature");
  expectRejected({0x0F}, 1, "truncated: expected a type, found the end of the data", "truncated-signature");
  expectRejected({0x15, 0x12, 0x49, 0x02, 0x0F, 0x08}, 6, "truncated: expected a type", "truncated-signature");
  expectRejected({0x12}, 1, "expected a compressed integer, found the end of the data", "truncated-signature");
  expectRejected({0x13, 0x80}, 1, "truncated compressed integer", "truncated-signature");
  expectRejected({0x13, 0xC0, 0x00, 0x00}, 1, "truncated compressed integer", "truncated-signature");
  expectRejected({0x15}, 1, "truncated: GENERICINST needs CLASS or VALUETYPE", "truncated-signature");
  expectRejected({0x1B}, 1, "truncated: FNPTR needs a calling convention", "truncated-signature");
  expectRejected({0x1B, 0x10}, 2, "found the end of the data", "truncated-signature");
  expectRejected({0x14, 0x08}, 2, "found the end of the data", "truncated-signature");
  expectRejected({0x14, 0x08, 0x01}, 3, "found the end of the data", "truncated-signature");
  // One size and then no byte for the lower-bound count.
  expectRejected({0x14, 0x08, 0x01, 0x01, 0x05}, 3, "array size count 1 is more than the 1 bytes left",
                 "count-exceeds-bytes");
  expectRejected({0x14, 0x08, 0x01, 0x00, 0x01}, 4, "more than the 0 bytes left", "count-exceeds-bytes");
  expectRejected({0x1F, 0x09}, 2, "truncated: expected a type", "truncated-signature");
}

TEST_CASE("codec: decoder rejects a malformed compressed integer naming the field") {
  expectRejected({0x13, 0xE0}, 1, "index: invalid compressed integer", "invalid-compressed-int");
  expectRejected({0x1E, 0xFF, 0x00, 0x00, 0x00}, 1, "index: invalid compressed integer", "invalid-compressed-int");
}

TEST_CASE("codec: counts larger than the bytes left are rejected before any loop") {
  // Within the limits, but more items than bytes.
  expectRejected({0x15, 0x12, 0x49, 0xBF, 0xFF, 0x08, 0x08, 0x08}, 3,
                 "GENERICINST argument count 16383 is more than the 3 bytes left", "count-exceeds-bytes");
  expectRejected({0x1B, 0x00, 0xBF, 0xFF, 0x08}, 2, "FNPTR parameter count 16383", "count-exceeds-bytes");
  // One parameter needs two bytes with the return type.
  expectRejected({0x1B, 0x00, 0x01, 0x08}, 2, "FNPTR parameter count 1", "count-exceeds-bytes");
  expectRejected({0x14, 0x08, 0x20, 0x1F, 0x01, 0x00}, 3, "array size count 31 is more than the 2 bytes left",
                 "count-exceeds-bytes");
  expectRejected({0x14, 0x08, 0x20, 0x00, 0x1F, 0x02}, 4, "array lower bound count 31 is more than the 1 bytes left",
                 "count-exceeds-bytes");
  // Beyond a limit, the limit is the error, whatever the bytes left.
  expectRejected({0x15, 0x12, 0x49, 0xDF, 0xFF, 0xFF, 0xFF, 0x08}, 3,
                 "GENERICINST argument count 536870911 is more than the limit of 65535", "count-too-large");
  expectRejected({0x1B, 0x00, 0xDF, 0xFF, 0xFF, 0xFF, 0x08}, 2,
                 "FNPTR parameter count 536870911 is more than the limit", "count-too-large");
}

TEST_CASE("codec: nesting is limited to kMaxTypeDepth types") {
  static_assert(gdmap::kMaxTypeDepth == 256);
  const Bytes deepest = ptrChain(255);  // 256 types
  const gdmap::Expected<Type> decoded = gdmap::decodeTypeBlob(deepest);
  REQUIRE(decoded.ok());
  CHECK(*decoded == pointerModel(255));
  std::size_t offset = 0;
  CHECK(gdmap::skipType(deepest, offset).ok());

  expectRejected(ptrChain(256), 256, "deeper than the limit of 256", "type-nesting-too-deep");
}

TEST_CASE("codec: a 50,000-deep PTR chain is an error, not a stack overflow") {
  expectRejected(ptrChain(50000), 256, "deeper than the limit of 256", "type-nesting-too-deep");
  // Modifiers count as nesting too.
  Bytes modifiers;
  for (int i = 0; i < 50000; ++i) modifiers.insert(modifiers.end(), {0x1F, 0x09});
  modifiers.push_back(0x08);
  expectRejected(modifiers, 512, "deeper than the limit", "type-nesting-too-deep");
}

TEST_CASE("codec: encoder rejects a model deeper than kMaxTypeDepth") {
  const gdmap::Expected<Bytes> deepest = gdmap::encodeType(pointerModel(255));
  REQUIRE(deepest.ok());
  CHECK(*deepest == ptrChain(255));
  std::string path;
  for (int i = 0; i < 256; ++i) path += (i == 0 ? "inner" : ".inner");
  expectEncodeRejected(pointerModel(256), path + ": types nest deeper than the limit of 256", "type-nesting-too-deep");
}

TEST_CASE("codec: encoder rejects bad tokens with the field path") {
  expectEncodeRejected(Type::classType(Token{0x1B000001}), "token: TypeSpec after CLASS/VALUETYPE", "invalid-token");
  expectEncodeRejected(Type::valueType(Token{0x1B000001}), "token: TypeSpec after CLASS/VALUETYPE", "invalid-token");
  expectEncodeRejected(Type::classType(Token{0x06000001}), "token: table 0x06 is not TypeDef", "invalid-token");
  expectEncodeRejected(Type::modified(true, Token{0x00000001}, i4()), "modifier: table 0x00 is not TypeDef",
                       "invalid-token");
  expectEncodeRejected(Type::genericInstance(false, Token{0x1B000001}, {i4()}),
                       "genericType.token: TypeSpec after CLASS/VALUETYPE", "invalid-token");
  expectEncodeRejected(Type::genericInstance(false, kTypeRef12, {i4(), Type::classType(Token{0x1B000001})}),
                       "arguments[1].token: TypeSpec after CLASS/VALUETYPE", "invalid-token");
}

TEST_CASE("codec: encoder rejects a GENERICINST without arguments") {
  expectEncodeRejected(Type::genericInstance(false, kTypeRef12, {}),
                       "argumentCount: GENERICINST needs at least one type argument", "invalid-generic-instance");
  expectEncodeRejected(Type::szArray(Type::genericInstance(true, kTypeDef2, {})),
                       "inner.argumentCount: GENERICINST needs at least one type argument", "invalid-generic-instance");
}

TEST_CASE("codec: encoder rejects bad array shapes") {
  expectEncodeRejected(Type::genericInstance(false, kTypeRef12, {i4(), Type::array(i4(), shape(0, {}, {}))}),
                       "arguments[1].shape.rank: array rank must be at least 1", "invalid-array-shape");
  expectEncodeRejected(Type::array(i4(), shape(2, {1, 2, 3}, {})), "shape.sizeCount: 3 sizes for an array of rank 2",
                       "invalid-array-shape");
  expectEncodeRejected(Type::array(i4(), shape(2, {}, {0, 0, 0})),
                       "shape.lowerBoundCount: 3 lower bounds for an array of rank 2", "invalid-array-shape");
  expectEncodeRejected(Type::array(i4(), shape(2, {5, 0x20000000}, {})), "shape.sizes[1]: 536870912 is larger",
                       "value-out-of-range");
  expectEncodeRejected(Type::array(i4(), shape(2, {}, {0, -268435457})),
                       "shape.lowerBounds[1]: -268435457 is outside the signed compressed integer range",
                       "value-out-of-range");
  expectEncodeRejected(Type::array(i4(), shape(1, {}, {268435456})), "shape.lowerBounds[0]: 268435456 is outside",
                       "value-out-of-range");
}

TEST_CASE("codec: encoder rejects generic parameter numbers out of range") {
  expectEncodeRejected(Type::typeVariable(0x20000000), "index: 536870912 is larger", "value-out-of-range");
  expectEncodeRejected(Type::pointer(Type::methodVariable(0xFFFFFFFF)), "inner.index: 4294967295 is larger",
                       "value-out-of-range");
}

TEST_CASE("codec: encoder rejects bad function pointers") {
  const Type v = prim(ElementType::Void);
  for (std::uint8_t c : {0x06, 0x0A, 0x80, 0x89}) {
    CAPTURE(int{c});
    expectEncodeRejected(Type::functionPointer(convention(c), v, {}), "callingConvention: calling convention 0x",
                         "invalid-calling-convention");
  }
  expectEncodeRejected(Type::functionPointer(convention(0x05, 2), v, {i4()}),
                       "sentinel: SENTINEL before parameter 2 of 1", "invalid-sentinel");
  expectEncodeRejected(Type::functionPointer(convention(0x00, std::nullopt, 1), v, {}),
                       "genericParameterCount: 1 generic parameters without the generic flag",
                       "invalid-calling-convention");
  expectEncodeRejected(Type::functionPointer(convention(0x10, std::nullopt, 0x20000000), v, {}),
                       "genericParameterCount: 536870912 is larger", "value-out-of-range");
  expectEncodeRejected(Type::functionPointer(convention(0x00), v, {i4(), Type::classType(Token{0x1B000001})}),
                       "parameters[1].token: TypeSpec", "invalid-token");
  expectEncodeRejected(Type::functionPointer(convention(0x00), Type::array(i4(), shape(0, {}, {})), {}),
                       "return.shape.rank: array rank must be at least 1", "invalid-array-shape");
  Type noReturn = Type::functionPointer(convention(0x00), v, {});
  noReturn.operands.clear();
  expectEncodeRejected(noReturn, "return: FNPTR needs a return type", "invalid-type");
}

TEST_CASE("codec: encoder rejects a sentinel that would read back as a nested one") {
  // method vararg void *(method vararg void *()*, ...) would be written
  // 1B 05 01 01 0F 1B 05 00 01 41: after the last parameter the innermost
  // open vararg pointer takes the 0x41 as its own trailing sentinel.
  const Type inner = Type::functionPointer(convention(0x05), prim(ElementType::Void), {});
  const std::string message = "sentinel: a SENTINEL right after a vararg function pointer type that has no SENTINEL";
  expectEncodeRejected(Type::functionPointer(convention(0x05, 1), prim(ElementType::Void), {Type::pointer(inner)}),
                       message, "invalid-sentinel");
  expectEncodeRejected(Type::functionPointer(convention(0x05, 0), inner, {}), message, "invalid-sentinel");
  // Deeper on the right edge: the innermost open vararg pointer would take it.
  const Type wrapped = Type::functionPointer(convention(0x00), prim(ElementType::Void), {i4(), inner});
  expectEncodeRejected(Type::functionPointer(convention(0x05, 1), prim(ElementType::Void), {wrapped}), message,
                       "invalid-sentinel");
  // Before a parameter the same 0x41 is the outer list's (issue #20).
  const Type outerHasIt = Type::functionPointer(convention(0x05, 1), prim(ElementType::Void), {inner, i4()});
  const Bytes bytes = {0x1B, 0x05, 0x02, 0x01, 0x1B, 0x05, 0x00, 0x01, 0x41, 0x08};
  CHECK(*gdmap::encodeType(outerHasIt) == bytes);
  CHECK(*gdmap::decodeTypeBlob(bytes) == outerHasIt);
  // A non-vararg inner pointer, or one with its sentinel before a
  // parameter, leaves the 0x41 to the outer list however it ends.
  for (const Type& closed : {Type::functionPointer(convention(0x00), prim(ElementType::Void), {}),
                             Type::functionPointer(convention(0x05, 0), prim(ElementType::Void), {i4()})}) {
    for (const std::optional<std::uint32_t> sentinel :
         {std::optional<std::uint32_t>(1), std::optional<std::uint32_t>(2)}) {
      const Type outer = Type::functionPointer(convention(0x05, sentinel), prim(ElementType::Void), {i4(), closed});
      const gdmap::Expected<Bytes> encoded = gdmap::encodeType(outer);
      REQUIRE(encoded.ok());
      const gdmap::Expected<Type> back = gdmap::decodeTypeBlob(*encoded);
      REQUIRE(back.ok());
      CHECK(*back == outer);
    }
  }
}

TEST_CASE("codec: encoder rejects a trailing sentinel that an enclosing list would read (issue #20)") {
  // method vararg void *(method vararg void *(...), int32) would be
  // written 1B 05 02 01 1B 05 00 01 41 08, which reads back with the 0x41
  // as the outer list's sentinel before int32.
  const Type trailing = Type::functionPointer(convention(0x05, 0), prim(ElementType::Void), {});
  const std::string message =
      "ends with a function pointer's trailing SENTINEL, which a decoder reads as the "
      "SENTINEL of this parameter list since parameter ";
  expectEncodeRejected(Type::functionPointer(convention(0x05), prim(ElementType::Void), {trailing, i4()}),
                       "parameters[0]: " + message + "1 follows", "invalid-sentinel");
  // Through a pointer and the last argument of a generic, as a return type,
  // and with a sentinel of the outer list's own (a second one there).
  const Type deep = Type::genericInstance(false, kTypeRef12, {i4(), Type::pointer(trailing)});
  expectEncodeRejected(Type::functionPointer(convention(0x00), prim(ElementType::Void), {i4(), deep, i4()}),
                       "parameters[1]: " + message + "2 follows", "invalid-sentinel");
  expectEncodeRejected(Type::functionPointer(convention(0x05), trailing, {i4()}), "return: " + message + "0 follows",
                       "invalid-sentinel");
  expectEncodeRejected(Type::functionPointer(convention(0x05, 1), prim(ElementType::Void), {trailing, i4()}),
                       "parameters[0]: " + message + "1 follows", "invalid-sentinel");
  // Deeper: the trailing sentinel ends a pointer that is itself the last
  // parameter of an open vararg pointer.
  const Type open = Type::functionPointer(convention(0x05), prim(ElementType::Void), {trailing});
  expectEncodeRejected(Type::functionPointer(convention(0x00), prim(ElementType::Void), {open, i4()}),
                       "parameters[0]: " + message + "1 follows", "invalid-sentinel");
  // Where no parameter follows, the trailing sentinel reads back as it is.
  for (const Type& fine :
       {Type::functionPointer(convention(0x00), prim(ElementType::Void), {i4(), trailing}),
        Type::genericInstance(false, kTypeRef12, {trailing, i4()}), Type::array(trailing, shape(1, {}, {}))}) {
    const gdmap::Expected<Bytes> encoded = gdmap::encodeType(fine);
    REQUIRE(encoded.ok());
    CHECK(*gdmap::decodeTypeBlob(*encoded) == fine);
  }
}

TEST_CASE("codec: an ARRAY's rank never reads as a SENTINEL") {
  // The rank byte follows the element type's bytes; above 32 it is refused
  // before anything else could read 65 (0x41) as a sentinel.
  const Type open = Type::functionPointer(convention(0x05), prim(ElementType::Void), {});
  expectEncodeRejected(Type::array(open, shape(65, {}, {})), "shape.rank: array rank 65 is above the limit of 32",
                       "array-rank-too-large");
  // 14 (1B 05 00 01 41) 01 00 00: the sentinel is the pointer's, rank 1.
  const gdmap::Expected<Type> decoded =
      gdmap::decodeTypeBlob(Bytes{0x14, 0x1B, 0x05, 0x00, 0x01, 0x41, 0x01, 0x00, 0x00});
  REQUIRE(decoded.ok());
  CHECK(*decoded ==
        Type::array(Type::functionPointer(convention(0x05, 0), prim(ElementType::Void), {}), shape(1, {}, {})));
}

TEST_CASE("codec: limits on rank and counts hold in decoder and encoder alike") {
  static_assert(gdmap::Limits::maxArrayRank == 32);
  // Rank 32 with every size and lower bound is fine; 33 is not.
  ArrayShape full = shape(32, std::vector<std::uint32_t>(32, 7), std::vector<std::int32_t>(32, -1));
  const gdmap::Expected<Bytes> fullBytes = gdmap::encodeType(Type::array(i4(), full));
  REQUIRE(fullBytes.ok());
  const gdmap::Expected<Type> fullBack = gdmap::decodeTypeBlob(*fullBytes);
  REQUIRE(fullBack.ok());
  CHECK(fullBack->shape == full);
  expectRejected({0x14, 0x08, 0x21, 0x00, 0x00}, 2, "array rank 33 is above the limit of 32", "array-rank-too-large");
  expectRejected({0x14, 0x08, 0xDF, 0xFF, 0xFF, 0xFF, 0x00, 0x00}, 2, "above the limit", "array-rank-too-large");
  expectEncodeRejected(Type::array(i4(), shape(33, {}, {})), "shape.rank: array rank 33 is above the limit of 32",
                       "array-rank-too-large");
  expectEncodeRejected(Type::array(i4(), shape(0x20000000, {}, {})), "shape.rank: array rank 536870912 is above",
                       "array-rank-too-large");

  // Generic arguments and parameters: 65535 at most, refused at the count
  // before any argument is read, whatever the bytes left.
  static_assert(gdmap::Limits::maxGenericArguments == 0xFFFF);
  static_assert(gdmap::Limits::maxFunctionPointerParameters == 0xFFFF);
  Bytes manyArguments = {0x15, 0x12, 0x49, 0xC0, 0x01, 0x00, 0x00};
  manyArguments.insert(manyArguments.end(), 0x10000, 0x08);
  expectRejected(manyArguments, 3, "GENERICINST argument count 65536 is more than the limit of 65535",
                 "count-too-large");
  Bytes manyParameters = {0x1B, 0x00, 0xC0, 0x01, 0x00, 0x00};
  manyParameters.insert(manyParameters.end(), 0x10001, 0x08);
  expectRejected(manyParameters, 2, "FNPTR parameter count 65536 is more than the limit of 65535", "count-too-large");

  const std::vector<Type> limit(0xFFFF, i4());
  const Type widest = Type::genericInstance(false, kTypeRef12, limit);
  const gdmap::Expected<Bytes> widestBytes = gdmap::encodeType(widest);
  REQUIRE(widestBytes.ok());
  CHECK(*gdmap::decodeTypeBlob(*widestBytes) == widest);
  const Type longest = Type::functionPointer(convention(0x00), prim(ElementType::Void), limit);
  const gdmap::Expected<Bytes> longestBytes = gdmap::encodeType(longest);
  REQUIRE(longestBytes.ok());
  CHECK(*gdmap::decodeTypeBlob(*longestBytes) == longest);

  std::vector<Type> over = limit;
  over.push_back(i4());
  expectEncodeRejected(Type::genericInstance(false, kTypeRef12, over),
                       "argumentCount: 65536 type arguments are more than the limit of 65535", "count-too-large");
  expectEncodeRejected(Type::functionPointer(convention(0x00), prim(ElementType::Void), over),
                       "parameterCount: 65536 parameters are more than the limit of 65535", "count-too-large");
}

TEST_CASE("codec: encoder rejects wrong operand counts and non-type elements") {
  Type bare;
  bare.element = ElementType::Ptr;
  expectEncodeRejected(bare, "PTR takes 1 operand, found 0", "invalid-type");
  Type primitiveWithOperand = i4();
  primitiveWithOperand.operands.push_back(i4());
  expectEncodeRejected(Type::szArray(primitiveWithOperand), "inner: a primitive type takes 0 operands, found 1",
                       "invalid-type");
  Type classWithOperand = Type::classType(kTypeRef12);
  classWithOperand.operands.push_back(i4());
  expectEncodeRejected(classWithOperand, "CLASS takes 0 operands, found 1", "invalid-type");
  Type arrayWithTwo = Type::array(i4(), shape(1, {}, {}));
  arrayWithTwo.operands.push_back(i4());
  expectEncodeRejected(arrayWithTwo, "ARRAY takes 1 operand, found 2", "invalid-type");
  expectEncodeRejected(Type::pointer(prim(static_cast<ElementType>(0x42))),
                       "inner: element type 0x42 is not valid in a type signature", "unknown-element-type");
  expectEncodeRejected(prim(ElementType::Sentinel), "SENTINEL (0x41) is not a type", "invalid-sentinel");
}

TEST_CASE("codec: typeFieldPath names every byte of a generic instance") {
  // class 0x01000012<int32, !0[]>
  const Bytes bytes = {0x15, 0x12, 0x49, 0x02, 0x08, 0x1D, 0x13, 0x00};
  const std::vector<std::string> expected = {"",
                                             ".genericType",
                                             ".genericType.token",
                                             ".argumentCount",
                                             ".arguments[0]",
                                             ".arguments[1]",
                                             ".arguments[1].inner",
                                             ".arguments[1].inner.index"};
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    CAPTURE(i);
    CHECK(gdmap::typeFieldPath(bytes, 0, i) == expected[i]);
  }
}

TEST_CASE("codec: typeFieldPath names every byte of an array shape") {
  const Bytes bytes = {0x14, 0x08, 0x02, 0x02, 0x03, 0x80, 0x80, 0x02, 0x7B, 0xBF, 0x7F};
  const std::vector<std::string> expected = {"",
                                             ".inner",
                                             ".shape.rank",
                                             ".shape.sizeCount",
                                             ".shape.sizes[0]",
                                             ".shape.sizes[1]",
                                             ".shape.sizes[1]",
                                             ".shape.lowerBoundCount",
                                             ".shape.lowerBounds[0]",
                                             ".shape.lowerBounds[1]",
                                             ".shape.lowerBounds[1]"};
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    CAPTURE(i);
    CHECK(gdmap::typeFieldPath(bytes, 0, i) == expected[i]);
  }
}

TEST_CASE("codec: typeFieldPath names every byte of a function pointer") {
  // method instance generic void *(int32, ..., string modreq(0x01000002)), 2 generic parameters
  const Bytes bytes = {0x1B, 0x30, 0x02, 0x02, 0x01, 0x08, 0x41, 0x1F, 0x09, 0x0E};
  const std::vector<std::string> expected = {
      "",          ".callingConvention", ".genericParameterCount",  ".parameterCount",     ".return", ".parameters[0]",
      ".sentinel", ".parameters[1]",     ".parameters[1].modifier", ".parameters[1].inner"};
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    CAPTURE(i);
    CHECK(gdmap::typeFieldPath(bytes, 0, i) == expected[i]);
  }
}

TEST_CASE("codec: typeFieldPath works from a start offset and on malformed types") {
  const Bytes shifted = {0xAA, 0x0F, 0x12, 0x49};
  CHECK(gdmap::typeFieldPath(shifted, 1, 1) == "");
  CHECK(gdmap::typeFieldPath(shifted, 1, 2) == ".inner");
  CHECK(gdmap::typeFieldPath(shifted, 1, 3) == ".inner.token");
  // The byte a decode error points at still gets its field.
  CHECK(gdmap::typeFieldPath(Bytes{0x14, 0x08, 0x00, 0x00, 0x00}, 0, 2) == ".shape.rank");
  CHECK(gdmap::typeFieldPath(Bytes{0x15, 0x12, 0x49, 0x00}, 0, 3) == ".argumentCount");
  CHECK(gdmap::typeFieldPath(Bytes{0x15, 0x12, 0x49, 0x01, 0x42}, 0, 4) == ".arguments[0]");
  CHECK(gdmap::typeFieldPath(Bytes{0x1B, 0x05, 0x02, 0x01, 0x41, 0x08, 0x41, 0x08}, 0, 6) == ".sentinel");
  // A 0x41 after a non-vararg pointer's parameters is the outer list's.
  CHECK(gdmap::typeFieldPath(Bytes{0x1B, 0x05, 0x01, 0x01, 0x1B, 0x00, 0x00, 0x01, 0x41}, 0, 8) == ".sentinel");
  CHECK(gdmap::typeFieldPath(Bytes{0x1B, 0x05, 0x01, 0x01, 0x1B, 0x00, 0x00, 0x01, 0x41}, 0, 7) ==
        ".parameters[0].return");
  // Past the first malformed byte: the type where reading stopped.
  CHECK(gdmap::typeFieldPath(Bytes{0x1D, 0x15, 0x12, 0x49, 0x01, 0x42, 0x08}, 0, 6) == ".inner.arguments[0]");
}

// docs/errors.md, "Type signatures and type text": one example of each rule
// from the decoder, the encoder or the parser, as documented there.
TEST_CASE("codec: every type rule in docs/errors.md has its documented example") {
  const auto decodeRule = [](const Bytes& bytes) {
    const gdmap::Expected<Type> t = gdmap::decodeTypeBlob(bytes);
    return t.ok() ? std::string("(none)") : t.error().rule;
  };
  const auto parseRule = [](std::string_view text) {
    const gdmap::Expected<Type> t = gdmap::parseType(text);
    return t.ok() ? std::string("(none)") : t.error().rule;
  };
  Type bare;
  bare.element = ElementType::Ptr;
  CHECK(gdmap::encodeType(bare).error().rule == "invalid-type");
  CHECK(decodeRule({0x15, 0x12, 0x49, 0x02, 0x0F, 0x08}) == "truncated-signature");
  CHECK(decodeRule({0x13, 0xE0}) == "invalid-compressed-int");
  CHECK(decodeRule({0x15, 0x12, 0x49, 0xBF, 0xFF, 0x08, 0x08, 0x08}) == "count-exceeds-bytes");
  CHECK(decodeRule({0x08, 0x08}) == "bytes-after-type");
  CHECK(decodeRule({0x0F, 0x1A}) == "unknown-element-type");
  CHECK(decodeRule({0x12, 0x4A}) == "invalid-token");
  CHECK(parseRule("class 0x03000001") == "invalid-token");
  CHECK(decodeRule({0x15, 0x12, 0x49, 0x00}) == "invalid-generic-instance");
  CHECK(parseRule("class 0x01000012<>") == "invalid-generic-instance");
  CHECK(decodeRule({0x14, 0x08, 0x02, 0x03, 0x01, 0x02, 0x03, 0x00}) == "invalid-array-shape");
  CHECK(parseRule("int32[3...1]") == "invalid-array-shape");
  CHECK(decodeRule({0x1B, 0x06, 0x00, 0x08}) == "invalid-calling-convention");
  CHECK(decodeRule({0x1B, 0x05, 0x01, 0x01, 0x41, 0x41, 0x08}) == "invalid-sentinel");
  CHECK(parseRule("method void *(int32, ...)") == "invalid-sentinel");
  CHECK(decodeRule({0x1B, 0x05, 0x02, 0x01, 0x1B, 0x05, 0x00, 0x01, 0x41, 0x41, 0x08}) == "invalid-sentinel");
  CHECK(parseRule("method vararg void *(method vararg void *(...), int32)") == "invalid-sentinel");
  CHECK(decodeRule(ptrChain(256)) == "type-nesting-too-deep");
  CHECK(decodeRule({0x14, 0x08, 0x21, 0x00, 0x00}) == "array-rank-too-large");
  CHECK(parseRule("method void *()[rank(65)]") == "array-rank-too-large");
  Bytes manyArguments = {0x15, 0x12, 0x49, 0xC0, 0x01, 0x00, 0x00};
  manyArguments.insert(manyArguments.end(), 0x10000, 0x08);
  CHECK(decodeRule(manyArguments) == "count-too-large");
  CHECK(parseRule("!536870912") == "value-out-of-range");
  CHECK(parseRule("int32 foo") == "type-text-syntax");
}
