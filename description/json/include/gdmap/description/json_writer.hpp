#pragma once
// The one JSON writer of gdmap: descriptions (both formats) and the CLI's
// --json reports are written through it. It streams: each call appends to
// a std::string its owner holds, and the owner flushes that string when it
// likes (clearing it; the writer keeps only the stack of open containers).
// The layout of each container is the caller's choice, so that one writer
// gives each output its established spacing:
//
//   Lines   {\n  "a": 1,\n  "b": [\n    2\n  ]\n}   one member a line,
//           indented two spaces a level; empty: {} or []
//   Inline  {"a": "0x10", "b": ["int32"]}          empty: {} or []
//   Spaced  { "a": 0, "b": 3 }                     empty: {}
//
// Keys are written as given (the formats' keys, from their key tables,
// need no escaping); stringKey() escapes one. Strings are escaped by
// gdmap::appendJsonString, so any bytes give valid JSON. No JSON library.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

// Forced in line where it counts (a description writes millions of keys),
// left to the compiler in unoptimised builds (which keep the symbols).
#if defined(__OPTIMIZE__)
#define GDMAP_JSON_HOT [[gnu::always_inline]]
#else
#define GDMAP_JSON_HOT
#endif

namespace gdmap {

class JsonWriter {
 public:
  enum class Layout : std::uint8_t { Lines, Inline, Spaced };
  // How a string's characters are escaped: Standard is appendJsonString's
  // (\n, \t, ..., U+FFFD for a byte that starts no UTF-8 character);
  // Controls escapes only '"', '\\' and control characters (as \u00XX) and
  // writes every other byte as it is (the IL format's type arguments).
  enum class Escape : std::uint8_t { Standard, Controls };

  explicit JsonWriter(std::string& out) : out_(out) {}

  void beginObject(Layout layout = Layout::Lines) { open('{', layout); }
  void endObject() { close('}'); }
  void beginArray(Layout layout = Layout::Lines) { open('[', layout); }
  void endArray() { close(']'); }
  // Continues inside a container opened by an earlier writer over the same
  // text (a description written in pieces): `any` says whether it already
  // has a member or element.
  void resume(Layout layout, bool any) {
    push(layout);
    frames_[depth_].any = any;
  }

  // A member's key, written as given; its value follows. The separator,
  // the quoted key and ": " go in one append (a description has millions).
  GDMAP_JSON_HOT void key(std::string_view name) {
    char text[kShortKey + kMaxSeparator + 4];
    if (name.size() > kShortKey) return longKey(name);
    std::size_t n = separatorInto(text);
    text[n++] = '"';
    std::memcpy(text + n, name.data(), name.size());
    n += name.size();
    std::memcpy(text + n, "\": ", 3);
    out_.append(text, n + 3);
    afterKey_ = true;
  }
  // A member whose value is a number, in one append (a method has a line
  // of them a bound).
  GDMAP_JSON_HOT void member(std::string_view name, std::uint64_t value) {
    if (name.size() > kShortKey) {
      longKey(name);
      return number(value);
    }
    char text[kShortKey + kMaxSeparator + 4 + 20];
    std::size_t n = separatorInto(text);
    text[n++] = '"';
    std::memcpy(text + n, name.data(), name.size());
    n += name.size();
    std::memcpy(text + n, "\": ", 3);
    n += 3;
    n += digitsInto(text + n, value);
    out_.append(text, n);
  }
  // A member's key that may need escaping (text from the input).
  void stringKey(std::string_view text) {
    separate();
    appendJsonString(text, out_);
    out_ += ": ";
    afterKey_ = true;
  }

  void string(std::string_view text, Escape escape = Escape::Standard) {
    separate();
    if (escape == Escape::Standard) appendJsonString(text, out_);
    else appendControlsEscaped(text);
  }
  // A string that needs no escaping (hex digits, names of the code's own).
  void plainString(std::string_view text) {
    separate();
    out_ += '"';
    out_ += text;
    out_ += '"';
  }
  void number(std::uint64_t value) {
    char text[kMaxSeparator + 20];
    std::size_t n = separatorInto(text);
    n += digitsInto(text + n, value);
    out_.append(text, n);
  }
  void boolean(bool value) {
    separate();
    out_ += value ? "true" : "false";
  }
  void null() {
    separate();
    out_ += "null";
  }
  // "0x0000001c" (hex32), "0x1c" (shortHex), "1c00" (the bytes' hex).
  GDMAP_JSON_HOT void hex32(std::uint32_t value) {
    char text[kMaxSeparator + 12];
    std::size_t n = separatorInto(text);
    text[n++] = '"';
    text[n++] = '0';
    text[n++] = 'x';
    for (int shift = 28; shift >= 0; shift -= 4) text[n++] = hexDigit((value >> shift) & 0xF);
    text[n++] = '"';
    out_.append(text, n);
  }
  void shortHex(std::uint64_t value) {
    separate();
    out_ += '"';
    appendShortHex(value, out_);
    out_ += '"';
  }
  void hexBytes(ByteSpan bytes) {
    separate();
    out_ += '"';
    appendHex(bytes, out_);
    out_ += '"';
  }
  // A value already written as JSON (nested lines indented by the caller).
  void raw(std::string_view json) {
    separate();
    out_ += json;
  }

 private:
  static constexpr std::size_t kMaxDepth = 31;
  static constexpr std::size_t kShortKey = 48;
  // ",\n" and the indentation of the deepest level.
  static constexpr std::size_t kMaxSeparator = 2 + 2 * kMaxDepth;
  // The separators, each followed by at least kMaxSeparator readable
  // bytes, so that one is copied with a copy of fixed size: ",\n" and the
  // indentation of the deepest level; ", "; " ".
  static constexpr char kBreak[] =
      ",\n                                                              "
      ",                                                                 ";
  static constexpr const char* kComma = kBreak + kMaxSeparator;
  static constexpr const char* kSpace = kBreak + kMaxSeparator + 1;
  static_assert(sizeof kBreak - 1 >= 2 * kMaxSeparator + 2);

  // A container's separators, worked out when it opens: before its first
  // member or element, and before the others.
  struct Frame {
    const char* first = kBreak;
    const char* next = kBreak;
    std::uint8_t firstSize = 0;
    std::uint8_t nextSize = 0;
    Layout layout = Layout::Lines;
    bool any = false;
  };

  // What comes before a value or key, copied to `text`: nothing after a
  // key; else the container's separator. Returns its size.
  GDMAP_JSON_HOT std::size_t separatorInto(char* text) {
    if (afterKey_) {
      afterKey_ = false;
      return 0;
    }
    Frame& f = frames_[depth_];
    const std::size_t n = f.any ? f.nextSize : f.firstSize;
    std::memcpy(text, f.any ? f.next : f.first, kMaxSeparator);
    f.any = true;
    return n;
  }
  GDMAP_JSON_HOT void separate() {
    if (afterKey_) {
      afterKey_ = false;
      return;
    }
    Frame& f = frames_[depth_];
    if (f.any) out_.append(f.next, f.nextSize);
    else if (f.firstSize != 0) out_.append(f.first, f.firstSize);
    f.any = true;
  }
  void push(Layout layout) {
    Frame& f = frames_[++depth_];
    f.layout = layout;
    f.any = false;
    switch (layout) {
      case Layout::Lines:
        f.first = kBreak + 1;
        f.next = kBreak;
        f.firstSize = static_cast<std::uint8_t>(1 + 2 * depth_);
        f.nextSize = static_cast<std::uint8_t>(2 + 2 * depth_);
        break;
      case Layout::Inline:
        f.first = kBreak;
        f.firstSize = 0;
        f.next = kComma;
        f.nextSize = 2;
        break;
      case Layout::Spaced:
        f.first = kSpace;
        f.firstSize = 1;
        f.next = kComma;
        f.nextSize = 2;
        break;
    }
  }
  void open(char bracket, Layout layout) {
    char text[kMaxSeparator + 1];
    std::size_t n = separatorInto(text);
    text[n++] = bracket;
    out_.append(text, n);
    push(layout);
  }
  void close(char bracket) {
    const Frame& f = frames_[depth_--];
    if (f.any && f.layout == Layout::Lines) out_.append(kBreak + 1, 1 + 2 * depth_);
    else if (f.any && f.layout == Layout::Spaced) out_ += ' ';
    out_ += bracket;
  }
  // The decimal digits of `value` at `text` (room for 20); their count.
  static std::size_t digitsInto(char* text, std::uint64_t value) {
    char digits[20];
    char* end = digits + sizeof digits;
    char* at = end;
    do {
      *--at = static_cast<char>('0' + value % 10);
      value /= 10;
    } while (value != 0);
    const auto n = static_cast<std::size_t>(end - at);
    std::memcpy(text, at, n);
    return n;
  }
  void longKey(std::string_view name);
  void appendControlsEscaped(std::string_view text);

  std::string& out_;
  // frames_[0] is the top level, outside any container: no separator.
  std::array<Frame, kMaxDepth + 1> frames_{};
  std::size_t depth_ = 0;
  bool afterKey_ = false;
};

}  // namespace gdmap
