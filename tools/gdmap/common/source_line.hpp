#pragma once
// The line of a text input a diagnostic points at, with a caret under the
// column, as compilers show a syntax error:
//      3 |   "rva": 0x10,
//        |          ^
// Bounded whatever the input: at most about kExcerptWidth characters of the
// line around the column, control bytes and broken UTF-8 shown as \xNN
// (a tab as one space), so the caret stays under the character.
#include <cstddef>
#include <string>
#include <string_view>

namespace gdmap::cli {

inline constexpr std::size_t kExcerptWidth = 120;

// The two lines (each ending in '\n') for byte `offset` of `text` on line
// `line` (1-based, as the diagnostic says; 0 leaves the number out).
std::string sourceExcerpt(std::string_view text, std::size_t offset, std::size_t line);

}  // namespace gdmap::cli
