// TypeBytesCache: the canonical bytes of type spellings, by spelling,
// bounded in entries.
#include "description/map/type_bytes_cache.hpp"

#include <doctest/doctest.h>

#include <string>

using gdmap::Bytes;
using gdmap::ByteSpan;
using gdmap::description::TypeBytesCache;

namespace {
Bytes bytesOf(const std::optional<ByteSpan>& s) { return s ? Bytes(s->begin(), s->end()) : Bytes{0xEE, 0xEE}; }
}  // namespace

TEST_CASE("type bytes cache: finds what was stored, through growth, and stops at its bound") {
  TypeBytesCache cache(5000);
  CHECK_FALSE(cache.find("int32"));
  for (int i = 0; i < 6000; ++i) {
    const std::string spelling = "class 0x0100" + std::to_string(i);
    cache.insert(spelling, Bytes{0x12, static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(i >> 8)});
  }
  CHECK(cache.size() == 5000);  // the bound
  for (int i = 0; i < 6000; ++i) {
    const std::string spelling = "class 0x0100" + std::to_string(i);
    CAPTURE(spelling);
    if (i < 5000)
      CHECK(bytesOf(cache.find(spelling)) ==
            Bytes{0x12, static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(i >> 8)});
    else CHECK_FALSE(cache.find(spelling));
  }
  // A prefix or an extension of a stored spelling is another spelling.
  CHECK_FALSE(cache.find("class 0x0100"));
  CHECK_FALSE(cache.find("class 0x01001 "));
}

TEST_CASE("type bytes cache: the empty spelling and empty bytes are entries like any other") {
  TypeBytesCache cache(10);
  cache.insert("", Bytes{0x08});
  cache.insert("x", Bytes{});
  CHECK(bytesOf(cache.find("")) == Bytes{0x08});
  REQUIRE(cache.find("x"));
  CHECK(cache.find("x")->empty());
  cache.insert("", Bytes{0x09});  // already present: kept as it was
  CHECK(bytesOf(cache.find("")) == Bytes{0x08});
  CHECK(cache.size() == 2);
  TypeBytesCache none(0);
  none.insert("int32", Bytes{0x08});
  CHECK_FALSE(none.find("int32"));
}
