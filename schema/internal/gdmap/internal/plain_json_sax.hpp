#pragma once
// A SAX parser for plain JSON: the text descriptions are in practice
// (printable ASCII, no backslash), at several times the speed of
// nlohmann's, whose lexer copies every character of every string into a
// buffer one at a time and validates UTF-8 a byte at a time.
//
// It gives a handler exactly the events nlohmann's SAX parser gives (the
// same interface: start_object(npos), key(std::string&), number_unsigned,
// ...; strings and keys as views of the text to a handler that takes
// them), with comments ignored as nlohmann's ignore_comments does, and
// accepts exactly the texts nlohmann accepts among plain ones; tests and
// the fuzz target fuzz_plain_json compare the two event by event. It does
// not word errors: on invalid text it returns false, and the caller asks
// nlohmann's parser for its message (runSax in sax_reader.hpp), so a
// syntax error reads the same whichever parser found it.
//
// Shared by description/ (text descriptions) and reader/runtime (the
// runtime contract descriptor's JSON); no JSON library in this header.
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::internal {

// A handler that takes strings and keys as views: it is given views of the
// text itself, with no copy (the view is valid while the text is; a
// handler that keeps one copies it).
template <typename Handler>
concept TakesStringViews = requires(Handler& h, std::string_view v) {
  h.string(v);
  h.key(v);
};

// Whether the plain parser may read `text`: printable ASCII, tab, line
// feed and carriage return only, and no backslash (no escapes to decode, no
// UTF-8 to validate). Anything else goes to nlohmann.
bool isPlainJson(std::string_view text);

template <typename Handler>
class PlainJsonParser {
 public:
  // `readTo` is kept at the end of the latest token, for the handler (the
  // position nlohmann's events carry no trace of).
  PlainJsonParser(std::string_view text, Handler& handler, const char*& readTo)
      : p_(text.data()), end_(text.data() + text.size()), handler_(handler), readTo_(readTo) {}

  // True when the text is one valid JSON value (between white space and
  // comments) and the handler took every event; false at the first error.
  // One loop over a stack of open containers, never recursion: nesting as
  // deep as the text allows costs a bit each, not a stack frame.
  bool parse() {
    bool valueNext = true;  // a value comes next (else: a ',' or a container's end)
    for (;;) {
      if (valueNext) {
        const Opened opened = value();
        if (opened == Opened::Error) return false;
        if (opened == Opened::Object) {
          stack_.push_back(1);
          if (!key()) return false;
          continue;
        }
        if (opened == Opened::Array) {
          stack_.push_back(0);
          continue;
        }
        valueNext = false;
      }
      if (stack_.empty()) break;
      if (!skipSpace() || p_ == end_) return false;
      const bool object = stack_.back() != 0;
      if (*p_ == ',') {
        ++p_;
        if (object && !key()) return false;
        valueNext = true;
        continue;
      }
      if (*p_ != (object ? '}' : ']')) return false;
      ++p_;
      readTo_ = p_;
      stack_.pop_back();
      if (!(object ? handler_.end_object() : handler_.end_array())) return false;
    }
    return skipSpace() && p_ == end_;
  }

 private:
  static constexpr std::size_t kUnknownSize = static_cast<std::size_t>(-1);

  // White space and comments, as nlohmann's scan() skips them before a
  // token: false for a comment that is not one. Between two tokens there
  // is mostly nothing or one space: that is told in line, the rest in a
  // call.
  bool skipSpace() {
    if (p_ != end_ && *p_ == ' ') ++p_;
    if (p_ != end_ && *p_ > ' ' && *p_ != '/') return true;
    return skipSpaceAndComments();
  }

  [[gnu::noinline]] bool skipSpaceAndComments() {
    for (;;) {
      while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
      if (p_ == end_ || *p_ != '/') return true;
      if (end_ - p_ < 2) return false;
      if (p_[1] == '/') {  // to the end of the line: \n, \r or the text's end
        p_ += 2;
        while (p_ != end_ && *p_ != '\n' && *p_ != '\r') ++p_;
        if (p_ != end_) ++p_;
      } else if (p_[1] == '*') {
        const char* close = nullptr;
        for (const char* s = p_ + 2; s + 1 < end_; ++s) {
          if (s[0] == '*' && s[1] == '/') {
            close = s;
            break;
          }
        }
        if (close == nullptr) return false;
        p_ = close + 2;
      } else {
        return false;
      }
    }
  }

  // A member's name and the ':' after it.
  bool key() {
    if (!skipSpace() || p_ == end_ || *p_ != '"' || !string()) return false;
    if (!handOver([this](auto& text) { return handler_.key(text); })) return false;
    if (!skipSpace() || p_ == end_ || *p_ != ':') return false;
    ++p_;
    return true;
  }

  // At the opening quote: the string, as string_. Plain text has no
  // backslash, so the string ends at the next quote; white space other
  // than ' ' is a control character, which a JSON string may not hold.
  // One scan finds whichever comes first, eight bytes at a time: the
  // strings of a description are short (keys, names, RVAs, types), too
  // short for memchr's set-up to pay.
  bool string() {
    const char* begin = ++p_;
    const char* s = begin;
    if constexpr (std::endian::native == std::endian::little) {
      constexpr std::uint64_t kOnes = 0x0101010101010101u;
      constexpr std::uint64_t kHighs = 0x8080808080808080u;
      while (end_ - s >= 8) {
        std::uint64_t word;
        std::memcpy(&word, s, sizeof word);
        // The classic tests for a zero byte (here: a quote) and a byte
        // below 0x20 (plain text has none at or above 0x80): the lowest
        // flagged byte is exact, which is the first in memory.
        const std::uint64_t quotes = word ^ (kOnes * '"');
        const std::uint64_t flagged = (((quotes - kOnes) & ~quotes) | ((word - kOnes * 0x20) & ~word)) & kHighs;
        if (flagged != 0) {
          s += std::countr_zero(flagged) / 8;
          break;
        }
        s += 8;
      }
    }
    while (s != end_ && *s != '"' && static_cast<unsigned char>(*s) >= 0x20) ++s;
    if (s == end_ || *s != '"') return false;
    string_ = std::string_view(begin, static_cast<std::size_t>(s - begin));
    p_ = s + 1;
    readTo_ = p_;
    return true;
  }

  // Gives string_ to `event`: as the view itself when the handler takes
  // views, else copied into buffer_ (nlohmann's interface: std::string&).
  template <typename Event>
  bool handOver(Event&& event) {
    if constexpr (TakesStringViews<Handler>) {
      return event(string_);
    } else {
      buffer_.assign(string_);
      return event(buffer_);
    }
  }

  // What value() read: a whole value, or the start of a container with
  // members to come (an empty container is a whole value).
  enum class Opened { Error, Value, Object, Array };

  Opened value() {
    if (!skipSpace() || p_ == end_) return Opened::Error;
    bool ok = false;
    switch (*p_) {
      case '{':
      case '[': {
        const bool object = *p_ == '{';
        ++p_;
        readTo_ = p_;
        if (!(object ? handler_.start_object(kUnknownSize) : handler_.start_array(kUnknownSize))) return Opened::Error;
        if (!skipSpace()) return Opened::Error;
        if (p_ == end_ || *p_ != (object ? '}' : ']')) return object ? Opened::Object : Opened::Array;
        ++p_;
        readTo_ = p_;
        ok = object ? handler_.end_object() : handler_.end_array();
        break;
      }
      case '"': ok = string() && handOver([this](auto& text) { return handler_.string(text); }); break;
      case 't': ok = literal("true") && handler_.boolean(true); break;
      case 'f': ok = literal("false") && handler_.boolean(false); break;
      case 'n': ok = literal("null") && handler_.null(); break;
      default: ok = number(); break;
    }
    return ok ? Opened::Value : Opened::Error;
  }

  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) return false;
    p_ += word.size();
    readTo_ = p_;
    return true;
  }

  static bool isDigit(const char* at, const char* end) { return at != end && *at >= '0' && *at <= '9'; }

  // RFC 8259's number; its value as nlohmann gives it: unsigned when it is
  // an integer without '-' that fits 64 bits, signed with '-' and fitting,
  // else a double, with the text as written.
  bool number() {
    const char* begin = p_;
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    if (!isDigit(p_, end_)) return false;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (isDigit(p_, end_)) ++p_;
    }
    bool integer = true;
    if (p_ != end_ && *p_ == '.') {
      integer = false;
      ++p_;
      if (!isDigit(p_, end_)) return false;
      while (isDigit(p_, end_)) ++p_;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      integer = false;
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (!isDigit(p_, end_)) return false;
      while (isDigit(p_, end_)) ++p_;
    }
    readTo_ = p_;
    // The usual integer, in line: at most 18 digits cannot overflow.
    const char* digits = begin + (negative ? 1 : 0);
    if (integer && p_ - digits <= 18) {
      std::uint64_t value = 0;
      for (const char* d = digits; d != p_; ++d) value = value * 10 + static_cast<std::uint64_t>(*d - '0');
      if (negative) return handler_.number_integer(-static_cast<std::int64_t>(value));
      return handler_.number_unsigned(value);
    }
    buffer_.assign(begin, p_);  // strtoull and strtod need the terminating NUL
    char* stop = nullptr;
    if (integer) {
      errno = 0;
      if (negative) {
        const long long value = std::strtoll(buffer_.c_str(), &stop, 10);
        if (errno == 0) return handler_.number_integer(static_cast<std::int64_t>(value));
      } else {
        const unsigned long long value = std::strtoull(buffer_.c_str(), &stop, 10);
        if (errno == 0) return handler_.number_unsigned(static_cast<std::uint64_t>(value));
      }
    }
    const double value = std::strtod(buffer_.c_str(), &stop);
    if (!std::isfinite(value)) return false;  // nlohmann: "number overflow"
    return handler_.number_float(value, buffer_);
  }

  const char* p_;
  const char* end_;
  Handler& handler_;
  const char*& readTo_;
  std::string_view string_;  // the latest string read
  std::string buffer_;
  // The open containers, 1 for an object: bytes, not std::vector<bool>,
  // whose bit arithmetic costs more than its memory saves at a push and a
  // pop for every object and array of the file.
  std::vector<std::uint8_t> stack_;
};

}  // namespace gdmap::internal
