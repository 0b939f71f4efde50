#pragma once
// A second, independent answer to "where in this JSON text is the value a
// JSON pointer names?", for checking the description's diagnostics: a small
// recursive scanner that records, for every value, its pointer (RFC 6901)
// and its byte span, key included for an object member. Every member with a
// repeated key is recorded, so a pointer may have several spans.
//
// For the fuzz target only: it trusts the text to be JSON that nlohmann
// accepted (it gives up, returning false, on anything else or on nesting
// deeper than kMaxDepth).
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gdmap::fuzz {

struct JsonSpan {
  std::size_t begin = 0;  // the member's key when it has one, else the value
  std::size_t end = 0;    // one past the value
};

class JsonSpans {
 public:
  static constexpr int kMaxDepth = 200;

  bool scan(std::string_view text) {
    text_ = text;
    pos_ = 0;
    spans_.clear();
    std::string pointer;
    skipSpace();
    if (!value(pointer, pos_, 0)) return false;
    skipSpace();
    return pos_ == text_.size();
  }

  // Whether `offset` lies in a span of `pointer`.
  bool contains(const std::string& pointer, std::size_t offset) const {
    auto [first, last] = spans_.equal_range(pointer);
    for (auto it = first; it != last; ++it)
      if (offset >= it->second.begin && offset < it->second.end) return true;
    return false;
  }
  bool has(const std::string& pointer) const { return spans_.count(pointer) != 0; }

 private:
  bool value(std::string& pointer, std::size_t begin, int depth) {
    if (depth > kMaxDepth || pos_ >= text_.size()) return false;
    const char c = text_[pos_];
    bool ok = false;
    if (c == '{') {
      ok = object(pointer, depth);
    } else if (c == '[') {
      ok = array(pointer, depth);
    } else if (c == '"') {
      std::string ignored;
      ok = string(ignored);
    } else {
      while (pos_ < text_.size() && std::string_view(",]} \t\r\n").find(text_[pos_]) == std::string_view::npos) ++pos_;
      ok = true;
    }
    if (ok) spans_.emplace(pointer, JsonSpan{begin, pos_});
    return ok;
  }

  bool object(std::string& pointer, int depth) {
    ++pos_;
    skipSpace();
    if (peek('}')) return ++pos_, true;
    for (;;) {
      skipSpace();
      const std::size_t keyStart = pos_;
      std::string key;
      if (!peek('"') || !string(key)) return false;
      skipSpace();
      if (!peek(':')) return false;
      ++pos_;
      skipSpace();
      const std::size_t size = pointer.size();
      pointer += '/';
      appendEscaped(key, pointer);
      const bool ok = value(pointer, keyStart, depth + 1);
      pointer.resize(size);
      if (!ok) return false;
      skipSpace();
      if (peek(',')) {
        ++pos_;
        continue;
      }
      if (peek('}')) return ++pos_, true;
      return false;
    }
  }

  bool array(std::string& pointer, int depth) {
    ++pos_;
    skipSpace();
    if (peek(']')) return ++pos_, true;
    for (std::size_t index = 0;; ++index) {
      skipSpace();
      const std::size_t size = pointer.size();
      pointer += '/';
      pointer += std::to_string(index);
      const bool ok = value(pointer, pos_, depth + 1);
      pointer.resize(size);
      if (!ok) return false;
      skipSpace();
      if (peek(',')) {
        ++pos_;
        continue;
      }
      if (peek(']')) return ++pos_, true;
      return false;
    }
  }

  // A string at text_[pos_] == '"', decoded to UTF-8.
  bool string(std::string& out) {
    ++pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) return false;
      const char e = text_[pos_++];
      switch (e) {
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!hex4(cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && pos_ + 1 < text_.size() && text_[pos_] == '\\' && text_[pos_ + 1] == 'u') {
            pos_ += 2;
            std::uint32_t low = 0;
            if (!hex4(low)) return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          appendUtf8(cp, out);
          break;
        }
        default: out += e; break;  // \" \\ \/
      }
    }
    return false;
  }

  bool hex4(std::uint32_t& value) {
    if (text_.size() - pos_ < 4) return false;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[pos_++];
      const int digit = c >= '0' && c <= '9'   ? c - '0'
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                               : -1;
      if (digit < 0) return false;
      value = value << 4 | static_cast<std::uint32_t>(digit);
    }
    return true;
  }

  static void appendUtf8(std::uint32_t cp, std::string& out) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | cp >> 6);
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | cp >> 12);
      out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | cp >> 18);
      out += static_cast<char>(0x80 | (cp >> 12 & 0x3F));
      out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  // RFC 6901: '~' as "~0", '/' as "~1".
  static void appendEscaped(const std::string& token, std::string& out) {
    for (char c : token) {
      if (c == '~') {
        out += "~0";
      } else if (c == '/') {
        out += "~1";
      } else {
        out += c;
      }
    }
  }

  bool peek(char c) const { return pos_ < text_.size() && text_[pos_] == c; }
  void skipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::multimap<std::string, JsonSpan> spans_;
};

}  // namespace gdmap::fuzz
