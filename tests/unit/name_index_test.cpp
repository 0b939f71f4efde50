// NameIndex: instantiation names to their index, in one flat table.
#include "description/map/name_index.hpp"

#include <doctest/doctest.h>

#include <string>

using gdmap::description::NameIndex;

namespace {
// "n17". Appended, not "n" + ...: g++ 12 warns falsely (-Wrestrict) on
// a literal plus a temporary string.
std::string nameOf(int i) {
  std::string name = "n";
  name += std::to_string(i);
  return name;
}
}  // namespace

TEST_CASE("name index: names get the indexes they were added with, through growth") {
  NameIndex names;
  CHECK_FALSE(names.find("n0"));
  for (int i = 0; i < 20000; ++i) REQUIRE(names.add(nameOf(i)));
  CHECK(names.size() == 20000);
  for (int i = 0; i < 20000; ++i) {
    const auto found = names.find(nameOf(i));
    REQUIRE(found);
    CHECK(*found == static_cast<std::size_t>(i));
  }
  CHECK_FALSE(names.find("n20000"));
  CHECK_FALSE(names.find("n"));
  // A name given twice keeps its first index.
  CHECK_FALSE(names.add("n7"));
  CHECK(*names.find("n7") == 7);
  CHECK(names.size() == 20000);
  // The empty name is a name like any other.
  CHECK(names.add(""));
  CHECK(*names.find("") == 20000);
}
