#pragma once
// The 1-based line and column of the first `needle` in a JSON text (plus
// `extra` bytes), counted here by hand: an independent check of the
// positions the description readers report.
#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <utility>

namespace gdmap::test {

inline std::pair<std::size_t, std::size_t> where(const std::string& text, const std::string& needle,
                                                 std::size_t extra = 0) {
  const std::size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < at + extra; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

}  // namespace gdmap::test
