// Seeded random round trips over every element type: model -> bytes ->
// model -> bytes, model -> text -> model -> bytes, the same types written
// with the longest integer forms, and mutated bytes.
#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/type_text.hpp>
#include <gdmap/writer/type_encoder.hpp>
#include "tests/support/random_type.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace {

using gdmap::Bytes;
using gdmap::ElementType;
using gdmap::Type;

constexpr std::uint64_t kSeed = 0x6D61702D636F6465;  // fixed: runs are identical everywhere
constexpr int kRandomTypes = 100000;

// An independent writer that puts every compressed integer in its 4-byte
// form: the bytes are legal, only not minimal. `shorterIntegers` counts the
// integers a shortest encoding would write in fewer bytes.
class WideEncoder {
 public:
  Bytes bytes;
  std::size_t shorterIntegers = 0;

  void type(const Type& t) {
    const auto code = static_cast<std::uint8_t>(t.element);
    if (t.element != ElementType::GenericInst) bytes.push_back(code);
    switch (t.element) {
      case ElementType::Ptr:
      case ElementType::ByRef:
      case ElementType::SzArray:
      case ElementType::Pinned: type(t.operands[0]); break;
      case ElementType::CModReqd:
      case ElementType::CModOpt:
      case ElementType::Class:
      case ElementType::ValueType:
        token(t.token);
        if (!t.operands.empty()) type(t.operands[0]);
        break;
      case ElementType::Var:
      case ElementType::MVar: unsignedValue(t.number); break;
      case ElementType::Array:
        type(t.operands[0]);
        unsignedValue(t.shape.rank);
        unsignedValue(static_cast<std::uint32_t>(t.shape.sizes.size()));
        for (std::uint32_t s : t.shape.sizes) unsignedValue(s);
        unsignedValue(static_cast<std::uint32_t>(t.shape.lowerBounds.size()));
        for (std::int32_t b : t.shape.lowerBounds) signedValue(b);
        break;
      case ElementType::GenericInst:
        bytes.push_back(0x15);
        bytes.push_back(t.valueTypeHead ? 0x11 : 0x12);
        token(t.token);
        unsignedValue(static_cast<std::uint32_t>(t.operands.size()));
        for (const Type& a : t.operands) type(a);
        break;
      case ElementType::FnPtr: {
        bytes.push_back(t.method.callingConvention);
        if (t.method.callingConvention & gdmap::callconv::kGeneric) unsignedValue(t.method.genericParameterCount);
        const std::size_t count = t.operands.size() - 1;
        unsignedValue(static_cast<std::uint32_t>(count));
        type(t.operands[0]);
        for (std::size_t i = 0; i <= count; ++i) {
          if (t.method.sentinel == i) bytes.push_back(0x41);
          if (i < count) type(t.operands[i + 1]);
        }
        break;
      }
      default: break;  // primitives
    }
  }

 private:
  void four(std::uint32_t payload) {
    bytes.push_back(static_cast<std::uint8_t>(0xC0 | payload >> 24));
    bytes.push_back(static_cast<std::uint8_t>(payload >> 16));
    bytes.push_back(static_cast<std::uint8_t>(payload >> 8));
    bytes.push_back(static_cast<std::uint8_t>(payload));
  }
  void unsignedValue(std::uint32_t v) {
    if (v <= 0x3FFF) ++shorterIntegers;
    four(v);
  }
  void signedValue(std::int32_t v) {
    if (v >= -8192 && v <= 8191) ++shorterIntegers;
    const std::uint32_t twos = static_cast<std::uint32_t>(v) & 0x1FFFFFFF;
    four(((twos << 1) | (twos >> 28)) & 0x1FFFFFFF);
  }
  void token(gdmap::Token t) {
    const std::uint32_t tag = t.table() == 0x02 ? 0 : t.table() == 0x01 ? 1 : 2;
    unsignedValue(t.row() << 2 | tag);
  }
};

}  // namespace

TEST_CASE("roundtrip: random types survive encode, decode and encode again") {
  gdmap::testing::RandomTypeGenerator generator(kSeed);
  std::size_t totalBytes = 0;
  for (int i = 0; i < kRandomTypes; ++i) {
    const Type model = generator.next();
    const gdmap::Expected<Bytes> bytes = gdmap::encodeType(model);
    REQUIRE_MESSAGE(bytes.ok(), "type ", i, ": ", bytes.error().message);
    totalBytes += bytes->size();

    gdmap::TypeDecodeNotes notes;
    std::size_t offset = 0;
    const gdmap::Expected<Type> decoded = gdmap::decodeType(*bytes, offset, &notes);
    REQUIRE_MESSAGE(decoded.ok(), "type ", i, " ", gdmap::toHex(*bytes), ": ", decoded.error().message);
    REQUIRE_MESSAGE(offset == bytes->size(), "type ", i, " ", gdmap::toHex(*bytes));
    REQUIRE_MESSAGE(*decoded == model, "type ", i, " ", gdmap::toHex(*bytes));
    REQUIRE(notes.nonMinimalIntegers == 0);

    std::size_t skipped = 0;
    REQUIRE(gdmap::skipType(*bytes, skipped).ok());
    REQUIRE(skipped == bytes->size());

    const gdmap::Expected<Bytes> again = gdmap::encodeType(*decoded);
    REQUIRE(again.ok());
    REQUIRE(*again == *bytes);
  }
  // The generator must produce sizeable types, not only leaves.
  CHECK(totalBytes > 10u * kRandomTypes);
}

TEST_CASE("roundtrip: the random types cover every element type and form") {
  gdmap::testing::RandomTypeGenerator generator(kSeed);
  std::set<std::uint8_t> elements;
  std::set<std::uint8_t> conventions;
  std::set<std::uint8_t> tables;
  std::set<std::uint32_t> sentinelFromEnd;
  bool negativeBound = false;
  bool wideSize = false;
  std::set<std::uint32_t> ranks;
  bool fullShape = false;  // as many sizes as dimensions, above 4
  std::set<std::uint8_t> trailingSentinelKinds;
  // A sentinel right after a vararg pointer without one, before a parameter
  // (the sentinel rule of System.Reflection.Metadata: the list's own).
  bool sentinelAfterOpenVarArg = false;
  std::vector<const Type*> stack;
  std::vector<Type> keep;
  for (int i = 0; i < 20000; ++i) keep.push_back(generator.next());
  for (const Type& t : keep) stack.push_back(&t);
  while (!stack.empty()) {
    const Type* t = stack.back();
    stack.pop_back();
    elements.insert(static_cast<std::uint8_t>(t->element));
    if (t->element == ElementType::FnPtr) {
      conventions.insert(t->method.callingConvention);
      if (t->method.sentinel) {
        sentinelFromEnd.insert(static_cast<std::uint32_t>(t->operands.size() - 1) - *t->method.sentinel);
        sentinelAfterOpenVarArg |= *t->method.sentinel + 1 < t->operands.size() &&
                                   gdmap::takesFollowingSentinel(t->operands[*t->method.sentinel]);
      }
    }
    if (t->element == ElementType::Class || t->element == ElementType::CModOpt || t->element == ElementType::CModReqd) {
      tables.insert(t->token.table());
    }
    if (t->element == ElementType::Array) {
      ranks.insert(t->shape.rank);
      fullShape |= t->shape.rank > 4 && t->shape.sizes.size() == t->shape.rank;
    }
    if (t->element == ElementType::FnPtr && t->method.sentinel == t->operands.size() - 1) {
      trailingSentinelKinds.insert(t->method.callingConvention & gdmap::callconv::kKindMask);
    }
    for (std::int32_t b : t->shape.lowerBounds) negativeBound |= b < -8192;
    for (std::uint32_t s : t->shape.sizes) wideSize |= s > 0x3FFF;
    for (const Type& o : t->operands) stack.push_back(&o);
  }
  // 18 primitives and 13 other forms (a sentinel is not a node).
  CHECK(elements.size() == 31);
  CHECK(conventions.size() == 7 * 8);
  CHECK(tables == std::set<std::uint8_t>{0x01, 0x02, 0x1B});
  CHECK(sentinelFromEnd.count(0) == 1);  // after the last parameter
  CHECK(sentinelFromEnd.size() >= 4);
  CHECK(negativeBound);
  CHECK(wideSize);
  // Every rank up to the limit, and only those.
  CHECK(ranks.size() == gdmap::Limits::maxArrayRank);
  CHECK(*ranks.rbegin() == gdmap::Limits::maxArrayRank);
  CHECK(fullShape);
  // Only vararg signatures end with a sentinel.
  CHECK(trailingSentinelKinds == std::set<std::uint8_t>{gdmap::callconv::kVarArg});
  CHECK(sentinelAfterOpenVarArg);
}

TEST_CASE("roundtrip: integers in their longest form decode to the same model") {
  gdmap::testing::RandomTypeGenerator generator(kSeed + 1);
  for (int i = 0; i < 20000; ++i) {
    const Type model = generator.next();
    WideEncoder wide;
    wide.type(model);
    gdmap::TypeDecodeNotes notes;
    std::size_t offset = 0;
    const gdmap::Expected<Type> decoded = gdmap::decodeType(wide.bytes, offset, &notes);
    REQUIRE_MESSAGE(decoded.ok(), "type ", i, " ", gdmap::toHex(wide.bytes), ": ", decoded.error().message);
    REQUIRE(offset == wide.bytes.size());
    REQUIRE_MESSAGE(*decoded == model, "type ", i, " ", gdmap::toHex(wide.bytes));
    REQUIRE(notes.nonMinimalIntegers == wide.shorterIntegers);

    const gdmap::Expected<Bytes> shortest = gdmap::encodeType(*decoded);
    REQUIRE(shortest.ok());
    REQUIRE(*shortest == *gdmap::encodeType(model));
    if (wide.shorterIntegers > 0) REQUIRE(shortest->size() < wide.bytes.size());
  }
}

TEST_CASE("roundtrip: random types survive format, parse and encode") {
  gdmap::testing::RandomTypeGenerator generator(kSeed);
  int failures = 0;
  for (int i = 0; i < kRandomTypes && failures == 0; ++i) {
    const Type model = generator.next();
    const gdmap::Expected<Bytes> bytes = gdmap::encodeType(model);
    REQUIRE(bytes.ok());
    const std::string text = gdmap::formatType(model);
    const gdmap::Expected<Type> parsed = gdmap::parseType(text);
    if (!parsed.ok()) {
      ++failures;
      FAIL_CHECK("type ", i, " ", gdmap::toHex(*bytes), " printed as '", text, "' does not parse: column ",
                 parsed.error().offset, ": ", parsed.error().message);
      break;
    }
    if (!(*parsed == model)) {
      ++failures;
      FAIL_CHECK("type ", i, " ", gdmap::toHex(*bytes), " printed as '", text, "' parses to another type");
      break;
    }
    const gdmap::Expected<Bytes> again = gdmap::encodeType(*parsed);
    REQUIRE(again.ok());
    CHECK(*again == *bytes);
    if (gdmap::formatType(*parsed) != text) {
      ++failures;
      FAIL_CHECK("type ", i, " prints differently after a parse: '", text, "' then '", gdmap::formatType(*parsed), "'");
    }
  }
  CHECK(failures == 0);
}

TEST_CASE("roundtrip: mutated signatures decode and skip alike, and what decodes re-encodes") {
  gdmap::testing::RandomTypeGenerator generator(kSeed + 2);
  std::mt19937_64 engine(kSeed + 3);
  int accepted = 0;
  for (int i = 0; i < 50000; ++i) {
    Bytes bytes = *gdmap::encodeType(generator.next());
    // Overwrite, drop or insert one byte.
    const std::size_t at = engine() % bytes.size();
    const auto value = static_cast<std::uint8_t>(engine());
    switch (engine() % 3) {
      case 0: bytes[at] = value; break;
      case 1: bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(at)); break;
      default: bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(at), value); break;
    }
    gdmap::TypeDecodeNotes notes;
    std::size_t decodeOffset = 0;
    const gdmap::Expected<Type> decoded = gdmap::decodeType(bytes, decodeOffset, &notes);
    gdmap::TypeDecodeNotes skipNotes;
    std::size_t skipOffset = 0;
    const gdmap::Status skipped = gdmap::skipType(bytes, skipOffset, &skipNotes);
    REQUIRE(decoded.ok() == skipped.ok());
    if (!decoded.ok()) {
      REQUIRE(decoded.error().offset == skipped.error().offset);
      REQUIRE(decoded.error().message == skipped.error().message);
      REQUIRE(decoded.error().rule == skipped.error().rule);
      REQUIRE_FALSE(decoded.error().rule.empty());
      REQUIRE(decoded.error().offset <= bytes.size());
      continue;
    }
    ++accepted;
    REQUIRE(decodeOffset == skipOffset);
    REQUIRE(notes.nonMinimalIntegers == skipNotes.nonMinimalIntegers);
    const gdmap::Expected<Bytes> again = gdmap::encodeType(*decoded);
    REQUIRE_MESSAGE(again.ok(), gdmap::toHex(bytes), ": ", again.error().message);
    // The parser accepts what the decoder produced (same limits, same
    // sentinel placement), so its text is lossless too.
    const std::string text = gdmap::formatType(*decoded);
    const gdmap::Expected<Type> parsed = gdmap::parseType(text);
    REQUIRE_MESSAGE(parsed.ok(), gdmap::toHex(bytes), " '", text, "': ", parsed.error().message);
    REQUIRE(*parsed == *decoded);
    if (notes.nonMinimalIntegers == 0) {
      REQUIRE_MESSAGE(*again == Bytes(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(decodeOffset)),
                      gdmap::toHex(bytes));
    }
  }
  // Most single-byte changes still leave a valid type: the walk was exercised.
  CHECK(accepted > 1000);
}

TEST_CASE("roundtrip: every byte but the first of a random type has a field path") {
  gdmap::testing::RandomTypeGenerator generator(kSeed + 4);
  for (int i = 0; i < 3000; ++i) {
    const Bytes bytes = *gdmap::encodeType(generator.next());
    CHECK(gdmap::typeFieldPath(bytes, 0, 0).empty());
    for (std::size_t at = 1; at < bytes.size(); ++at) {
      REQUIRE_MESSAGE(!gdmap::typeFieldPath(bytes, 0, at).empty(), gdmap::toHex(bytes), " byte ", at);
    }
  }
}

// Every byte string up to 9 bytes long over the bytes that make function
// pointers and sentinels (FNPTR, the vararg and default conventions, counts
// 0 and 1, void, int32, SENTINEL): where the sentinel rules could make the
// decoder, the encoder and the parser disagree. Whatever decodes as one
// type re-encodes to the same bytes and prints as text that parses back.
TEST_CASE("roundtrip: every short function-pointer byte string decodes, encodes and prints alike") {
  static constexpr std::uint8_t kAlphabet[] = {0x1B, 0x05, 0x00, 0x01, 0x08, 0x41};
  constexpr std::size_t kSymbols = sizeof kAlphabet;
  std::size_t decoded = 0;
  std::size_t withSentinel = 0;
  std::size_t nestedWithSentinel = 0;
  for (std::size_t length = 1; length <= 9; ++length) {
    std::vector<std::size_t> digits(length, 0);
    Bytes bytes(length);
    for (;;) {
      for (std::size_t i = 0; i < length; ++i) bytes[i] = kAlphabet[digits[i]];
      const gdmap::Expected<Type> type = gdmap::decodeTypeBlob(bytes);
      if (type.ok()) {
        ++decoded;
        const bool sentinel = std::count(bytes.begin(), bytes.end(), std::uint8_t{0x41}) > 0;
        withSentinel += sentinel;
        nestedWithSentinel += sentinel && std::count(bytes.begin(), bytes.end(), std::uint8_t{0x1B}) > 1;
        const gdmap::Expected<Bytes> again = gdmap::encodeType(*type);
        REQUIRE_MESSAGE(again.ok(), gdmap::toHex(bytes), ": ", again.error().message);
        REQUIRE_MESSAGE(*again == bytes, gdmap::toHex(bytes));
        const std::string text = gdmap::formatType(*type);
        const gdmap::Expected<Type> parsed = gdmap::parseType(text);
        REQUIRE_MESSAGE(parsed.ok(), gdmap::toHex(bytes), " '", text, "': ", parsed.error().message);
        REQUIRE(*parsed == *type);
      }
      std::size_t i = 0;
      while (i < length && ++digits[i] == kSymbols) digits[i++] = 0;
      if (i == length) break;
    }
  }
  // The walk met many valid pointers, with sentinels among them.
  MESSAGE("decoded ", decoded, ", with a sentinel ", withSentinel, ", nested sentinels ", nestedWithSentinel);
  CHECK(decoded > 1000);
  CHECK(withSentinel > 100);
  CHECK(nestedWithSentinel > 10);
}
