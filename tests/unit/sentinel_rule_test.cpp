// The sentinel rule (type.hpp) as one rule: over every small nest of
// function pointers, pointers, generics and arrays with a sentinel in every
// place, the encoder and the text parser refuse exactly the same models,
// each model they accept reads back as itself, and each model they refuse
// has no bytes of its own (written anyway, its bytes read back as another
// type or not at all), so the rule is neither too loose nor too strict.
#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/type.hpp>
#include <gdmap/schema/type_text.hpp>
#include <gdmap/writer/type_encoder.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using gdmap::Bytes;
using gdmap::ElementType;
using gdmap::FunctionPointerInfo;
using gdmap::Token;
using gdmap::Type;

namespace {

const Type kLeaf = Type::primitive(ElementType::I4);
constexpr Token kGeneric{0x01000012};

// The bytes of a model with every SENTINEL written where the model puts
// it, whatever a decoder makes of it.
void writeAnyway(const Type& t, Bytes& out) {
  switch (t.element) {
    case ElementType::Ptr:
      out.push_back(0x0F);
      writeAnyway(t.operands[0], out);
      return;
    case ElementType::Array:
      out.push_back(0x14);
      writeAnyway(t.operands[0], out);
      out.insert(out.end(), {0x01, 0x00, 0x00});
      return;
    case ElementType::GenericInst:
      out.insert(out.end(), {0x15, 0x12, 0x49, static_cast<std::uint8_t>(t.operands.size())});
      for (const Type& a : t.operands) writeAnyway(a, out);
      return;
    case ElementType::FnPtr: {
      const std::size_t count = t.operands.size() - 1;
      out.insert(out.end(), {0x1B, t.method.callingConvention, static_cast<std::uint8_t>(count)});
      writeAnyway(t.operands[0], out);
      for (std::size_t i = 0; i <= count; ++i) {
        if (t.method.sentinel == i) out.push_back(0x41);
        if (i < count) writeAnyway(t.operands[i + 1], out);
      }
      return;
    }
    default: out.push_back(static_cast<std::uint8_t>(t.element)); return;
  }
}

// Every function pointer of both kinds (default, vararg) over these return
// types and parameter lists, with no sentinel and with one in each place.
void addFunctionPointers(const std::vector<Type>& returns, const std::vector<std::vector<Type>>& lists,
                         std::vector<Type>& out) {
  for (const std::uint8_t convention : {gdmap::callconv::kDefault, gdmap::callconv::kVarArg}) {
    for (const Type& r : returns) {
      for (const std::vector<Type>& parameters : lists) {
        for (std::uint32_t s = 0; s <= parameters.size() + 1; ++s) {
          FunctionPointerInfo info;
          info.callingConvention = convention;
          if (s > 0) info.sentinel = s - 1;
          out.push_back(Type::functionPointer(info, r, parameters));
        }
      }
    }
  }
}

void addWrappers(const std::vector<Type>& inner, std::vector<Type>& out) {
  for (const Type& t : inner) {
    out.push_back(Type::pointer(t));
    out.push_back(Type::array(t, gdmap::ArrayShape{1, {}, {}}));
    out.push_back(Type::genericInstance(false, kGeneric, {t}));
    out.push_back(Type::genericInstance(false, kGeneric, {t, kLeaf}));
  }
}

struct Tally {
  std::size_t accepted = 0;
  std::size_t refused = 0;
};

void checkOne(const Type& model, Tally& tally) {
  const gdmap::Expected<Bytes> encoded = gdmap::encodeType(model);
  const std::string text = gdmap::formatType(model);
  const gdmap::Expected<Type> parsed = gdmap::parseType(text);
  Bytes anyway;
  writeAnyway(model, anyway);
  const gdmap::Expected<Type> readBack = gdmap::decodeTypeBlob(anyway);
  const bool roundTrips = readBack.ok() && *readBack == model;
  INFO(text, " ", gdmap::toHex(anyway));
  REQUIRE(encoded.ok() == parsed.ok());
  REQUIRE(encoded.ok() == roundTrips);
  if (encoded.ok()) {
    ++tally.accepted;
    REQUIRE(*encoded == anyway);
    REQUIRE(*parsed == model);
  } else {
    ++tally.refused;
    REQUIRE(encoded.error().rule == "invalid-sentinel");
    REQUIRE(parsed.error().rule == "invalid-sentinel");
  }
}

}  // namespace

TEST_CASE("sentinel rule: encoder, parser and decoder agree on every small nest") {
  std::vector<Type> level1 = {kLeaf};
  addWrappers({kLeaf}, level1);
  addFunctionPointers({kLeaf}, {{}, {kLeaf}, {kLeaf, kLeaf}}, level1);

  std::vector<Type> level2;
  addWrappers(level1, level2);
  std::vector<std::vector<Type>> lists = {{}};
  for (const Type& a : level1) {
    lists.push_back({a});
    lists.push_back({a, kLeaf});
    lists.push_back({kLeaf, a});
  }
  addFunctionPointers({kLeaf}, lists, level2);
  addFunctionPointers(level1, {{}, {kLeaf}}, level2);

  // One level further: each of the second level as a parameter, followed
  // by another or not, and as the return type.
  std::vector<Type> level3;
  std::vector<std::vector<Type>> deepLists;
  for (const Type& a : level2) {
    deepLists.push_back({a});
    deepLists.push_back({a, kLeaf});
  }
  addFunctionPointers({kLeaf}, deepLists, level3);
  addFunctionPointers(level2, {{}, {kLeaf}}, level3);

  Tally tally;
  for (const std::vector<Type>* level : {&level1, &level2, &level3}) {
    for (const Type& model : *level) checkOne(model, tally);
  }
  // Both sides of the rule are reached, not only one.
  CHECK(tally.accepted > 10000);
  CHECK(tally.refused > 1000);
}
