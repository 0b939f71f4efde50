#pragma once
// Internal to the type-text parser: a read position in the text and the
// lexical pieces of the ILAsm type syntax (words, numbers, tokens, `...`).
// The parser works on characters rather than a token stream so that `>>`
// closes two generic levels and `0...4` splits into number, `...`, number
// without any special cases.
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/type_names.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace gdmap::type_text {

inline bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool isWordStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
inline bool isWordChar(char c) { return isWordStart(c) || isDigit(c); }

// Joins the pieces of a message into one string. Messages are built with
// this rather than `"literal" + std::string&&`: g++ 12 at -O2 inlines that
// operator+ into an insert at position 0 and then reports a bogus
// -Wrestrict / -Wstringop-overread on it, which breaks -Werror builds.
inline std::string concat(std::initializer_list<std::string_view> pieces) {
  std::size_t size = 0;
  for (const std::string_view piece : pieces) size += piece.size();
  std::string out;
  out.reserve(size);
  for (const std::string_view piece : pieces) out += piece;
  return out;
}

// Outcome of reading a number: absent (no digits here), too large for the
// caller's limit, or a value.
enum class NumberRead { Absent, TooLarge, Ok };

class TextCursor {
 public:
  explicit TextCursor(std::string_view text) : text_(text) {}

  // Every lexeme may be preceded by white space, so each query skips it
  // first; offset() is then where the next lexeme starts.
  std::size_t offset() {
    skipSpace();
    return pos_;
  }
  bool atEnd() { return offset() == text_.size(); }
  // A type name (type_names.hpp) at the next lexeme: its text, consumed;
  // empty, consuming nothing, when none starts there.
  std::string_view tryTypeName() {
    const std::size_t at = offset();
    const std::size_t end = typeNameEnd(text_, at);
    pos_ = end;
    return text_.substr(at, end - at);
  }
  // The next character, '\0' at the end.
  char peek() { return atEnd() ? '\0' : text_[pos_]; }

  bool tryChar(char c) {
    if (atEnd() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  // A run of punctuation such as "..." or "!!".
  bool tryString(std::string_view s) {
    skipSpace();
    if (text_.substr(pos_, s.size()) != s) return false;
    pos_ += s.size();
    return true;
  }

  // The word (letters, digits, '_', starting with a letter or '_') at the
  // read position, without consuming it; empty when there is none.
  std::string_view peekWord() {
    skipSpace();
    std::size_t end = pos_;
    if (end < text_.size() && isWordStart(text_[end])) {
      while (end < text_.size() && isWordChar(text_[end])) ++end;
    }
    return text_.substr(pos_, end - pos_);
  }
  bool tryWord(std::string_view word) {
    if (peekWord() != word) return false;
    pos_ += word.size();
    return true;
  }

  // Whether the character after the next one (white space skipped on both
  // sides) is `c`: tells the `*` that opens a function pointer's parameter
  // list (`*(`) from a pointer `*`.
  bool secondIs(char c) {
    skipSpace();
    std::size_t p = pos_ + 1;
    while (p < text_.size() && isSpace(text_[p])) ++p;
    return p < text_.size() && text_[p] == c;
  }

  // Unsigned decimal digits, value at most `max`. Digits past the limit are
  // still consumed so the error can point at the number's start.
  NumberRead readDecimal(std::uint64_t max, std::uint64_t& value) {
    skipSpace();
    if (pos_ >= text_.size() || !isDigit(text_[pos_])) return NumberRead::Absent;
    std::uint64_t v = 0;
    bool tooLarge = false;
    while (pos_ < text_.size() && isDigit(text_[pos_])) {
      if (!tooLarge) {
        v = v * 10 + static_cast<std::uint64_t>(text_[pos_] - '0');
        if (v > max) tooLarge = true;
      }
      ++pos_;
    }
    value = v;
    return tooLarge ? NumberRead::TooLarge : NumberRead::Ok;
  }

  // An optional '-' directly followed by decimal digits; |value| ≤ maxMagnitude.
  NumberRead readSigned(std::uint64_t maxMagnitude, std::int64_t& value) {
    skipSpace();
    const std::size_t start = pos_;
    const bool negative = pos_ < text_.size() && text_[pos_] == '-';
    if (negative) {
      // The sign belongs to the number only when a digit follows it directly.
      if (pos_ + 1 >= text_.size() || !isDigit(text_[pos_ + 1])) return NumberRead::Absent;
      ++pos_;
    }
    std::uint64_t magnitude = 0;
    const NumberRead r = readDecimal(maxMagnitude, magnitude);
    if (r == NumberRead::Absent) {
      pos_ = start;
      return r;
    }
    value = negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
    return r;
  }

  // `0x` followed by 1-8 hex digits and no further word character. On
  // failure nothing is consumed.
  bool readToken(std::uint32_t& value) {
    skipSpace();
    std::size_t p = pos_;
    if (p + 1 >= text_.size() || text_[p] != '0' || (text_[p + 1] != 'x' && text_[p + 1] != 'X')) return false;
    p += 2;
    std::uint32_t v = 0;
    std::size_t digits = 0;
    while (p < text_.size() && hexDigitValue(text_[p]) >= 0) {
      v = (v << 4) | static_cast<std::uint32_t>(hexDigitValue(text_[p]));
      ++p;
      ++digits;
    }
    if (digits == 0 || digits > 8 || (p < text_.size() && isWordChar(text_[p]))) return false;
    value = v;
    pos_ = p;
    return true;
  }

  // What stands at the read position, for "found ..." in messages: the
  // word, number or character in quotes (at most kMaxQuotedBytes of a long
  // word, then "..."; bytes that are not printable are escaped), or "the end
  // of the text". Bounded whatever the input: a 200 MB word is not echoed.
  std::string describeNext() {
    skipSpace();
    if (pos_ >= text_.size()) return "the end of the text";
    std::size_t end = pos_ + 1;
    if (isWordChar(text_[pos_])) {
      // One past the quote limit, so that quoteInput sees the cut.
      while (end < text_.size() && isWordChar(text_[end]) && end - pos_ <= kMaxQuotedBytes) ++end;
    }
    return quoteInput(text_.substr(pos_, end - pos_));
  }

 private:
  void skipSpace() {
    while (pos_ < text_.size() && isSpace(text_[pos_])) ++pos_;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace gdmap::type_text
