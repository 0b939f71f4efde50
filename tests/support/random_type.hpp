#pragma once
// Seeded generator of valid Type models for round-trip tests. Only
// std::mt19937_64 and modulo arithmetic are used (no std:: distributions,
// whose outputs differ between standard libraries), so a seed gives the same
// types with every compiler and library.
#include <gdmap/schema/element_type.hpp>
#include <gdmap/schema/limits.hpp>
#include <gdmap/schema/type.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace gdmap::testing {

class RandomTypeGenerator {
 public:
  // maxDepth bounds the nesting of one type (in Type nodes, far below
  // kMaxTypeDepth); maxNodes bounds its size so that generics and function
  // pointers do not grow exponentially with depth.
  explicit RandomTypeGenerator(std::uint64_t seed, unsigned maxDepth = 7, unsigned maxNodes = 40)
      : engine_(seed), maxDepth_(maxDepth < 1 ? 1 : maxDepth), maxNodes_(maxNodes) {}

  // A valid type: every element type, all token tables (TypeSpec only in
  // modifiers), full array shapes, function pointers with every calling
  // convention, modifiers and `pinned` at any level.
  Type next() {
    nodesLeft_ = maxNodes_;
    return type(maxDepth_, false);
  }

  // A number in [0, bound); bound must be > 0.
  std::uint64_t below(std::uint64_t bound) { return engine_() % bound; }
  bool chance(std::uint64_t oneIn) { return below(oneIn) == 0; }

  // An unsigned compressed integer spread over the 1, 2 and 4-byte forms,
  // often exactly at a form's boundary.
  std::uint32_t compressedUInt() {
    static constexpr std::array<std::uint32_t, 6> kEdges = {0, 0x7F, 0x80, 0x3FFF, 0x4000, 0x1FFFFFFF};
    switch (below(4)) {
      case 0: return static_cast<std::uint32_t>(below(0x80));
      case 1: return static_cast<std::uint32_t>(0x80 + below(0x4000 - 0x80));
      case 2: return static_cast<std::uint32_t>(0x4000 + below(0x20000000 - 0x4000));
      default: return kEdges[below(kEdges.size())];
    }
  }

  // A signed compressed integer spread over the three forms, negative as
  // often as not, often at a boundary.
  std::int32_t compressedInt() {
    static constexpr std::array<std::int32_t, 12> kEdges = {0,     -1,   -64,   63,   -65,        64,
                                                            -8192, 8191, -8193, 8192, -(1 << 28), (1 << 28) - 1};
    const bool negative = chance(2);
    std::int64_t magnitude = 0;
    switch (below(4)) {
      case 0: magnitude = static_cast<std::int64_t>(below(64)); break;
      case 1: magnitude = 64 + static_cast<std::int64_t>(below(8192 - 64)); break;
      case 2: magnitude = 8192 + static_cast<std::int64_t>(below((1 << 28) - 8192)); break;
      default: return kEdges[below(kEdges.size())];
    }
    // Negative values reach one further than positive ones (-64, not -63).
    return static_cast<std::int32_t>(negative ? -magnitude - 1 : magnitude);
  }

  // A token whose row needs 1, 2 or 4 bytes once encoded; TypeSpec only
  // when allowed (custom modifiers). Rows start at 1: row 0 is the nil token.
  Token typeToken(bool allowTypeSpec) {
    static constexpr std::array<std::uint32_t, 6> kEdgeRows = {1, 0x1F, 0x20, 0xFFF, 0x1000, 0xFFFFFF};
    std::uint32_t row = 1;
    switch (below(4)) {
      case 0: row = static_cast<std::uint32_t>(1 + below(0x1F)); break;
      case 1: row = static_cast<std::uint32_t>(0x20 + below(0x1000 - 0x20)); break;
      case 2: row = static_cast<std::uint32_t>(0x1000 + below(0x1000000 - 0x1000)); break;
      default: row = kEdgeRows[below(kEdgeRows.size())]; break;
    }
    static constexpr std::array<std::uint8_t, 3> kTables = {0x02, 0x01, 0x1B};
    const std::uint8_t table = kTables[below(allowTypeSpec ? 3 : 2)];
    return Token{std::uint32_t{table} << 24 | row};
  }

 private:
  static constexpr std::array<ElementType, 17> kPrimitives = {
      ElementType::Void, ElementType::Boolean, ElementType::Char, ElementType::I1,     ElementType::U1,
      ElementType::I2,   ElementType::U2,      ElementType::I4,   ElementType::U4,     ElementType::I8,
      ElementType::U8,   ElementType::R4,      ElementType::R8,   ElementType::String, ElementType::TypedByRef,
      ElementType::I,    ElementType::U};

  // Function arguments are evaluated in an unspecified order, so every
  // draw that feeds one call is sequenced in its own statement.
  // `parameterFollows`: an enclosing function pointer has a parameter right
  // after this type, so no function pointer ending it may have a trailing
  // sentinel (the decoder reads that 0x41 as the enclosing list's).
  Type type(unsigned depthLeft, bool parameterFollows) {
    if (nodesLeft_ > 0) --nodesLeft_;
    if (depthLeft <= 1 || nodesLeft_ == 0 || chance(3)) return leaf();
    switch (below(12)) {
      case 0: return Type::pointer(type(depthLeft - 1, parameterFollows));
      case 1: return Type::byRef(type(depthLeft - 1, parameterFollows));
      case 2: return Type::szArray(type(depthLeft - 1, parameterFollows));
      case 3: {
        Type element = type(depthLeft - 1, false);
        return Type::array(std::move(element), shape());
      }
      case 4: return Type::pinned(type(depthLeft - 1, parameterFollows));
      case 5:
      case 6: {
        const bool required = chance(2);
        const Token modifier = typeToken(true);
        return Type::modified(required, modifier, type(depthLeft - 1, parameterFollows));
      }
      case 7:
      case 8: return genericInstance(depthLeft, parameterFollows);
      case 9:
      case 10: return functionPointer(depthLeft, parameterFollows);
      default: return leaf();
    }
  }

  Type leaf() {
    switch (below(6)) {
      case 0: return Type::primitive(ElementType::Object);
      case 1: return Type::classType(typeToken(false));
      case 2: return Type::valueType(typeToken(false));
      case 3: return chance(2) ? Type::typeVariable(compressedUInt()) : Type::methodVariable(compressedUInt());
      default: return Type::primitive(kPrimitives[below(kPrimitives.size())]);
    }
  }

  Type genericInstance(unsigned depthLeft, bool parameterFollows) {
    std::vector<Type> arguments;
    const std::size_t count = 1 + below(3);
    for (std::size_t i = 0; i < count; ++i)
      arguments.push_back(type(depthLeft - 1, i + 1 == count && parameterFollows));
    const bool valueTypeHead = chance(2);
    return Type::genericInstance(valueTypeHead, typeToken(false), std::move(arguments));
  }

  // Every rank up to Limits::maxArrayRank, small ones most often; now and
  // then as many sizes and lower bounds as the rank allows.
  ArrayShape shape() {
    ArrayShape s;
    s.rank = !chance(8)  ? static_cast<std::uint32_t>(1 + below(5))
             : chance(2) ? Limits::maxArrayRank
                         : static_cast<std::uint32_t>(1 + below(Limits::maxArrayRank));
    const std::uint32_t limit = s.rank < 4 || chance(4) ? s.rank : 4;
    const std::size_t sizeCount = below(limit + 1);
    for (std::size_t i = 0; i < sizeCount; ++i) s.sizes.push_back(compressedUInt());
    const std::size_t boundCount = below(limit + 1);
    for (std::size_t i = 0; i < boundCount; ++i) s.lowerBounds.push_back(compressedInt());
    return s;
  }

  Type functionPointer(unsigned depthLeft, bool parameterFollows) {
    static constexpr std::array<std::uint8_t, 7> kKinds = {callconv::kDefault,  callconv::kCdecl,    callconv::kStdCall,
                                                           callconv::kThisCall, callconv::kFastCall, callconv::kVarArg,
                                                           callconv::kUnmanaged};
    FunctionPointerInfo info;
    // Each flag on or off independently: all eight flag combinations occur.
    info.callingConvention = static_cast<std::uint8_t>(kKinds[below(kKinds.size())] | below(8) << 4);
    if (info.callingConvention & callconv::kGeneric) info.genericParameterCount = compressedUInt();
    const std::size_t count = below(5);
    Type returnType = type(depthLeft - 1, count > 0 || parameterFollows);
    std::vector<Type> parameters;
    for (std::size_t i = 0; i < count; ++i)
      parameters.push_back(type(depthLeft - 1, i + 1 < count || parameterFollows));
    // Vararg signatures get a sentinel more often: only they may end with one.
    const bool vararg = callconv::isVarArg(info.callingConvention);
    if (chance(vararg ? 2 : 4)) {
      const auto position = static_cast<std::uint32_t>(below(count + 1));
      const Type& before = position == 0 ? returnType : parameters[position - 1];
      // Before a parameter a sentinel is always this list's, even right
      // after a vararg pointer without one (System.Reflection.Metadata
      // reads it so). After the last parameter it reads back as this
      // list's only in a vararg signature, with no enclosing parameter
      // after it and no type before it that takes it (type.hpp's rule).
      if (position < count || (vararg && !parameterFollows && !takesFollowingSentinel(before))) {
        info.sentinel = position;
      }
    }
    return Type::functionPointer(info, std::move(returnType), std::move(parameters));
  }

  std::mt19937_64 engine_;
  unsigned maxDepth_;
  unsigned maxNodes_;
  unsigned nodesLeft_ = 0;
};

}  // namespace gdmap::testing
