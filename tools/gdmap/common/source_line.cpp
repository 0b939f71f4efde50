#include "common/source_line.hpp"

#include <gdmap/internal/utf8_boundary.hpp>
#include <gdmap/schema/hex.hpp>

#include <algorithm>
#include <cstdint>

namespace gdmap::cli {
namespace {

// The length of the well-formed UTF-8 sequence at text[i], or 0.
std::size_t utf8Length(std::string_view text, std::size_t i) {
  const auto b = static_cast<std::uint8_t>(text[i]);
  const std::size_t n = b >= 0xF0 && b < 0xF5 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 && b < 0xE0 ? 2 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if (!isUtf8Continuation(text[i + k])) return 0;
  return n;
}

// How many characters byte `b` takes shown (a continuation byte none: its
// character counted at its first byte); a guess for broken UTF-8.
std::size_t shownWidth(std::uint8_t b) {
  if (isUtf8Continuation(static_cast<char>(b))) return 0;
  return (b < 0x20 && b != '\t') || b == 0x7F ? 4 : 1;
}

}  // namespace

std::string sourceExcerpt(std::string_view text, std::size_t offset, std::size_t line) {
  offset = std::min(offset, text.size());
  const std::size_t lineStart = offset == 0 ? 0 : text.rfind('\n', offset - 1) + 1;  // npos + 1 == 0
  std::size_t lineEnd = std::min(text.find('\n', offset), text.size());
  if (lineEnd > lineStart && text[lineEnd - 1] == '\r' && offset < lineEnd) --lineEnd;

  // A window of the line around the offset, on character boundaries, about
  // kExcerptWidth characters wide as shown: half of it before the offset.
  std::size_t from = offset;
  for (std::size_t width = 0; from > lineStart && width < kExcerptWidth / 2;) {
    --from;
    width += shownWidth(static_cast<std::uint8_t>(text[from]));
  }
  while (from > lineStart && isUtf8Continuation(text[from])) --from;

  std::string shown = from > lineStart ? "..." : "";
  std::size_t caret = shown.size();  // characters shown before the offset
  std::size_t width = 0;
  std::size_t i = from;
  while (i < lineEnd && (width < kExcerptWidth || i <= offset)) {
    const auto b = static_cast<std::uint8_t>(text[i]);
    std::size_t w = 1;
    std::size_t bytes = 1;
    if (b == '\t') {
      shown += ' ';
    } else if (b >= 0x20 && b < 0x7F) {
      shown += static_cast<char>(b);
    } else if (const std::size_t n = b >= 0x80 ? utf8Length(text, i) : 0; n != 0 && i + n <= lineEnd) {
      shown.append(text.substr(i, n));
      bytes = n;
    } else {
      shown += "\\x";
      shown += hexDigit(b >> 4);
      shown += hexDigit(b);
      w = 4;
    }
    if (i < offset) caret += w;
    width += w;
    i += bytes;
  }
  if (i < lineEnd) shown += "...";

  const std::string number = line == 0 ? std::string() : std::to_string(line);
  const std::string gutter(std::max<std::size_t>(number.size(), 4), ' ');
  std::string out;
  out += gutter.substr(number.size()) + number + " | " + shown + '\n';
  out += gutter + " | " + std::string(caret, ' ') + "^\n";
  return out;
}

}  // namespace gdmap::cli
