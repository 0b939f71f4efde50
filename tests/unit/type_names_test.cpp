// Names instead of tokens in type text (`--names`): the name syntax, the
// printer and parser hooks, and the names an assembly's metadata gives.
#include <gdmap/metadata/assembly_type_names.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/schema/type_names.hpp>
#include <gdmap/schema/type_text.hpp>

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <string>

namespace {

// A fixed table, one name per token, one name given to two tokens.
class TableNames : public gdmap::TypeNames {
 public:
  TableNames() {
    add(0x01000001, "[mscorlib]System.Object");
    add(0x01000002, "[mscorlib]System.Collections.Generic.List`1");
    add(0x02000003, "Ns.Outer/Inner");
    add(0x02000004, "Ns.'<>c'");
    add(0x02000005, "Twice");
    add(0x02000006, "Twice");
  }
  std::string nameOf(gdmap::Token token) const override {
    const auto found = byToken_.find(token.value);
    return found == byToken_.end() ? std::string() : found->second;
  }
  gdmap::Expected<gdmap::Token> tokenOf(std::string_view name) const override {
    const std::string key = gdmap::unquotedTypeName(name);
    gdmap::Token token{0};
    int matches = 0;
    for (const auto& [value, written] : byToken_) {
      if (gdmap::unquotedTypeName(written) == key) {
        token = gdmap::Token{value};
        ++matches;
      }
    }
    if (matches == 0) return gdmap::Error{0, "unknown", gdmap::rules::kUnknownTypeName};
    if (matches > 1) return gdmap::Error{0, "ambiguous", gdmap::rules::kAmbiguousTypeName};
    return token;
  }

 private:
  void add(std::uint32_t token, std::string name) { byToken_[token] = std::move(name); }
  std::map<std::uint32_t, std::string> byToken_;
};

std::string roundTrip(const std::string& text, const gdmap::TypeNames& names) {
  const auto type = gdmap::parseType(text, names);
  REQUIRE_MESSAGE(type.ok(), text);
  return gdmap::formatType(*type, names);
}

}  // namespace

TEST_CASE("type names: where a name ends") {
  using gdmap::typeNameEnd;
  CHECK(typeNameEnd("[mscorlib]System.String[]", 0) == 23);
  CHECK(typeNameEnd("System.Object<int32>", 0) == 13);
  CHECK(typeNameEnd("Ns.Outer/Inner)", 0) == 14);
  CHECK(typeNameEnd("Ns.'<>c'/x y", 0) == 10);
  CHECK(typeNameEnd("0x01000001", 0) == 0);  // a token, not a name
  CHECK(typeNameEnd("[]", 0) == 0);
  CHECK(typeNameEnd("'unclosed", 0) == 0);
  std::string quoted;
  gdmap::appendNamePart("<>c__DisplayClass0_0", quoted);
  CHECK(quoted == "'<>c__DisplayClass0_0'");
  CHECK(gdmap::unquotedTypeName("[a.b]Ns.'<>c'") == "[a.b]Ns.<>c");
}

TEST_CASE("type names: printed for known tokens, hex for the rest, and parsed back") {
  const TableNames names;
  CHECK(roundTrip("class 0x01000002<class 0x01000001, int32[]>", names) ==
        "class [mscorlib]System.Collections.Generic.List`1<class [mscorlib]System.Object, int32[]>");
  CHECK(roundTrip("class [mscorlib]System.Object[]", names) == "class [mscorlib]System.Object[]");
  CHECK(roundTrip("valuetype Ns.Outer/Inner*", names) == "valuetype Ns.Outer/Inner*");
  CHECK(roundTrip("class Ns.'<>c'", names) == "class Ns.'<>c'");
  CHECK(roundTrip("int32 modopt([mscorlib]System.Object)", names) == "int32 modopt([mscorlib]System.Object)");
  CHECK(roundTrip("class 0x01000009", names) == "class 0x01000009");
  // Without names the same model prints tokens, as always.
  CHECK(gdmap::formatType(*gdmap::parseType("class Ns.Outer/Inner", names)) == "class 0x02000003");
}

TEST_CASE("type names: unknown and ambiguous names fail at their place") {
  const TableNames names;
  const auto unknown = gdmap::parseType("class 0x01000002<class Nope.Type>", names);
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error().rule == "unknown-type-name");
  CHECK(unknown.error().offset == 23);
  const auto ambiguous = gdmap::parseType("valuetype Twice", names);
  REQUIRE_FALSE(ambiguous.ok());
  CHECK(ambiguous.error().rule == "ambiguous-type-name");
  CHECK(ambiguous.error().offset == 10);
  // Without names a name is a syntax error, as before.
  CHECK(gdmap::parseType("class Ns.Outer/Inner").error().rule == gdmap::rules::kTypeTextSyntax);
}

TEST_CASE("type names: an assembly's TypeDefs and TypeRefs") {
  const std::string path = std::string(GDMAP_SOURCE_DIR) + "/tests/data/r2r/System.Threading.Tasks.Extensions.dll";
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  const gdmap::Bytes file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const gdmap::Expected<gdmap::metadata::AssemblyTypeNames> opened = gdmap::metadata::AssemblyTypeNames::open(file);
  REQUIRE(opened.ok());
  const gdmap::metadata::AssemblyTypeNames& names = *opened;
  // Read off the image's TypeRef and TypeDef tables.
  CHECK(names.nameOf(gdmap::Token{0x01000001}) == "[System.Runtime]System.ValueType");
  CHECK(names.nameOf(gdmap::Token{0x01000003}) == "[System.Runtime]System.Threading.Tasks.Task`1");
  CHECK(names.nameOf(gdmap::Token{0x02000001}) == "'<Module>'");
  CHECK(names.nameOf(gdmap::Token{0x1B000001}).empty());  // TypeSpecs keep their token
  const auto token = names.tokenOf("System.Runtime.CompilerServices.ConfiguredValueTaskAwaitable`1");
  REQUIRE(token.ok());
  CHECK(token->value == 0x02000005);
  CHECK(names.tokenOf("[System.Runtime]No.Such").error().rule == gdmap::rules::kUnknownTypeName);
  // Every name it gives leads back to its token, unless another type has it.
  CHECK(names.size() > 20);
  const gdmap::Bytes notAnImage(64, 0);
  const auto notNames = gdmap::metadata::AssemblyTypeNames::open(notAnImage);
  REQUIRE_FALSE(notNames.ok());
  CHECK(notNames.error().rule == gdmap::rules::kR2rNotPe);
}
