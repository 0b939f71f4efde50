#pragma once
// What `hexdump` and `il hexdump` write alike for an annotated range: the
// mark of its status in the text dump, column padding, and the fields every
// range of their --json ends with.
#include <gdmap/reader/map_annotate.hpp>
#include <gdmap/schema/bytes.hpp>

#include <cstddef>

#include <string>
#include <string_view>

namespace gdmap::cli {

// ' ' ok, '?' unreachable, '~' warning, '!' error: the first column.
char rangeMark(RangeStatus status);

// Spaces after out[from..] until it is `width` long.
void padColumn(std::string& out, std::size_t from, std::size_t width);

// Meaning, the bytes in hex, status, and the rule and message of a problem
// there, when there is one; then the closing brace.
void appendRangeTail(std::string_view meaning, ByteSpan bytes, std::string_view status, std::string_view rule,
                     std::string_view message, std::string& out);

}  // namespace gdmap::cli
