// The ILAsm type text: every form parses to the model the spec describes and
// prints back canonically, alternative spellings parse to the same model,
// every rejection carries its offset and says what was expected, and deep
// nesting is an error rather than a crash.
#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/type_text.hpp>
#include <gdmap/writer/type_encoder.hpp>

#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gdmap {
namespace {

const Token kTypeRef12{0x01000012};
const Token kTypeDef3{0x02000003};
const Token kModA{0x01000001};
const Token kModB{0x01000002};

Type prim(ElementType e) { return Type::primitive(e); }
Type i4() { return prim(ElementType::I4); }

ArrayShape shape(std::uint32_t rank, std::vector<std::uint32_t> sizes, std::vector<std::int32_t> lowerBounds) {
  ArrayShape s;
  s.rank = rank;
  s.sizes = std::move(sizes);
  s.lowerBounds = std::move(lowerBounds);
  return s;
}

FunctionPointerInfo callingConvention(std::uint8_t c, std::uint32_t genericCount = 0,
                                      std::optional<std::uint32_t> sentinel = std::nullopt) {
  FunctionPointerInfo info;
  info.callingConvention = c;
  info.genericParameterCount = genericCount;
  info.sentinel = sentinel;
  return info;
}

// `text` is canonical: it parses to `expected`, and `expected` prints as `text`.
void checkCanonical(std::string_view text, const Type& expected) {
  INFO("text: ", std::string(text));
  const Expected<Type> parsed = parseType(text);
  if (!parsed) FAIL("offset ", parsed.error().offset, ": ", parsed.error().message);
  CHECK(*parsed == expected);
  CHECK(formatType(expected) == text);
}

// `text` is another spelling of `canonical`; both parse to `expected`.
void checkSpelling(std::string_view text, std::string_view canonical, const Type& expected) {
  INFO("text: ", std::string(text));
  const Expected<Type> parsed = parseType(text);
  if (!parsed) FAIL("offset ", parsed.error().offset, ": ", parsed.error().message);
  CHECK(*parsed == expected);
  CHECK(formatType(*parsed) == canonical);
  checkCanonical(canonical, expected);
}

void checkError(std::string_view text, std::size_t offset, std::string_view messagePart, std::string_view rule) {
  INFO("text: ", std::string(text.substr(0, 80)));
  const Expected<Type> parsed = parseType(text);
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.error().offset == offset);
  INFO("message: ", parsed.error().message);
  CHECK(parsed.error().message.find(messagePart) != std::string::npos);
  CHECK(parsed.error().rule == rule);
}

std::string repeat(std::string_view piece, std::size_t times) {
  std::string s;
  s.reserve(piece.size() * times);
  for (std::size_t i = 0; i < times; ++i) s += piece;
  return s;
}

// The number of nodes on the longest path from the root to a leaf.
std::size_t depthOf(const Type& t) {
  std::size_t deepest = 0;
  for (const Type& o : t.operands) deepest = std::max(deepest, depthOf(o));
  return deepest + 1;
}

TEST_CASE("text: primitives print their ILAsm names and parse back") {
  const std::pair<std::string_view, ElementType> cases[] = {
      {"void", ElementType::Void},     {"bool", ElementType::Boolean},
      {"char", ElementType::Char},     {"int8", ElementType::I1},
      {"uint8", ElementType::U1},      {"int16", ElementType::I2},
      {"uint16", ElementType::U2},     {"int32", ElementType::I4},
      {"uint32", ElementType::U4},     {"int64", ElementType::I8},
      {"uint64", ElementType::U8},     {"float32", ElementType::R4},
      {"float64", ElementType::R8},    {"string", ElementType::String},
      {"object", ElementType::Object}, {"typedref", ElementType::TypedByRef},
      {"native int", ElementType::I},  {"native uint", ElementType::U},
  };
  for (const auto& [text, element] : cases) checkCanonical(text, prim(element));
}

TEST_CASE("text: ildasm and monodis spellings of unsigned types") {
  checkSpelling("unsigned int8", "uint8", prim(ElementType::U1));
  checkSpelling("unsigned int16", "uint16", prim(ElementType::U2));
  checkSpelling("unsigned int32", "uint32", prim(ElementType::U4));
  checkSpelling("unsigned int64", "uint64", prim(ElementType::U8));
  checkSpelling("native unsigned int", "native uint", prim(ElementType::U));
  checkSpelling("native   int", "native int", prim(ElementType::I));
}

TEST_CASE("text: class and valuetype tokens") {
  checkCanonical("class 0x01000012", Type::classType(kTypeRef12));
  checkCanonical("valuetype 0x02000003", Type::valueType(kTypeDef3));
  checkCanonical("class 0x02ffffff", Type::classType(Token{0x02FFFFFF}));
  // Tokens: 1-8 hex digits in either case, printed as 8 lowercase digits.
  checkSpelling("class 0x0100ABcd", "class 0x0100abcd", Type::classType(Token{0x0100ABCD}));
  checkSpelling("valuetype 0X2000003", "valuetype 0x02000003", Type::valueType(kTypeDef3));
}

TEST_CASE("text: generic instantiations") {
  checkCanonical("class 0x01000012<int32, !0[]>",
                 Type::genericInstance(false, kTypeRef12, {i4(), Type::szArray(Type::typeVariable(0))}));
  checkSpelling("class 0x01000012<int32,!0[]>", "class 0x01000012<int32, !0[]>",
                Type::genericInstance(false, kTypeRef12, {i4(), Type::szArray(Type::typeVariable(0))}));
  checkCanonical("valuetype 0x02000003<string>", Type::genericInstance(true, kTypeDef3, {prim(ElementType::String)}));
  // `>>` closes two levels.
  const Type nested = Type::genericInstance(
      false, kTypeRef12, {Type::genericInstance(true, kTypeDef3, {i4()}), prim(ElementType::Object)});
  checkCanonical("class 0x01000012<valuetype 0x02000003<int32>, object>", nested);
  checkSpelling("class 0x01000012<class 0x01000012<int32>>", "class 0x01000012<class 0x01000012<int32>>",
                Type::genericInstance(false, kTypeRef12, {Type::genericInstance(false, kTypeRef12, {i4()})}));
}

TEST_CASE("text: generic parameters") {
  checkCanonical("!0", Type::typeVariable(0));
  checkCanonical("!!12", Type::methodVariable(12));
  checkCanonical("!536870911", Type::typeVariable(0x1FFFFFFF));
  checkSpelling("!007", "!7", Type::typeVariable(7));
  checkSpelling("! 3", "!3", Type::typeVariable(3));
}

TEST_CASE("text: postfix operators apply left to right, innermost first") {
  checkCanonical("int32*", Type::pointer(i4()));
  checkCanonical("int32&", Type::byRef(i4()));
  checkCanonical("int32[]", Type::szArray(i4()));
  checkCanonical("int32 pinned", Type::pinned(i4()));
  checkCanonical("int32[]*&", Type::byRef(Type::pointer(Type::szArray(i4()))));
  checkCanonical("int32& pinned", Type::pinned(Type::byRef(i4())));
  checkCanonical("void**", Type::pointer(Type::pointer(prim(ElementType::Void))));
  checkCanonical("class 0x01000012<int32>[]", Type::szArray(Type::genericInstance(false, kTypeRef12, {i4()})));
}

TEST_CASE("text: custom modifiers print in reverse of byte order") {
  // Bytes 1F B 20 A 08: CMOD_REQD(B) wraps CMOD_OPT(A) wraps int32.
  checkCanonical("int32 modopt(0x01000001) modreq(0x01000002)",
                 Type::modified(true, kModB, Type::modified(false, kModA, i4())));
  checkCanonical("int32 modreq(0x01000001)", Type::modified(true, kModA, i4()));
  // Only modifiers take a TypeSpec.
  checkCanonical("int32 modopt(0x1b000004)", Type::modified(false, Token{0x1B000004}, i4()));
  checkCanonical("int32 modreq(0x01000001)&", Type::byRef(Type::modified(true, kModA, i4())));
  checkCanonical("int32& modreq(0x01000001)", Type::modified(true, kModA, Type::byRef(i4())));
}

TEST_CASE("text: array shapes") {
  // FORMAT.md: int32[5] -> 14 08 01 01 05 00; int32[0...4] -> 14 08 01 01 05 01 00; int32[...] -> 14 08 01 00 00.
  checkCanonical("int32[5]", Type::array(i4(), shape(1, {5}, {})));
  checkCanonical("int32[0...4]", Type::array(i4(), shape(1, {5}, {0})));
  checkCanonical("int32[...]", Type::array(i4(), shape(1, {}, {})));
  // [5,3...5]: sizes 5, 3 and lower bounds 0, 3 (the implicit 0 fills the prefix).
  checkSpelling("int32[5,3...5]", "int32[0...4,3...5]", Type::array(i4(), shape(2, {5, 3}, {0, 3})));
  checkCanonical("int32[,]", Type::array(i4(), shape(2, {}, {})));
  checkSpelling("int32[...,...]", "int32[,]", Type::array(i4(), shape(2, {}, {})));
  checkCanonical("int32[,,]", Type::array(i4(), shape(3, {}, {})));
  checkCanonical("int32[-3...2]", Type::array(i4(), shape(1, {6}, {-3})));
  checkCanonical("int32[2...]", Type::array(i4(), shape(1, {}, {2})));
  checkCanonical("int32[5,]", Type::array(i4(), shape(2, {5}, {})));
  checkCanonical("int32[5,6,,]", Type::array(i4(), shape(4, {5, 6}, {})));
  checkCanonical("int32[0...4,1...]", Type::array(i4(), shape(2, {5}, {0, 1})));
  checkSpelling("int32[,3...]", "int32[0...,3...]", Type::array(i4(), shape(2, {}, {0, 3})));
  // A dimension of size 0 is hi = lo - 1.
  checkCanonical("int32[3...2]", Type::array(i4(), shape(1, {0}, {3})));
  checkCanonical("int32[-5...-6]", Type::array(i4(), shape(1, {0}, {-5})));
  checkCanonical("int32[0]", Type::array(i4(), shape(1, {0}, {})));
  // The extremes of the compressed ranges.
  checkCanonical("int32[536870911]", Type::array(i4(), shape(1, {0x1FFFFFFF}, {})));
  checkCanonical("int32[-268435456...]", Type::array(i4(), shape(1, {}, {-268435456})));
  checkCanonical("int32[268435455...805306365]", Type::array(i4(), shape(1, {0x1FFFFFFF}, {268435455})));
  checkSpelling("int32[ 0 ... 4 , ]", "int32[0...4,]", Type::array(i4(), shape(2, {5}, {0})));
  checkCanonical("int32[5][]", Type::szArray(Type::array(i4(), shape(1, {5}, {}))));
  checkSpelling("int32[, ,\t,]", "int32[,,,]", Type::array(i4(), shape(4, {}, {})));
}

TEST_CASE("text: the rank limit stops a hostile shape at the comma that breaks it") {
  // Issue #7: `int32[,,...,5]` with 2e8 commas took 1.9 GiB. Now the comma
  // that would open dimension 33 is the error, however many follow, and
  // nothing was built per comma before it.
  const std::string commas = std::string("int32[") + std::string(1000000, ',') + "5]";
  checkError(commas, 6 + 31, "array rank is above the limit of 32", "array-rank-too-large");
  checkError(std::string("int32[7") + std::string(32, ',') + "]", 7 + 31, "above the limit of 32",
             "array-rank-too-large");
  checkError(std::string("int32[") + repeat("1,", 40) + "]", 6 + 31 * 2 + 1, "above the limit of 32",
             "array-rank-too-large");
  // 31 commas: rank 32, the largest, with a size on the last dimension.
  std::vector<std::uint32_t> sizes(32, 0);
  sizes.back() = 5;
  const Expected<Type> widest = parseType(std::string("int32[") + std::string(31, ',') + "5]");
  REQUIRE(widest.ok());
  CHECK(*widest == Type::array(i4(), shape(32, sizes, {})));
  CHECK(encodeType(*widest).ok());
}

// `text` encodes to `hex`, and `hex` decodes to the model `text` names.
void checkBytes(std::string_view text, std::string_view hex) {
  INFO("text: ", std::string(text), "  bytes: ", std::string(hex));
  const Expected<Type> parsed = parseType(text);
  if (!parsed) FAIL("offset ", parsed.error().offset, ": ", parsed.error().message);
  const Expected<Bytes> bytes = encodeType(*parsed);
  if (!bytes) FAIL("encode: ", bytes.error().message);
  CHECK(toHex(*bytes) == toHex(parseHex(hex).value()));
  const Expected<Type> decoded = decodeTypeBlob(*bytes);
  if (!decoded) FAIL("decode: ", decoded.error().message);
  CHECK(*decoded == *parsed);
}

TEST_CASE("text: a dimension without a size before one with a size has size 0, as Mono's ilasm writes it") {
  // Mono's ilasm: int32[,3] -> 14 08 02 02 00 03 00.
  checkSpelling("int32[,3]", "int32[0,3]", Type::array(i4(), shape(2, {0, 3}, {})));
  checkBytes("int32[,3]", "14 08 02 02 00 03 00");
  checkSpelling("int32[...,5]", "int32[0,5]", Type::array(i4(), shape(2, {0, 5}, {})));
  checkBytes("int32[...,5]", "14 08 02 02 00 05 00");
  // The lower bound stays on dimension 0; its size 0 prints as hi = lo - 1.
  checkSpelling("int32[3...,5]", "int32[3...2,5]", Type::array(i4(), shape(2, {0, 5}, {3})));
  checkBytes("int32[3...,5]", "14 08 02 02 00 05 01 06");
  checkSpelling("int32[...,...,7]", "int32[0,0,7]", Type::array(i4(), shape(3, {0, 0, 7}, {})));
  checkBytes("int32[...,...,7]", "14 08 03 03 00 00 07 00");
  // Sizes and lower bounds each fill their own prefix.
  checkSpelling("int32[5,,0...3]", "int32[0...4,0...-1,0...3]", Type::array(i4(), shape(3, {5, 0, 4}, {0, 0, 0})));
  checkBytes("int32[5,,0...3]", "14 08 03 03 05 00 04 03 00 00 00");
  checkSpelling("int32[,3,]", "int32[0,3,]", Type::array(i4(), shape(3, {0, 3}, {})));
  // Bytes -> text -> bytes: the filled-in sizes print as 0 and read back.
  const Expected<Type> decoded = decodeTypeBlob(parseHex("14 08 02 02 00 03 00").value());
  REQUIRE(decoded.ok());
  CHECK(formatType(*decoded) == "int32[0,3]");
}

TEST_CASE("text: rank(N) is read up to the rank limit and printed only beyond it") {
  // Rank 32, the CLR's maximum and gdmap's limit, keeps ILAsm's commas.
  checkCanonical(std::string("int32[") + std::string(31, ',') + "]", Type::array(i4(), shape(32, {}, {})));
  checkCanonical(std::string("int32[5") + std::string(31, ',') + "]", Type::array(i4(), shape(32, {5}, {})));
  // rank(N), the spelling earlier versions printed above rank 32, is still
  // read, and the dimensions before it count.
  checkSpelling("int32[rank(2)]", "int32[,]", Type::array(i4(), shape(2, {}, {})));
  checkSpelling("int32[rank(1)]", "int32[...]", Type::array(i4(), shape(1, {}, {})));
  checkSpelling("int32[5,rank(1)]", "int32[5]", Type::array(i4(), shape(1, {5}, {})));
  checkSpelling("int32[,,rank(3)]", "int32[,,]", Type::array(i4(), shape(3, {}, {})));
  checkSpelling("int32[,3,rank(4)]", "int32[0,3,,]", Type::array(i4(), shape(4, {0, 3}, {})));
  checkSpelling("int32[ 0 ... 4 , rank ( 2 ) ]", "int32[0...4,]", Type::array(i4(), shape(2, {5}, {0})));
  checkSpelling("int32[rank(32)]", std::string("int32[") + std::string(31, ',') + "]",
                Type::array(i4(), shape(32, {}, {})));
  checkSpelling(std::string("int32[") + std::string(30, ',') + "rank(32)]",
                std::string("int32[") + std::string(31, ',') + "]", Type::array(i4(), shape(32, {}, {})));
  // Above the limit the parser refuses what the encoder would: issue #7's
  // `method void *()[rank(65)]` (65 would be the byte 0x41) among them.
  checkError("int32[rank(33)]", 11, "array rank is above the limit of 32", "array-rank-too-large");
  checkError("method void *()[rank(65)]", 21, "array rank is above the limit of 32", "array-rank-too-large");
  checkError("int32[0...4,3...,rank(40)]", 22, "above the limit", "array-rank-too-large");
  checkError("int32[rank(536870912)]", 11, "above the limit", "array-rank-too-large");
  checkError("int32[rank(99999999999999999999999)]", 11, "above the limit", "array-rank-too-large");
  CHECK_FALSE(
      encodeType(Type::pointer(Type::array(Type::functionPointer(callingConvention(0), prim(ElementType::Void), {}),
                                           shape(65, {}, {}))))
          .ok());
}

TEST_CASE("text: a model beyond the rank limit prints in a few bytes, as text the parser refuses") {
  const Type hostile = Type::array(i4(), shape(0x1FFFFFFF, {}, {}));
  CHECK(formatType(hostile) == "int32[rank(536870911)]");
  CHECK(formatType(Type::array(i4(), shape(40, {5}, {0, 3}))) == "int32[0...4,3...,rank(40)]");
  // Nested, each level still costs a constant.
  Type nested = i4();
  for (int i = 0; i < 200; ++i) nested = Type::array(std::move(nested), shape(0x1FFFFFFF, {}, {}));
  const std::string nestedText = formatType(nested);
  CHECK(nestedText.size() == 5 + 200 * std::string_view("[rank(536870911)]").size());
  checkError(nestedText, 11, "above the limit", "array-rank-too-large");
  // The decoder refuses such bytes at the rank.
  const Expected<Type> decoded = decodeTypeBlob(parseHex("14 08 df ff ff ff 00 00").value());
  REQUIRE_FALSE(decoded.ok());
  CHECK(decoded.error().offset == 2);
  CHECK(decoded.error().rule == "array-rank-too-large");
}

TEST_CASE("text: errors in rank(N)") {
  checkError("int32[5,6,rank(1)]", 15,
             "rank(N) must be at least the number of dimensions written before it (2), found 1", "invalid-array-shape");
  // 31 commas close 31 dimensions (the last one empty) before rank(N).
  checkError(std::string("int32[") + std::string(31, ',') + "rank(30)]", 42,
             "rank(N) must be at least the number of dimensions written before it (31), found 30",
             "invalid-array-shape");
  checkError("int32[rank(0)]", 11, "array rank in 'rank(N)' must be at least 1", "invalid-array-shape");
  checkError("int32[rank(4),5]", 13,
             "expected ']' after 'rank(N)', which must be the last entry of an array shape, found ','",
             "type-text-syntax");
  checkError("int32[rank(4),rank(4)]", 13, "expected ']' after 'rank(N)'", "type-text-syntax");
  checkError("int32[rank(4)", 13, "expected ']' after 'rank(N)'", "type-text-syntax");
  checkError("int32[rank 4]", 11, "expected '(' after 'rank', found '4'", "type-text-syntax");
  checkError("int32[rank]", 10, "expected '(' after 'rank', found ']'", "type-text-syntax");
  checkError("int32[rank()]", 11, "expected the array rank in 'rank(N)', found ')'", "type-text-syntax");
  checkError("int32[rank(-1)]", 11, "expected the array rank in 'rank(N)', found '-'", "type-text-syntax");
  checkError("int32[rank(4]", 12, "expected ')' after 'rank(N', found ']'", "type-text-syntax");
  checkError("int32[5 rank(4)]", 8, "expected ',' or ']' in an array shape, found 'rank'", "type-text-syntax");
  checkError("int32[rank4]", 6, "expected ',' or ']' in an array shape, found 'rank4'", "type-text-syntax");
  checkError("int32[3...rank(4)]", 10, "expected ',' or ']' in an array shape, found 'rank'", "type-text-syntax");
}

TEST_CASE("text: function pointers") {
  // FORMAT.md: 1B 00 01 08 08.
  checkCanonical("method int32 *(int32)", Type::functionPointer(callingConvention(0), i4(), {i4()}));
  // FORMAT.md: 1B 65 02 01 10 08 41 0E.
  checkCanonical("method instance explicit vararg void *(int32&, ..., string)",
                 Type::functionPointer(callingConvention(0x65, 0, 1), prim(ElementType::Void),
                                       {Type::byRef(i4()), prim(ElementType::String)}));
  // Sentinel last (1B 05 01 08 08 41) and alone.
  checkCanonical("method vararg void *(int32, ...)",
                 Type::functionPointer(callingConvention(0x05, 0, 1), prim(ElementType::Void), {i4()}));
  checkCanonical("method vararg void *(...)",
                 Type::functionPointer(callingConvention(0x05, 0, 0), prim(ElementType::Void), {}));
  checkCanonical("method void *(..., int32)",
                 Type::functionPointer(callingConvention(0x00, 0, 0), prim(ElementType::Void), {i4()}));
  checkCanonical("method void *()", Type::functionPointer(callingConvention(0), prim(ElementType::Void), {}));
  checkCanonical("method generic(2) void *(!!0, !!1)",
                 Type::functionPointer(callingConvention(0x10, 2), prim(ElementType::Void),
                                       {Type::methodVariable(0), Type::methodVariable(1)}));
  checkCanonical("method instance generic(0) void *()",
                 Type::functionPointer(callingConvention(0x30, 0), prim(ElementType::Void), {}));
}

TEST_CASE("text: a trailing sentinel belongs to a vararg signature only (issue #7, defect 1)") {
  // ilasm's output that gdmap refused: the inner cdecl pointer has no
  // parameters, the `...` after it is the outer vararg list's.
  const std::string issue =
      "method instance explicit vararg valuetype 0x0100000a *(method unmanaged cdecl void *(), ..., uint8, !0)";
  checkCanonical(issue,
                 Type::functionPointer(callingConvention(0x65, 0, 1), Type::valueType(Token{0x0100000A}),
                                       {Type::functionPointer(callingConvention(0x01), prim(ElementType::Void), {}),
                                        prim(ElementType::U1), Type::typeVariable(0)}));
  checkBytes(issue, "1b 65 03 11 29 1b 01 00 01 41 05 13 00");
  const Expected<Type> decoded = decodeTypeBlob(parseHex("1b650311291b01000141051300").value());
  REQUIRE(decoded.ok());
  CHECK(formatType(*decoded) == issue);

  // A non-vararg pointer with no parameters before the outer trailing one.
  checkBytes("method vararg void *(method void *(), ...)", "1b 05 01 01 1b 00 00 01 41");
  // ... as the outer return type, with only a sentinel after it.
  checkBytes("method vararg method void *() *(...)", "1b 05 00 1b 00 00 01 41");
  // A vararg pointer that has its own sentinel, then the outer one.
  checkBytes("method vararg void *(method vararg void *(...), ...)", "1b 05 01 01 1b 05 00 01 41 41");
  checkBytes("method vararg void *(method vararg void *(..., int32), ..., int32)",
             "1b 05 02 01 1b 05 01 01 41 08 41 08");
  // A sentinel before a parameter is fine in any signature.
  checkBytes("method void *(..., int32)", "1b 00 01 01 41 08");

  // Nothing after `...` needs a vararg signature: elsewhere the byte would
  // be read as the enclosing list's, so the parser refuses it where the
  // encoder would.
  checkError("method void *(int32, ...)", 21, "a '...' with nothing after it is allowed only in a vararg signature",
             "invalid-sentinel");
  checkError("method unmanaged cdecl void *(...)", 30, "only in a vararg signature", "invalid-sentinel");
  checkError("method vararg void *(method void *(...), int32)", 35, "only in a vararg signature", "invalid-sentinel");
  // After the last parameter, right after a vararg pointer that has no
  // sentinel of its own, a 0x41 would read back as that pointer's.
  checkError("method vararg void *(method vararg void *()*, ...)", 46,
             "right after a vararg function pointer that has none of its own", "invalid-sentinel");
  checkError("method vararg method vararg void *() *(...)", 39, "right after a vararg function pointer",
             "invalid-sentinel");
  // Written where the decoder reads it, the same bytes have a text.
  checkBytes("method vararg void *(method vararg void *(...)*)", "1b 05 01 01 0f 1b 05 00 01 41");
}

TEST_CASE("text: a sentinel before a parameter is the list's own, as System.Reflection.Metadata reads it (issue #20)") {
  // ilasm's text and bytes: the `...` after the nested vararg pointer is
  // the outer list's, since a parameter follows it.
  const std::string issue =
      "method vararg class 0x0100000a<!0&, valuetype 0x01000007> *(method instance explicit vararg native uint "
      "*(class 0x01000009, uint8)*, ..., class 0x0100000a<method instance explicit unmanaged cdecl !1 *(uint32), "
      "string[-1...3,1...]>) modopt(0x01000008)";
  const std::string bytes = "20211b050215122902101300111d0f1b65021912250541151229021b6101130109140e020105027f02";
  const Expected<Type> parsed = parseType(issue);
  REQUIRE_MESSAGE(parsed.ok(), parsed.error().message);
  CHECK(toHex(*encodeType(*parsed)) == bytes);
  const Expected<Type> decoded = decodeTypeBlob(parseHex(bytes).value());
  REQUIRE(decoded.ok());
  CHECK(*decoded == *parsed);
  CHECK(formatType(*decoded) == issue);
  // The smallest form of it, as a return type too.
  checkBytes("method vararg void *(method vararg void *(), ..., int32)", "1b 05 02 01 1b 05 00 01 41 08");
  checkBytes("method vararg method vararg void *() *(..., int32)", "1b 05 01 1b 05 00 01 41 08");

  // Now ambiguous: a trailing `...` of a pointer that a parameter of the
  // enclosing list follows reads back as the enclosing list's sentinel
  // (the bytes above), or with the enclosing list's own as a second one.
  const char* message = "this '...' ends a parameter list right before a parameter of the enclosing list";
  checkError("method vararg void *(method vararg void *(...), int32)", 42, message, "invalid-sentinel");
  checkError("method vararg void *(method vararg void *(...), ..., int32)", 42, message, "invalid-sentinel");
  checkError("method vararg method vararg void *(...) *(int32)", 35, message, "invalid-sentinel");
  // Through the pointer's suffixes, a generic's last argument and a
  // pointer it is the last parameter of.
  checkError("method void *(class 0x01000001<int32, method vararg void *(int32, ...)*[]> modopt(0x01000002), int32)",
             66, message, "invalid-sentinel");
  checkError("method void *(method vararg void *(method vararg void *(int32, ...)), int32)", 63, message,
             "invalid-sentinel");
}

TEST_CASE("text: generic arguments and parameters stop at the count limit") {
  const std::string arguments = repeat("!0, ", 0xFFFF);
  const std::string widest = "class 0x01000012<" + arguments.substr(0, arguments.size() - 2) + ">";
  const Expected<Type> parsed = parseType(widest);
  REQUIRE(parsed.ok());
  CHECK(parsed->operands.size() == 0xFFFF);
  CHECK(encodeType(*parsed).ok());
  checkError("class 0x01000012<" + arguments + "!0>", 17 + 4 * 0xFFFF, "more type arguments than the limit of 65535",
             "count-too-large");
  const std::string parameters = repeat("int32, ", 0xFFFF);
  const std::string longest = "method void *(" + parameters.substr(0, parameters.size() - 2) + ")";
  const Expected<Type> fnptr = parseType(longest);
  REQUIRE(fnptr.ok());
  CHECK(fnptr->operands.size() == 0x10000);
  CHECK(encodeType(*fnptr).ok());
  // A sentinel is not a parameter.
  CHECK(parseType("method vararg void *(" + parameters + "...)").ok());
  checkError("method void *(" + parameters + "int32)", 14 + 7 * 0xFFFF, "more parameters than the limit of 65535",
             "count-too-large");
}

TEST_CASE("text: calling convention words") {
  const std::pair<std::string_view, std::uint8_t> cases[] = {
      {"", 0x00},
      {"unmanaged cdecl ", 0x01},
      {"unmanaged stdcall ", 0x02},
      {"unmanaged thiscall ", 0x03},
      {"unmanaged fastcall ", 0x04},
      {"vararg ", 0x05},
      {"unmanaged ", 0x09},
      {"instance ", 0x20},
      {"explicit ", 0x40},
      {"instance explicit ", 0x60},
      {"instance explicit generic(3) unmanaged cdecl ", 0x71},
  };
  for (const auto& [words, c] : cases) {
    const std::string text = std::string("method ") + std::string(words) + "void *()";
    checkCanonical(text, Type::functionPointer(callingConvention(c, (c & 0x10) ? 3 : 0), prim(ElementType::Void), {}));
  }
  // `default` and other orders of the flags are accepted on input.
  checkSpelling("method default int32 *()", "method int32 *()", Type::functionPointer(callingConvention(0), i4(), {}));
  checkSpelling("method explicit instance default void *()", "method instance explicit void *()",
                Type::functionPointer(callingConvention(0x60), prim(ElementType::Void), {}));
}

TEST_CASE("text: function pointer parts are full types") {
  checkCanonical("method int32 modopt(0x01000001) *(int32 modreq(0x01000002)&, string[])",
                 Type::functionPointer(
                     callingConvention(0), Type::modified(false, kModA, i4()),
                     {Type::byRef(Type::modified(true, kModB, i4())), Type::szArray(prim(ElementType::String))}));
  checkCanonical("method int32* *(int32*)",
                 Type::functionPointer(callingConvention(0), Type::pointer(i4()), {Type::pointer(i4())}));
  // Postfix operators after `)` apply to the function pointer.
  checkCanonical("method void *()*",
                 Type::pointer(Type::functionPointer(callingConvention(0), prim(ElementType::Void), {})));
  checkCanonical(
      "method void *(int32)[] modopt(0x01000001)",
      Type::modified(false, kModA,
                     Type::szArray(Type::functionPointer(callingConvention(0), prim(ElementType::Void), {i4()}))));
  // A function pointer returning a pointer to a function pointer.
  checkCanonical(
      "method method void *()* *(class 0x01000012<method int32 *()>)",
      Type::functionPointer(
          callingConvention(0), Type::pointer(Type::functionPointer(callingConvention(0), prim(ElementType::Void), {})),
          {Type::genericInstance(false, kTypeRef12, {Type::functionPointer(callingConvention(0), i4(), {})})}));
}

TEST_CASE("text: white space is free between tokens and optional where unambiguous") {
  checkSpelling("  int32[]*  ", "int32[]*", Type::pointer(Type::szArray(i4())));
  checkSpelling("int32 [ ] *", "int32[]*", Type::pointer(Type::szArray(i4())));
  checkSpelling("\tclass\n0x01000012 < int32 , !0 [ ] >\r\n", "class 0x01000012<int32, !0[]>",
                Type::genericInstance(false, kTypeRef12, {i4(), Type::szArray(Type::typeVariable(0))}));
  checkSpelling("method int32*(int32)", "method int32 *(int32)",
                Type::functionPointer(callingConvention(0), i4(), {i4()}));
  checkSpelling("method vararg void*(int32,...)", "method vararg void *(int32, ...)",
                Type::functionPointer(callingConvention(0x05, 0, 1), prim(ElementType::Void), {i4()}));
  checkSpelling("int32 modopt ( 0x01000001 )", "int32 modopt(0x01000001)", Type::modified(false, kModA, i4()));
  checkSpelling("method generic ( 2 ) void * ( )", "method generic(2) void *()",
                Type::functionPointer(callingConvention(0x10, 2), prim(ElementType::Void), {}));
  checkSpelling("int32[0...4]pinned", "int32[0...4] pinned", Type::pinned(Type::array(i4(), shape(1, {5}, {0}))));
}

TEST_CASE("text: errors in types and tokens") {
  checkError("foo", 0, "expected a type, found 'foo'", "type-text-syntax");
  checkError("", 0, "expected a type, found the end of the text", "type-text-syntax");
  checkError("   ", 3, "expected a type, found the end of the text", "type-text-syntax");
  checkError("int32pinned", 0, "expected a type, found 'int32pinned'", "type-text-syntax");
  // The name il extract prints for shared generic code is no type a signature holds.
  checkError("class 0x01000012<__Canon>", 17,
             "'__Canon' is a ReadyToRun-only name (the runtime's stand-in for a reference type in shared generic "
             "code, as il extract prints it): no signature holds it; write the type's own signature, e.g. 'class "
             "0x01000012' or 'object'",
             "type-text-syntax");
  checkError("[]", 0, "expected a type, found '['", "type-text-syntax");
  checkError("int32 foo", 6, "unexpected text after the type, found 'foo'", "type-text-syntax");
  checkError("void void", 5, "unexpected text after the type", "type-text-syntax");
  checkError("int32 *(int32)", 6, "unexpected text after the type, found '*'", "type-text-syntax");
  checkError("native", 6, "expected 'int', 'uint' or 'unsigned int' after 'native'", "type-text-syntax");
  checkError("native int8", 7, "after 'native'", "type-text-syntax");
  checkError("unsigned int", 9, "expected 'int8', 'int16', 'int32' or 'int64' after 'unsigned'", "type-text-syntax");
  checkError("class", 5, "expected a metadata token like 0x01000012", "type-text-syntax");
  checkError("class 01000012", 6, "expected a metadata token like 0x01000012", "type-text-syntax");
  checkError("class 0x", 6, "expected a metadata token like 0x01000012", "type-text-syntax");
  checkError("class 0x010000123", 6, "expected a metadata token like 0x01000012", "type-text-syntax");
  checkError("class 0x0100001g", 6, "expected a metadata token like 0x01000012", "type-text-syntax");
  checkError("class 0x03000001", 6, "token table 0x03 is not TypeRef (0x01), TypeDef (0x02) or TypeSpec (0x1B)",
             "invalid-token");
  checkError("class 0x12", 6, "token table 0x00 is not TypeRef", "invalid-token");
  checkError("class 0x1b000001", 6, "TypeSpec", "invalid-token");
  checkError("class 0x1b000001", 6, "cannot follow 'class'", "invalid-token");
  checkError("valuetype 0x1B000001<int32>", 10, "cannot follow 'valuetype'", "invalid-token");
  checkError("!", 1, "expected a generic parameter number after '!'", "type-text-syntax");
  checkError("!!x", 2, "expected a generic parameter number after '!!'", "type-text-syntax");
  checkError("!536870912", 1, "larger than 536870911", "value-out-of-range");
  checkError("!!99999999999999999999999", 2, "larger than 536870911", "value-out-of-range");
}

TEST_CASE("text: an error quotes a bounded, escaped piece of the text") {
  // A 500 KB word is quoted as its first 40 bytes and "...".
  const std::string word(500000, 'a');
  const Expected<Type> parsed = parseType(word);
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.error().message == "expected a type, found '" + std::string(40, 'a') + "'...");
  CHECK(parsed.error().rule == "type-text-syntax");
  // Exactly 40 bytes: no ellipsis.
  checkError(std::string(40, 'b'), 0, "found '" + std::string(40, 'b') + "'", "type-text-syntax");
  CHECK(parseType(std::string(40, 'b')).error().message.find("...") == std::string::npos);
  // A control character or a byte that is not UTF-8 is escaped, not echoed.
  checkError("int32 \x01", 6, R"(found '\x01')", "type-text-syntax");
  checkError("int32 \xff", 6, R"(found '\xff')", "type-text-syntax");
}

TEST_CASE("text: errors in generic arguments and modifiers") {
  checkError("class 0x01000012<int32;", 22, "expected ',' or '>' after a type argument, found ';'", "type-text-syntax");
  checkError("class 0x01000012<int32", 22, "expected ',' or '>' after a type argument, found the end",
             "type-text-syntax");
  checkError("class 0x01000012<>", 17, "at least one type argument", "invalid-generic-instance");
  checkError("class 0x01000012<int32,>", 23, "expected a type, found '>'", "type-text-syntax");
  checkError("int32 modopt 0x01000001", 13, "expected '(' after 'modopt'", "type-text-syntax");
  checkError("int32 modopt(0x01000001", 23, "expected ')' after the modopt token", "type-text-syntax");
  checkError("int32 modreq(0x04000001)", 13, "token table 0x04", "invalid-token");
  checkError("int32 modreq(int32)", 13, "expected a metadata token like 0x01000012", "type-text-syntax");
}

TEST_CASE("text: errors in function pointers") {
  checkError("method int32 (int32)", 13, "expected '*(' after the function pointer's return type", "type-text-syntax");
  checkError("method int32 *int32", 14, "expected '*(' after the function pointer's return type", "type-text-syntax");
  checkError("method int32 *(int32", 20, "expected ',' or ')' after a parameter", "type-text-syntax");
  checkError("method int32 *(int32 int32)", 21, "expected ',' or ')' after a parameter", "type-text-syntax");
  checkError("method vararg void *(..., int32, ...)", 33, "at most one sentinel", "invalid-sentinel");
  checkError("method vararg void *(..., ...)", 26, "at most one sentinel", "invalid-sentinel");
  checkError("method instance instance void *()", 16, "'instance' appears twice", "invalid-calling-convention");
  checkError("method generic void *()", 15, "expected '(' after 'generic'", "type-text-syntax");
  checkError("method generic() void *()", 15, "expected the number of generic parameters", "type-text-syntax");
  checkError("method generic(2 void *()", 17, "expected ')' after 'generic(N'", "type-text-syntax");
  checkError("method generic(536870912) void *()", 15, "larger than 536870911", "value-out-of-range");
  checkError("method", 6, "expected a type, found the end of the text", "type-text-syntax");
  checkError("method unmanaged foo *()", 17, "expected a type, found 'foo'", "type-text-syntax");
}

TEST_CASE("text: errors in array shapes") {
  checkError("int32[5,3...5", 13, "expected ',' or ']' in an array shape", "type-text-syntax");
  checkError("int32[1 2]", 8, "expected ',' or ']' in an array shape, found '2'", "type-text-syntax");
  checkError("int32[...5]", 9, "expected ',' or ']' in an array shape", "type-text-syntax");
  checkError("int32[3...1]", 10, "below the lower bound 3 minus 1", "invalid-array-shape");
  checkError("int32[-1]", 6, "array size -1 is outside", "value-out-of-range");
  checkError("int32[536870912]", 6, "array size 536870912 is outside", "value-out-of-range");
  checkError("int32[268435456...]", 6, "lower bound 268435456 is outside", "value-out-of-range");
  checkError("int32[-268435457...]", 6, "lower bound -268435457 is outside", "value-out-of-range");
  checkError("int32[0...536870911]", 10, "holds more than 536870911", "value-out-of-range");
  checkError("int32[99999999999999999999]", 6, "out of range", "value-out-of-range");
  checkError("int32[- 1]", 6, "expected ',' or ']' in an array shape, found '-'", "type-text-syntax");
}

TEST_CASE("text: nesting deeper than kMaxTypeDepth is an error at the level that breaks it") {
  // 1 + 255 pointers = 256 nodes is the limit.
  const Expected<Type> deepest = parseType(std::string("int32") + std::string(255, '*'));
  REQUIRE(deepest.ok());
  CHECK(depthOf(*deepest) == kMaxTypeDepth);
  // The encoder draws the line at the same place.
  CHECK(encodeType(*deepest).ok());
  CHECK_FALSE(encodeType(Type::pointer(*deepest)).ok());
  // The 256th `*` (offset 5 + 255) would make 257.
  checkError(std::string("int32") + std::string(50000, '*'), 260, "deeper than the limit of 256",
             "type-nesting-too-deep");
  checkError(std::string("int32") + repeat("[]", 50000), 5 + 255 * 2, "deeper than the limit of 256",
             "type-nesting-too-deep");
  checkError(std::string("int32") + repeat(" modopt(0x01000001)", 50000), 5 + 255 * 19 + 1,
             "deeper than the limit of 256", "type-nesting-too-deep");
  // Prefix nesting: the 257th `class` starts at 256 * 17.
  const std::string open = "class 0x01000001<";
  checkError(repeat(open, 50000) + "int32" + std::string(50000, '>'), 256 * open.size(), "deeper than the limit of 256",
             "type-nesting-too-deep");
  checkError(repeat("method ", 50000) + "void" + repeat(" *()", 50000), 256 * 7, "deeper than the limit of 256",
             "type-nesting-too-deep");
  // Here the 256th `method`'s return type `void` is the 257th level.
  checkError(repeat("method void *(", 50000) + std::string(50000, ')'), 255 * 14 + 7, "deeper than the limit of 256",
             "type-nesting-too-deep");
}

TEST_CASE("text: depth counts postfix operators added after the inner types") {
  // 255 generic instantiations around int32: exactly 256 nodes.
  const std::string open = "class 0x01000001<";
  const std::string limit = repeat(open, 255) + "int32" + std::string(255, '>');
  const Expected<Type> parsed = parseType(limit);
  REQUIRE(parsed.ok());
  CHECK(depthOf(*parsed) == kMaxTypeDepth);
  CHECK(formatType(*parsed) == limit);
  const Expected<Bytes> bytes = encodeType(*parsed);
  REQUIRE(bytes.ok());
  const Expected<Type> decoded = decodeTypeBlob(*bytes);
  REQUIRE(decoded.ok());
  CHECK(*decoded == *parsed);
  // A pointer on the outermost or the innermost type makes 257.
  checkError(limit + "*", limit.size(), "deeper than the limit", "type-nesting-too-deep");
  checkError(repeat(open, 255) + "int32*" + std::string(255, '>'), 255 * open.size() + 5, "deeper than the limit",
             "type-nesting-too-deep");
  // A function pointer's return type counts too.
  checkError(std::string("method int32") + std::string(255, '*') + " *()", 7 + 5 + 254, "deeper than the limit",
             "type-nesting-too-deep");
}

TEST_CASE("text: models no encoder accepts still print without crashing") {
  Type bad;
  bad.element = ElementType::Sentinel;
  CHECK_FALSE(parseType(formatType(bad)).ok());
  Type emptyPointer;
  emptyPointer.element = ElementType::Ptr;
  CHECK_FALSE(parseType(formatType(emptyPointer)).ok());
  CHECK_FALSE(parseType(formatType(Type::functionPointer(callingConvention(0x06), i4(), {}))).ok());
}

TEST_CASE("text: formatType appends to the caller's string") {
  std::string out = "x: ";
  formatType(Type::pointer(i4()), out);
  formatType(Type::classType(kTypeRef12), out);
  CHECK(out == "x: int32*class 0x01000012");
}

// Rows of docs/type-text.md tables that read "| `TEXT` | `HEX` |".
std::vector<std::pair<std::string, std::string>> documentedExamples() {
  std::ifstream doc(std::string(GDMAP_SOURCE_DIR) + "/docs/type-text.md");
  std::vector<std::pair<std::string, std::string>> rows;
  std::string line;
  while (std::getline(doc, line)) {
    if (line.rfind("| `", 0) != 0) continue;
    const std::size_t textEnd = line.find('`', 3);
    if (textEnd == std::string::npos || line.compare(textEnd, 5, "` | `") != 0) continue;
    const std::size_t hexEnd = line.find('`', textEnd + 5);
    if (hexEnd == std::string::npos) continue;
    std::string hex = line.substr(textEnd + 5, hexEnd - textEnd - 5);
    if (hex.find_first_not_of("0123456789abcdef ") != std::string::npos) continue;
    rows.emplace_back(line.substr(3, textEnd - 3), std::move(hex));
  }
  return rows;
}

// Rows of the error table in docs/type-text.md:
// "| `TEXT` | OFFSET | `RULE` | MESSAGE |".
struct DocumentedError {
  std::string text;
  std::size_t offset;
  std::string rule;
  std::string message;
};

std::vector<DocumentedError> documentedErrors() {
  std::ifstream doc(std::string(GDMAP_SOURCE_DIR) + "/docs/type-text.md");
  std::vector<DocumentedError> rows;
  std::string line;
  while (std::getline(doc, line)) {
    if (line.rfind("| `", 0) != 0) continue;
    const std::size_t textEnd = line.find("` | ", 3);
    // A cell that describes its text ("`int32` and 300 `*`") is not one.
    if (textEnd == std::string::npos || line.find('`', 3) != textEnd) continue;
    const std::size_t offsetStart = textEnd + 4;
    const std::size_t offsetEnd = line.find(" | ", offsetStart);
    if (offsetEnd == std::string::npos || offsetEnd == offsetStart) continue;
    const std::string offset = line.substr(offsetStart, offsetEnd - offsetStart);
    if (offset.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::size_t ruleStart = offsetEnd + 3;
    const std::size_t ruleEnd = line.find(" | ", ruleStart);
    if (ruleEnd == std::string::npos || line[ruleStart] != '`' || line[ruleEnd - 1] != '`') continue;
    std::string message = line.substr(ruleEnd + 3);
    message = message.substr(0, message.rfind(" |"));
    // "...: ..." in the table stands for the rest of a long message.
    if (const std::size_t ellipsis = message.find(": ..."); ellipsis != std::string::npos) message.resize(ellipsis);
    rows.push_back({line.substr(3, textEnd - 3), std::stoul(offset),
                    line.substr(ruleStart + 1, ruleEnd - ruleStart - 2), message});
  }
  return rows;
}

TEST_CASE("text: every error in docs/type-text.md is what the parser says") {
  const auto rows = documentedErrors();
  CHECK(rows.size() >= 16);
  for (const DocumentedError& row : rows) checkError(row.text, row.offset, row.message, row.rule);
}

TEST_CASE("text: every example in docs/type-text.md encodes to its bytes") {
  const auto rows = documentedExamples();
  CHECK(rows.size() >= 55);
  for (const auto& [text, hex] : rows) {
    INFO("text: ", text, "  bytes: ", hex);
    const Expected<Type> parsed = parseType(text);
    if (!parsed) FAIL("offset ", parsed.error().offset, ": ", parsed.error().message);
    CHECK(formatType(*parsed) == text);
    const Expected<Bytes> bytes = encodeType(*parsed);
    if (!bytes) FAIL("encode: ", bytes.error().message);
    CHECK(toHex(*bytes) == toHex(parseHex(hex).value()));
    const Expected<Type> decoded = decodeTypeBlob(*bytes);
    if (!decoded) FAIL("decode: ", decoded.error().message);
    CHECK(*decoded == *parsed);
  }
}

}  // namespace
}  // namespace gdmap
