// ILAsm type text -> Type model (docs/type-text.md has the grammar).
//
// Recursive descent with one rule per grammar form, except postfix operators
// (`*`, `&`, `[]`, `[shape]`, `modreq(...)`, `modopt(...)`, `pinned`), which a
// loop applies: `int32` followed by 50,000 `*` must neither recurse 50,000
// times nor build a 50,000-deep model. Nesting is counted while parsing
// (ancestors known so far + height of the subtree built so far) and stops at
// Limits::maxTypeDepth, so recursion and the model stay within that bound.
// The other Limits (rank, argument and parameter counts) are checked before
// the dimension, argument or parameter that would break them is read, so
// the parser accepts exactly what the encoder accepts, and a hostile text
// costs at most the limit, not its own length, in one shape or list.
//
// Every error carries a rule id: `type-text-syntax` for text that is not the
// grammar, the rule the encoder would break otherwise (rules.hpp).
#include <gdmap/schema/type_text.hpp>

#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/limits.hpp>
#include <gdmap/schema/rules.hpp>
#include "type_text_cursor.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

namespace gdmap {
namespace {

using type_text::concat;
using type_text::NumberRead;
using type_text::TextCursor;

constexpr std::uint32_t kMaxCompressed = 0x1FFFFFFF;  // a compressed integer's largest value
// Signed compressed integers (lower bounds) hold -2^28 ... 2^28-1.
constexpr std::int64_t kMinLowerBound = -(std::int64_t{1} << 28);
constexpr std::int64_t kMaxLowerBound = (std::int64_t{1} << 28) - 1;

struct PrimitiveWord {
  std::string_view word;
  ElementType element;
};

// The one-word primitives; `native ...` and `unsigned ...` are handled apart.
constexpr PrimitiveWord kPrimitiveWords[] = {
    {"void", ElementType::Void},     {"bool", ElementType::Boolean},
    {"char", ElementType::Char},     {"int8", ElementType::I1},
    {"uint8", ElementType::U1},      {"int16", ElementType::I2},
    {"uint16", ElementType::U2},     {"int32", ElementType::I4},
    {"uint32", ElementType::U4},     {"int64", ElementType::I8},
    {"uint64", ElementType::U8},     {"float32", ElementType::R4},
    {"float64", ElementType::R8},    {"string", ElementType::String},
    {"object", ElementType::Object}, {"typedref", ElementType::TypedByRef},
};

class TypeParser {
 public:
  explicit TypeParser(std::string_view text, const TypeNames* names = nullptr) : cur_(text), names_(names) {}

  Expected<Type> run() {
    Type type;
    unsigned height = 0;
    if (!parseType(0, type, height)) return std::move(error_);
    if (!cur_.atEnd()) {
      const std::size_t at = cur_.offset();
      return Error{at, concat({"unexpected text after the type, found ", cur_.describeNext()}), rules::kTypeTextSyntax};
    }
    return type;
  }

 private:
  // A whole type: a base form and its postfix operators. `ancestors` is the
  // number of nodes already known to enclose it; `height` receives the depth
  // of the subtree built here.
  bool parseType(unsigned ancestors, Type& out, unsigned& height) {
    if (ancestors >= Limits::maxTypeDepth) return depthError(cur_.offset());
    if (!parseBase(ancestors, out, height)) return false;
    return parsePostfix(ancestors, out, height);
  }

  bool parseBase(unsigned ancestors, Type& out, unsigned& height) {
    height = 1;
    const std::size_t at = cur_.offset();
    if (cur_.tryString("!!")) return parseGenericParameter(ElementType::MVar, out);
    if (cur_.tryChar('!')) return parseGenericParameter(ElementType::Var, out);

    const std::string_view word = cur_.peekWord();
    if (word.empty()) return failFound(at, "expected a type");
    for (const PrimitiveWord& p : kPrimitiveWords) {
      if (word == p.word) {
        cur_.tryWord(word);
        out = Type::primitive(p.element);
        return true;
      }
    }
    if (word == "class" || word == "valuetype") {
      cur_.tryWord(word);
      return parseClassOrValueType(word == "valuetype", ancestors, out, height);
    }
    if (word == "native") {
      cur_.tryWord(word);
      if (cur_.tryWord("int")) {
        out = Type::primitive(ElementType::I);
      } else if (cur_.tryWord("uint") || (cur_.tryWord("unsigned") && cur_.tryWord("int"))) {
        out = Type::primitive(ElementType::U);
      } else {
        return failFound(cur_.offset(), "expected 'int', 'uint' or 'unsigned int' after 'native'");
      }
      return true;
    }
    if (word == "unsigned") {
      cur_.tryWord(word);
      if (cur_.tryWord("int8")) out = Type::primitive(ElementType::U1);
      else if (cur_.tryWord("int16")) out = Type::primitive(ElementType::U2);
      else if (cur_.tryWord("int32")) out = Type::primitive(ElementType::U4);
      else if (cur_.tryWord("int64")) out = Type::primitive(ElementType::U8);
      else return failFound(cur_.offset(), "expected 'int8', 'int16', 'int32' or 'int64' after 'unsigned'");
      return true;
    }
    if (word == "method") {
      cur_.tryWord(word);
      return parseFunctionPointer(ancestors, out, height);
    }
    // The name `il extract` and `il locate` print for shared generic code:
    // the runtime's stand-in for any reference type, which no signature
    // can hold.
    if (word == "__Canon") {
      return fail(at,
                  "'__Canon' is a ReadyToRun-only name (the runtime's stand-in for a reference type in shared "
                  "generic code, as il extract prints it): no signature holds it; write the type's own signature, "
                  "e.g. 'class 0x01000012' or 'object'",
                  rules::kTypeTextSyntax);
    }
    return failFound(at, "expected a type");
  }

  // After `!` or `!!`: the parameter's decimal index.
  bool parseGenericParameter(ElementType element, Type& out) {
    const std::size_t at = cur_.offset();
    std::uint64_t n = 0;
    switch (cur_.readDecimal(kMaxCompressed, n)) {
      case NumberRead::Absent:
        return failFound(at, concat({"expected a generic parameter number after '",
                                     element == ElementType::MVar ? "!!" : "!", "'"}));
      case NumberRead::TooLarge:
        return fail(at, "generic parameter number is larger than 536870911 (0x1FFFFFFF)", rules::kValueOutOfRange);
      case NumberRead::Ok: break;
    }
    out = element == ElementType::MVar ? Type::methodVariable(static_cast<std::uint32_t>(n))
                                       : Type::typeVariable(static_cast<std::uint32_t>(n));
    return true;
  }

  // After `class` / `valuetype`: a TypeDef or TypeRef token, then type
  // arguments in `<...>` for a generic instantiation.
  bool parseClassOrValueType(bool valueType, unsigned ancestors, Type& out, unsigned& height) {
    const std::size_t tokenAt = cur_.offset();
    Token token;
    if (!parseToken(token)) return false;
    if (token.table() == static_cast<std::uint8_t>(TokenTable::TypeSpec)) {
      return fail(tokenAt,
                  concat({"a TypeSpec token (table 0x1B) cannot follow '", valueType ? "valuetype" : "class",
                          "': only TypeDef (0x02) and TypeRef (0x01) name a class or value type; "
                          "TypeSpec is allowed only in modreq/modopt"}),
                  rules::kInvalidToken);
    }
    if (!cur_.tryChar('<')) {
      out = valueType ? Type::valueType(token) : Type::classType(token);
      return true;
    }
    out = Type::genericInstance(valueType, token, {});
    if (cur_.peek() == '>') {
      return fail(cur_.offset(), "a generic instantiation needs at least one type argument",
                  rules::kInvalidGenericInstance);
    }
    for (;;) {
      if (out.operands.size() == Limits::maxGenericArguments) {
        return fail(cur_.offset(),
                    concat({"more type arguments than the limit of ", std::to_string(Limits::maxGenericArguments)}),
                    rules::kCountTooLarge);
      }
      Type argument;
      unsigned argumentHeight = 0;
      if (!parseType(ancestors + 1, argument, argumentHeight)) return false;
      height = std::max(height, argumentHeight + 1);
      out.operands.push_back(std::move(argument));
      if (cur_.tryChar(',')) continue;
      if (cur_.tryChar('>')) return true;
      return failFound(cur_.offset(), "expected ',' or '>' after a type argument");
    }
  }

  // A metadata token of table TypeRef, TypeDef or TypeSpec, or with names,
  // a type name that resolves to one.
  bool parseToken(Token& token) {
    const std::size_t at = cur_.offset();
    if (names_ != nullptr) {
      const std::string_view name = cur_.tryTypeName();
      if (!name.empty()) {
        Expected<Token> resolved = names_->tokenOf(name);
        if (!resolved) {
          Error e = resolved.error();
          e.offset += at;
          error_ = std::move(e);
          return false;
        }
        token = *resolved;
        return true;
      }
    }
    if (!cur_.readToken(token.value)) {
      return failFound(at, "expected a metadata token like 0x01000012");
    }
    const std::uint8_t table = token.table();
    if (table != static_cast<std::uint8_t>(TokenTable::TypeRef) &&
        table != static_cast<std::uint8_t>(TokenTable::TypeDef) &&
        table != static_cast<std::uint8_t>(TokenTable::TypeSpec)) {
      return fail(at,
                  concat({"token table ", hex8(table), " is not TypeRef (0x01), TypeDef (0x02) or TypeSpec (0x1B)"}),
                  rules::kInvalidToken);
    }
    return true;
  }

  // After `method`: CALLCONV RET `*(` PARAMS `)`.
  bool parseFunctionPointer(unsigned ancestors, Type& out, unsigned& height) {
    FunctionPointerInfo info;
    if (!parseCallingConvention(info)) return false;
    Type returnType;
    unsigned partHeight = 0;
    if (!parseType(ancestors + 1, returnType, partHeight)) return false;
    height = std::max(height, partHeight + 1);
    out = Type::functionPointer(info, std::move(returnType), {});
    if (!cur_.tryChar('*')) {
      return failFound(cur_.offset(), "expected '*(' after the function pointer's return type");
    }
    if (!cur_.tryChar('(')) {
      return failFound(cur_.offset(), "expected '(' to open the function pointer's parameters");
    }
    if (cur_.tryChar(')')) return true;
    std::size_t sentinelAt = 0;
    for (;;) {
      const std::size_t at = cur_.offset();
      if (cur_.tryString("...")) {
        if (out.method.sentinel) {
          return fail(at, "a parameter list holds at most one sentinel '...'", rules::kInvalidSentinel);
        }
        out.method.sentinel = static_cast<std::uint32_t>(out.operands.size() - 1);
        sentinelAt = at;
      } else {
        if (out.operands.size() - 1 == Limits::maxFunctionPointerParameters) {
          return fail(
              at, concat({"more parameters than the limit of ", std::to_string(Limits::maxFunctionPointerParameters)}),
              rules::kCountTooLarge);
        }
        Type parameter;
        if (!parseType(ancestors + 1, parameter, partHeight)) return false;
        height = std::max(height, partHeight + 1);
        out.operands.push_back(std::move(parameter));
        // Now the boundary before this parameter is known to be one.
        if (!sentinelsFit(out, static_cast<std::uint32_t>(out.operands.size() - 2), sentinelAt)) return false;
      }
      if (cur_.tryChar(',')) continue;
      if (cur_.tryChar(')')) {
        if (!sentinelsFit(out, static_cast<std::uint32_t>(out.operands.size() - 1), sentinelAt)) return false;
        if (out.method.sentinel == out.operands.size() - 1) trailingSentinelAt_ = sentinelAt;
        return true;
      }
      return failFound(cur_.offset(), "expected ',' or ')' after a parameter");
    }
  }

  // The sentinel rule (type.hpp) at one boundary of the list, once it is
  // known whether a parameter follows it: the same sentinelConflict the
  // encoder checks, located at the '...' it is about.
  bool sentinelsFit(const Type& fnptr, std::uint32_t boundary, std::size_t sentinelAt) {
    switch (sentinelConflict(fnptr, boundary)) {
      case SentinelConflict::None:
      case SentinelConflict::PastEnd: return true;  // the parser never places one there
      case SentinelConflict::TrailingNotVarArg:
        return fail(sentinelAt,
                    "a '...' with nothing after it is allowed only in a vararg signature ('method vararg ...')",
                    rules::kInvalidSentinel);
      case SentinelConflict::TakenByType:
        return fail(sentinelAt,
                    "this '...' right after a vararg function pointer that has none of its own would be "
                    "read back as that function pointer's (write it there, or give that one its own)",
                    rules::kInvalidSentinel);
      case SentinelConflict::TrailingBeforeParameter:
        return fail(trailingSentinelAt_,
                    "this '...' ends a parameter list right before a parameter of the enclosing list, so it "
                    "would be read back as the enclosing list's sentinel, as System.Reflection.Metadata reads "
                    "it (write it in the enclosing list, or drop it)",
                    rules::kInvalidSentinel);
    }
    return true;
  }

  // [instance] [explicit] [generic(N)] (in any order, each once), then the
  // kind: nothing/default, vararg, unmanaged [cdecl|stdcall|thiscall|fastcall].
  bool parseCallingConvention(FunctionPointerInfo& info) {
    std::uint8_t flags = 0;
    for (;;) {
      const std::size_t at = cur_.offset();
      const std::string_view word = cur_.peekWord();
      std::uint8_t flag = 0;
      if (word == "instance") flag = callconv::kHasThis;
      else if (word == "explicit") flag = callconv::kExplicitThis;
      else if (word == "generic") flag = callconv::kGeneric;
      else break;
      if (flags & flag) {
        return fail(at, concat({"'", word, "' appears twice in the calling convention"}),
                    rules::kInvalidCallingConvention);
      }
      flags |= flag;
      cur_.tryWord(word);
      if (flag == callconv::kGeneric && !parseGenericCount(info)) return false;
    }
    std::uint8_t kind = callconv::kDefault;
    if (cur_.tryWord("default")) {
      kind = callconv::kDefault;
    } else if (cur_.tryWord("vararg")) {
      kind = callconv::kVarArg;
    } else if (cur_.tryWord("unmanaged")) {
      if (cur_.tryWord("cdecl")) kind = callconv::kCdecl;
      else if (cur_.tryWord("stdcall")) kind = callconv::kStdCall;
      else if (cur_.tryWord("thiscall")) kind = callconv::kThisCall;
      else if (cur_.tryWord("fastcall")) kind = callconv::kFastCall;
      else kind = callconv::kUnmanaged;
    }
    info.callingConvention = static_cast<std::uint8_t>(flags | kind);
    return true;
  }

  // After `generic`: `(N)`, the number of generic parameters.
  bool parseGenericCount(FunctionPointerInfo& info) {
    if (!cur_.tryChar('(')) return failFound(cur_.offset(), "expected '(' after 'generic'");
    const std::size_t at = cur_.offset();
    std::uint64_t n = 0;
    switch (cur_.readDecimal(kMaxCompressed, n)) {
      case NumberRead::Absent: return failFound(at, "expected the number of generic parameters in 'generic(N)'");
      case NumberRead::TooLarge:
        return fail(at, "generic parameter count is larger than 536870911 (0x1FFFFFFF)", rules::kValueOutOfRange);
      case NumberRead::Ok: break;
    }
    info.genericParameterCount = static_cast<std::uint32_t>(n);
    if (!cur_.tryChar(')')) return failFound(cur_.offset(), "expected ')' after 'generic(N'");
    return true;
  }

  // Applies postfix operators left to right, innermost first, in a loop.
  bool parsePostfix(unsigned ancestors, Type& out, unsigned& height) {
    for (;;) {
      const std::size_t at = cur_.offset();
      const char c = cur_.peek();
      ElementType wrapper;
      if (c == '*') {
        if (cur_.secondIs('(')) return true;  // `*(` opens a function pointer's parameters
        wrapper = ElementType::Ptr;
      } else if (c == '&') {
        wrapper = ElementType::ByRef;
      } else if (c == '[') {
        wrapper = ElementType::SzArray;  // or Array, decided below
      } else {
        const std::string_view word = cur_.peekWord();
        if (word == "modreq") wrapper = ElementType::CModReqd;
        else if (word == "modopt") wrapper = ElementType::CModOpt;
        else if (word == "pinned") wrapper = ElementType::Pinned;
        else return true;
      }
      if (ancestors + height + 1 > Limits::maxTypeDepth) return depthError(at);

      Type wrapped;
      switch (wrapper) {
        case ElementType::Ptr:
        case ElementType::ByRef:
          cur_.tryChar(c);
          wrapped.element = wrapper;
          break;
        case ElementType::SzArray:
          cur_.tryChar('[');
          if (cur_.tryChar(']')) {
            wrapped.element = ElementType::SzArray;
          } else {
            wrapped.element = ElementType::Array;
            if (!parseArrayShape(wrapped.shape)) return false;
          }
          break;
        case ElementType::Pinned:
          cur_.tryWord("pinned");
          wrapped.element = wrapper;
          break;
        default: {  // modreq / modopt
          const bool required = wrapper == ElementType::CModReqd;
          cur_.tryWord(required ? "modreq" : "modopt");
          const char* name = required ? "modreq" : "modopt";
          if (!cur_.tryChar('(')) {
            return failFound(cur_.offset(), concat({"expected '(' after '", name, "'"}));
          }
          if (!parseToken(wrapped.token)) return false;
          if (!cur_.tryChar(')')) {
            return failFound(cur_.offset(), concat({"expected ')' after the ", name, " token"}));
          }
          wrapped.element = wrapper;
          break;
        }
      }
      wrapped.operands.push_back(std::move(out));
      out = std::move(wrapped);
      ++height;
    }
  }

  // After `[` (and not `[]`): comma-separated entries up to `]`. Each is a
  // dimension (empty, `...`, `size`, `lo...` or `lo...hi`), except that the
  // last may be `rank(N)`. The comma that would open dimension
  // Limits::maxArrayRank + 1 is an error, so `[` and 200 million commas
  // cost 32 commas' work, and sizes and lower bounds never outgrow it.
  bool parseArrayShape(ArrayShape& shape) {
    shape.rank = 0;
    for (;;) {
      if (cur_.tryWord("rank")) return parseRankEntry(shape);
      if (!parseDimension(shape.rank, shape)) return false;
      ++shape.rank;
      const std::size_t commaAt = cur_.offset();
      if (cur_.tryChar(',')) {
        if (shape.rank == Limits::maxArrayRank) return rankError(commaAt);
        continue;
      }
      if (cur_.tryChar(']')) return true;
      return failFound(cur_.offset(), "expected ',' or ']' in an array shape");
    }
  }

  bool rankError(std::size_t at) {
    return fail(at, concat({"array rank is above the limit of ", std::to_string(Limits::maxArrayRank)}),
                rules::kArrayRankTooLarge);
  }

  // After `rank`, the gdmap extension that ends a shape: `(N)` makes the
  // rank N, the dimensions written before it being the first of those N
  // (the rest have neither size nor lower bound). Earlier versions printed
  // it above rank 32; it is still read (up to the rank limit) so that texts
  // written then parse, and so that every rank has one more spelling.
  bool parseRankEntry(ArrayShape& shape) {
    if (!cur_.tryChar('(')) return failFound(cur_.offset(), "expected '(' after 'rank'");
    const std::size_t at = cur_.offset();
    std::uint64_t n = 0;
    switch (cur_.readDecimal(Limits::maxArrayRank, n)) {
      case NumberRead::Absent: return failFound(at, "expected the array rank in 'rank(N)'");
      case NumberRead::TooLarge: return rankError(at);
      case NumberRead::Ok: break;
    }
    // `[5,6,rank(1)]` cannot be: the sizes would describe more dimensions
    // than the array has, which the bytes cannot say either.
    if (n < shape.rank) {
      return fail(at,
                  concat({"rank(N) must be at least the number of dimensions written before it (",
                          std::to_string(shape.rank), "), found ", std::to_string(n)}),
                  rules::kInvalidArrayShape);
    }
    if (n == 0) return fail(at, "array rank in 'rank(N)' must be at least 1", rules::kInvalidArrayShape);
    if (!cur_.tryChar(')')) return failFound(cur_.offset(), "expected ')' after 'rank(N'");
    if (!cur_.tryChar(']')) {
      return failFound(cur_.offset(), "expected ']' after 'rank(N)', which must be the last entry of an array shape");
    }
    shape.rank = static_cast<std::uint32_t>(n);
    return true;
  }

  bool parseDimension(std::uint32_t dimension, ArrayShape& shape) {
    const std::size_t at = cur_.offset();
    if (cur_.tryString("...")) return true;  // neither bound nor size, spelled out
    std::int64_t first = 0;
    switch (cur_.readSigned(std::uint64_t{1} << 40, first)) {
      case NumberRead::Absent: return true;  // empty: neither bound nor size
      case NumberRead::TooLarge: return fail(at, "array bound is out of range", rules::kValueOutOfRange);
      case NumberRead::Ok: break;
    }
    if (!cur_.tryString("...")) {  // a size alone
      if (first < 0 || first > kMaxCompressed) {
        return fail(at, concat({"array size ", std::to_string(first), " is outside 0 ... 536870911 (0x1FFFFFFF)"}),
                    rules::kValueOutOfRange);
      }
      addSize(dimension, static_cast<std::uint32_t>(first), shape);
      return true;
    }
    if (first < kMinLowerBound || first > kMaxLowerBound) {
      return fail(at, concat({"array lower bound ", std::to_string(first), " is outside -268435456 ... 268435455"}),
                  rules::kValueOutOfRange);
    }
    shape.lowerBounds.resize(dimension, 0);  // earlier dimensions get the implicit 0
    shape.lowerBounds.push_back(static_cast<std::int32_t>(first));
    const std::size_t highAt = cur_.offset();
    std::int64_t high = 0;
    switch (cur_.readSigned(std::uint64_t{1} << 40, high)) {
      case NumberRead::Absent: return true;  // `lo...`: lower bound only
      case NumberRead::TooLarge: return fail(highAt, "array upper bound is out of range", rules::kValueOutOfRange);
      case NumberRead::Ok: break;
    }
    if (high < first - 1) {
      return fail(highAt,
                  concat({"array upper bound ", std::to_string(high), " is below the lower bound ",
                          std::to_string(first), " minus 1"}),
                  rules::kInvalidArrayShape);
    }
    const std::int64_t size = high - first + 1;
    if (size > kMaxCompressed) {
      return fail(highAt,
                  concat({"array dimension ", std::to_string(first), "...", std::to_string(high),
                          " holds more than 536870911 (0x1FFFFFFF) elements"}),
                  rules::kValueOutOfRange);
    }
    addSize(dimension, static_cast<std::uint32_t>(size), shape);
    return true;
  }

  // Sizes describe a prefix of the dimensions, so earlier dimensions written
  // without a size get size 0, the way lower bounds get an implicit 0: that
  // is what Mono's ilasm writes for `[,3]` (sizes 0, 3), and the printer
  // writes such a dimension as `0` (or `lo...lo-1`), so bytes -> text ->
  // bytes stays exact. Sizes only grow with the dimension, so this never
  // shrinks the vector.
  static void addSize(std::uint32_t dimension, std::uint32_t size, ArrayShape& shape) {
    shape.sizes.resize(dimension, 0);
    shape.sizes.push_back(size);
  }

  bool depthError(std::size_t at) {
    return fail(at,
                concat({"type nesting is deeper than the limit of ", std::to_string(Limits::maxTypeDepth), " levels"}),
                rules::kTypeNestingTooDeep);
  }

  // "WHAT, found NEXT": `what` was expected where the text has something
  // else, a syntax error.
  bool failFound(std::size_t at, std::string_view what) {
    return fail(at, concat({what, ", found ", cur_.describeNext()}), rules::kTypeTextSyntax);
  }

  bool fail(std::size_t at, std::string message, const char* rule) {
    error_ = Error{at, std::move(message), rule};
    return false;
  }

  TextCursor cur_;
  const TypeNames* names_;
  Error error_;
  // The offset of the trailing '...' of the function pointer that closed
  // last with one. When a type ends with a trailing sentinel
  // (endsWithSentinel), this is it: in the type's text only suffixes, '>'
  // and the ')' of pointers without a trailing '...' (else theirs would end
  // the type) come after that pointer's ')'.
  std::size_t trailingSentinelAt_ = 0;
};

}  // namespace

Expected<Type> parseType(std::string_view text) { return TypeParser(text).run(); }

Expected<Type> parseType(std::string_view text, const TypeNames& names) { return TypeParser(text, &names).run(); }

}  // namespace gdmap
