#pragma once
// Where text may be cut without splitting a UTF-8 character: the one test
// of a continuation byte that messages, quotes and excerpts use.
#include <cstddef>
#include <string_view>

namespace gdmap {

inline bool isUtf8Continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The last position at or before `at` where no character of `text` is split
// (at most text.size()).
inline std::size_t utf8BoundaryBefore(std::string_view text, std::size_t at) {
  if (at >= text.size()) return text.size();
  while (at > 0 && isUtf8Continuation(text[at])) --at;
  return at;
}

// The first position at or after `at` where no character of `text` is split.
inline std::size_t utf8BoundaryAfter(std::string_view text, std::size_t at) {
  while (at < text.size() && isUtf8Continuation(text[at])) ++at;
  return at;
}

}  // namespace gdmap
