#pragma once
// What `hexdump` and `il hexdump` write alike for an annotated range: the
// mark of its status in the text dump, column padding, and the fields every
// range of their --json ends with.
#include <gdmap/description/json_writer.hpp>
#include <gdmap/reader/map_annotate.hpp>
#include <gdmap/schema/bytes.hpp>

#include <cstddef>

#include <string>
#include <string_view>

namespace gdmap::cli {

// ' ' ok, '?' unreachable, '~' warning, '!' error: the first column.
char rangeMark(RangeStatus status);

// How a text dump line starts: the mark, the byte offset in 8 hex digits,
// two spaces.
void appendLineStart(RangeStatus status, std::size_t offset, std::string& out);

// "0a 1b 2c": the bytes in hex, a space between two.
void appendHexBytes(ByteSpan bytes, std::string& out);

// The columns of a text dump, fitted to its ranges: the bytes (at most
// kBytesPerLine a line) as wide as the widest line, the field as the
// widest (a field of more than 40 characters pushes its meaning along).
struct DumpColumns {
  static constexpr std::size_t kBytesPerLine = 16;
  std::size_t longest = 4;  // bytes on the widest line
  std::size_t path = 5;     // characters of the widest field
  // Widened for a range of `bytes` bytes whose field is `pathSize` long.
  void fit(std::size_t bytes, std::size_t pathSize);
  // The header line: `lead` (the titles of the columns before the bytes,
  // as wide as those columns), "bytes", "field" and "meaning".
  std::string header(std::string_view lead) const;
  // A line from its bytes on (the line starts at out[lineStart]): the
  // bytes, then on a range's first line its field, meaning and the rule of
  // a marked range; no trailing blanks, a newline.
  void appendLineEnd(ByteSpan bytes, bool first, std::size_t lineStart, std::string_view path, std::string_view meaning,
                     std::string_view rule, std::string& out) const;
  std::size_t bytesWidth() const { return 3 * longest - 1; }
};

// The text of a dump goes to stdout in pieces of 64 KiB, so that a dump of
// any size holds one piece at a time: written once it is that long.
void writeIfFull(std::string& text);
// The rest, at the end; false when stdout could not be written.
bool writeRest(std::string& text);

// Spaces after out[from..] until it is `width` long.
void padColumn(std::string& out, std::size_t from, std::size_t width);

// Meaning, the bytes in hex, status, and the rule and message of a problem
// there, when there is one: members of a range's object.
void writeRangeTail(JsonWriter& w, std::string_view meaning, ByteSpan bytes, std::string_view status,
                    std::string_view rule, std::string_view message);

}  // namespace gdmap::cli
