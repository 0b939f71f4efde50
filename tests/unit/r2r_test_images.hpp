#pragma once
// What the ReadyToRun reader's tests share: the images of tests/data/r2r,
// reading one that must read or must fail, and patching a copy.
#include <gdmap/reader/r2r_image.hpp>
#include <gdmap/schema/hex.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>

namespace r2r_test {

// tests/data/r2r/`name`.
inline gdmap::Bytes readImage(const std::string& name) {
  std::ifstream in(std::string(GDMAP_SOURCE_DIR) + "/tests/data/r2r/" + name, std::ios::binary);
  REQUIRE(in.good());
  return gdmap::Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline gdmap::r2r::R2RImage parsed(const gdmap::Bytes& file) {
  auto image = gdmap::r2r::readR2RImage(file);
  REQUIRE_MESSAGE(image.ok(), image.error().message);
  return std::move(image).value();
}

// The error a corrupted copy gives (the copy must fail).
inline gdmap::Error errorOf(const gdmap::Bytes& file) {
  auto image = gdmap::r2r::readR2RImage(file);
  REQUIRE_FALSE(image.ok());
  return image.error();
}

// The body of `token`: its MethodDef body, or with `instantiated` its first instantiation.
inline const gdmap::r2r::MethodBody& methodAt(const gdmap::r2r::R2RImage& image, std::uint32_t token,
                                              bool instantiated = false) {
  for (const gdmap::r2r::MethodBody& m : image.methods) {
    if (m.token == token && m.instantiated == instantiated) return m;
  }
  FAIL("no method " << gdmap::hex32(token));
  return image.methods.front();
}

inline void put32(gdmap::Bytes& file, std::uint64_t at, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) file[static_cast<std::size_t>(at) + i] = static_cast<std::uint8_t>(value >> (8 * i));
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace r2r_test
