// The JSON pointers schema/ derives from a description's indexes: they are
// not stored, so these functions are all that names a dictionary or an
// instantiation in a diagnostic.
#include <doctest/doctest.h>

#include <gdmap/schema/map_description.hpp>

#include <string>

namespace gdmap {

TEST_CASE("description pointers: tokens are escaped per RFC 6901") {
  CHECK(escapePointerToken("") == "");
  CHECK(escapePointerToken("plain") == "plain");
  CHECK(escapePointerToken("a/b~c") == "a~1b~0c");
  // "~1" must not read back as '/': the '~' is escaped first, not after.
  CHECK(escapePointerToken("~1") == "~01");
  CHECK(escapePointerToken("//~~") == "~1~1~0~0");
}

TEST_CASE("description pointers: dictionaries by index, instantiations by name or first use") {
  CHECK(dictionaryPointer(0) == "/dictionaries/0");
  CHECK(dictionaryPointer(123456) == "/dictionaries/123456");

  MapDescription d;
  InstantiationDescription named;
  named.name = "List/Of~Int";
  named.types = {Type::primitive(ElementType::I4)};
  InstantiationDescription inlineTypes;
  inlineTypes.types = {Type::primitive(ElementType::String)};
  InstantiationDescription raw;
  raw.raw = Bytes{0x02, 0x01, 0x08};
  InstantiationDescription unused;
  unused.types = {Type::primitive(ElementType::I8)};
  d.instantiations = {named, inlineTypes, raw, unused};
  // Dictionary 0 uses the named one; the inline ones are first used by
  // dictionaries 2 and 1, and used again later.
  d.dictionaries = {{0x10, 0}, {0x20, 2}, {0x30, 1}, {0x40, 1}, {0x50, 2}};

  CHECK(instantiationPointer(d, 0) == "/instantiations/List~1Of~0Int");
  CHECK(instantiationPointer(d, 1) == "/dictionaries/2/types");
  CHECK(instantiationPointer(d, 2) == "/dictionaries/1/raw");
  // Unnamed and used by no dictionary: nothing in a description defines it.
  CHECK(instantiationPointer(d, 3) == "");
  CHECK(instantiationPointer(d, 4) == "");

  // A named instantiation keeps its name's pointer even when unused.
  d.dictionaries.clear();
  CHECK(instantiationPointer(d, 0) == "/instantiations/List~1Of~0Int");
  CHECK(instantiationPointer(d, 1) == "");
}

}  // namespace gdmap
