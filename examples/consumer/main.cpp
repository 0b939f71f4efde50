// Builds a small generic dictionary map with the library API (no JSON), the
// way a compiler pipeline would, then reads it back: validates it, looks an
// RVA up and prints that dictionary's types. Exit status 0 when all of that
// works, 1 otherwise.
#include <gdmap/gdmap.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

int fail(const std::string& what) {
  std::fprintf(stderr, "gdmap_consumer: %s\n", what.c_str());
  return 1;
}

// Names for tokens, as a symbol table of the compiler would give them
// (gdmap::metadata::AssemblyTypeNames reads them from an assembly).
class CompilerNames : public gdmap::TypeNames {
 public:
  std::string nameOf(gdmap::Token token) const override {
    return token.value == 0x01000012 ? "[System.Runtime]System.Collections.Generic.List`1" : std::string();
  }
  gdmap::Expected<gdmap::Token> tokenOf(std::string_view name) const override {
    if (name == "[System.Runtime]System.Collections.Generic.List`1") return gdmap::Token{0x01000012};
    return gdmap::Error{0, "unknown type name", gdmap::rules::kUnknownTypeName};
  }
};

}  // namespace

int main() {
  using namespace gdmap;

  MapBuilder builder;  // sorted by RVA, the canonical layout

  // List<int32>, built from the Type factories: 0x01000012 is a TypeRef.
  const std::vector<Type> listOfInt = {
      Type::genericInstance(false, Token{0x01000012}, {Type::primitive(ElementType::I4)})};
  if (Status s = builder.add(0x00001000, listOfInt); !s) return fail("add: " + s.error().message);

  // The same instantiation at another RVA: stored once in the heap.
  if (Status s = builder.add(0x00001040, listOfInt); !s) return fail("add: " + s.error().message);

  // Types from ILAsm text.
  std::vector<Type> parsed;
  for (const char* text : {"string", "valuetype 0x02000003<!0, int32[]>"}) {
    Expected<Type> t = parseType(text);
    if (!t) return fail(std::string("parseType(") + text + "): " + t.error().message);
    parsed.push_back(*t);
  }
  if (Status s = builder.add(0x00001020, parsed); !s) return fail("add: " + s.error().message);

  Expected<Bytes> map = builder.finish();
  if (!map) return fail("finish: " + map.error().message);
  std::printf("built a map of %zu bytes: %s\n", map->size(), toHex(*map).c_str());

  const CheckReport report = checkMap(*map);
  if (!report.valid || report.errors != 0 || report.warnings != 0) {
    for (const Diagnostic& d : report.diagnostics) std::fprintf(stderr, "%s\n", formatDiagnostic(d).c_str());
    return fail("checkMap rejected the map");
  }

  Expected<MapView> view = MapView::open(*map);
  if (!view) return fail("open: " + view.error().message);
  if (!view->sorted() || view->size() != 3) return fail("unexpected header");
  // find() fails (rather than missing) on a map whose order is a lie.
  const Expected<std::optional<std::uint32_t>> found = view->find(0x00001020);
  if (!found) return fail("find: " + found.error().message);
  const std::optional<std::uint32_t> index = *found;
  if (!index) return fail("RVA 0x00001020 not found");
  Expected<ItemView> item = view->item(view->entry(*index).offset);
  if (!item) return fail("item: " + item.error().message);
  Expected<std::vector<Type>> types = decodeItemTypes(*item);
  if (!types) return fail("decode: " + types.error().message);
  if (*types != parsed) return fail("the types read back differ from those added");
  std::printf("0x00001020:\n");
  for (const Type& t : *types) std::printf("  %s\n", formatType(t).c_str());

  const Expected<std::optional<std::uint32_t>> absent = view->find(0x00001010);
  if (!absent || absent->has_value()) return fail("found an RVA that was never added");

  // Names instead of tokens, both ways.
  const CompilerNames names;
  const std::string named = formatType(listOfInt.front(), names);
  Expected<Type> back = parseType(named, names);
  if (!back || *back != listOfInt.front()) return fail("names did not round-trip: " + named);
  std::printf("named: %s\n", named.c_str());
  return 0;
}
