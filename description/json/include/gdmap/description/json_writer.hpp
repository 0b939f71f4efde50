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
// Text inside nested containers waits in the writer (under a kilobyte)
// and goes to the string in one append: the string is complete whenever
// the writer is at the top level or between the members of the outermost
// container, and when the writer ends; so that a member costs no append
// of its own (a description has millions).
//
// Keys are written as given (the formats' keys, from their key tables,
// need no escaping); stringKey() escapes one. Strings are escaped by
// gdmap::appendJsonString, so any bytes give valid JSON. No JSON library.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>

#include <array>
#include <bit>
#include <charconv>
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
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;
  ~JsonWriter() { flush(); }

  GDMAP_JSON_HOT void beginObject(Layout layout = Layout::Lines) { open('{', layout); }
  GDMAP_JSON_HOT void endObject() { close('}'); }
  GDMAP_JSON_HOT void beginArray(Layout layout = Layout::Lines) { open('[', layout); }
  GDMAP_JSON_HOT void endArray() { close(']'); }
  // Continues inside a container opened by an earlier writer over the same
  // text (a description written in pieces): `any` says whether it already
  // has a member or element.
  void resume(Layout layout, bool any) {
    push(layout);
    frames_[depth_].any = any;
  }

  // A member's key, written as given; its value follows.
  GDMAP_JSON_HOT void key(std::string_view name) {
    if (name.size() > kShortKey) return longKey(name);
    char* text = stage_ + staged_;
    std::size_t n = separatorInto(text);
    text[n++] = '"';
    std::memcpy(text + n, name.data(), name.size());
    n += name.size();
    text[n++] = '"';
    text[n++] = ':';
    text[n++] = ' ';
    staged_ += n;
    afterKey_ = true;
    keepRoom();
  }
  // A member whose value is a number (a method has a line of them a bound).
  GDMAP_JSON_HOT void member(std::string_view name, std::uint64_t value) {
    key(name);
    number(value);
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
  GDMAP_JSON_HOT void plainString(std::string_view text) {
    if (text.size() > kShortKey) return longPlainString(text);
    char* at = stage_ + staged_;
    std::size_t n = separatorInto(at);
    at[n++] = '"';
    std::memcpy(at + n, text.data(), text.size());
    n += text.size();
    at[n++] = '"';
    done(n);
  }
  GDMAP_JSON_HOT void number(std::uint64_t value) {
    char* at = stage_ + staged_;
    const std::size_t n = separatorInto(at);
    done(n + static_cast<std::size_t>(std::to_chars(at + n, at + n + 20, value).ptr - (at + n)));
  }
  GDMAP_JSON_HOT void boolean(bool value) { word(value ? std::string_view("true") : std::string_view("false")); }
  void null() { word("null"); }
  // "0x0000001c" (hex32), "0x1c" (shortHex), "1c00" (the bytes' hex).
  GDMAP_JSON_HOT void hex32(std::uint32_t value) {
    char* at = stage_ + staged_;
    std::size_t n = separatorInto(at);
    at[n++] = '"';
    at[n++] = '0';
    at[n++] = 'x';
    hex32Into(at + n, value);
    at[n + 8] = '"';
    done(n + 9);
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
  // The separators of all but deep levels (",\n" and seven levels).
  static constexpr std::size_t kShortSeparator = 16;
  // What one call may add to the staged text: a separator copied whole,
  // then at most a quoted short key or string and ": " (or 20 digits).
  static constexpr std::size_t kRoom = kMaxSeparator + kShortKey + 4;
  static constexpr std::size_t kStage = 8 * kRoom;
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
  // member or element, before the others, and before its closing bracket
  // when it has any (a line break and the outer indentation, a space, or
  // nothing), so that no call asks for the layout again.
  struct Frame {
    const char* first;
    const char* next;
    const char* last;
    std::uint8_t firstSize;
    std::uint8_t nextSize;
    std::uint8_t lastSize;
    bool any;
  };

  // What comes before a value or key, copied to `text` (room for
  // kMaxSeparator): nothing after a key; else the container's separator.
  // Returns its size.
  GDMAP_JSON_HOT std::size_t separatorInto(char* text) {
    if (afterKey_) {
      afterKey_ = false;
      return 0;
    }
    Frame& f = frames_[depth_];
    const std::size_t n = f.any ? f.nextSize : f.firstSize;
    copySeparator(text, f.any ? f.next : f.first, n);
    f.any = true;
    return n;
  }
  // `n` bytes of a separator: a copy of fixed size, a longer one for the
  // indentation of a deep level.
  GDMAP_JSON_HOT static void copySeparator(char* text, const char* separator, std::size_t n) {
    std::memcpy(text, separator, kShortSeparator);
    if (n > kShortSeparator) [[unlikely]]
      std::memcpy(text + kShortSeparator, separator + kShortSeparator, kMaxSeparator - kShortSeparator);
  }
  // The staged text and a value's separator go to the string, for a
  // value appended there next.
  GDMAP_JSON_HOT void separate() {
    const std::size_t n = separatorInto(stage_ + staged_);
    if (staged_ + n != 0) send(n);
  }
  // The staged text, with the `n` bytes just written after it, goes to the
  // string in one append.
  GDMAP_JSON_HOT void send(std::size_t n) {
    const std::size_t total = staged_ + n;
    staged_ = 0;
    // ", " between the elements of a line (type lists): a copy of known size.
    if (total == 2) out_.append(stage_, 2);
    else out_.append(stage_, total);
  }
  void flush() {
    if (staged_ != 0) send(0);
  }
  // A value's (or a closing bracket's) `n` bytes written after the staged
  // text: they wait, unless the writer is back in the outermost container
  // or the stage is near full.
  GDMAP_JSON_HOT void done(std::size_t n) {
    staged_ += n;
    if (depth_ <= 1 || staged_ > kStage - kRoom) send(0);
  }
  // Room for the next call's text (deep containers opened one in another).
  GDMAP_JSON_HOT void keepRoom() {
    if (staged_ > kStage - kRoom) flush();
  }
  // In line, so that a layout the caller names is resolved where it calls.
  GDMAP_JSON_HOT void push(Layout layout) {
    Frame& f = frames_[++depth_];
    switch (layout) {
      case Layout::Lines:
        f = Frame{kBreak + 1,
                  kBreak,
                  kBreak + 1,
                  static_cast<std::uint8_t>(1 + 2 * depth_),
                  static_cast<std::uint8_t>(2 + 2 * depth_),
                  static_cast<std::uint8_t>(2 * depth_ - 1),
                  false};
        break;
      case Layout::Inline: f = Frame{kBreak, kComma, kBreak, 0, 2, 0, false}; break;
      case Layout::Spaced: f = Frame{kSpace, kComma, kSpace, 1, 2, 1, false}; break;
    }
  }
  GDMAP_JSON_HOT void open(char bracket, Layout layout) {
    char* text = stage_ + staged_;
    const std::size_t n = separatorInto(text);
    text[n] = bracket;
    staged_ += n + 1;
    keepRoom();
    push(layout);
  }
  GDMAP_JSON_HOT void close(char bracket) {
    const Frame& f = frames_[depth_--];
    char* text = stage_ + staged_;
    const std::size_t n = f.any ? f.lastSize : 0;
    copySeparator(text, f.last, n);
    text[n] = bracket;
    done(n + 1);
  }
  // A word (true, false, null) after its separator, in one append.
  GDMAP_JSON_HOT void word(std::string_view text) {
    char* at = stage_ + staged_;
    const std::size_t n = separatorInto(at);
    std::memcpy(at + n, text.data(), text.size());
    done(n + text.size());
  }
  // The 8 hex digits of `value` at `text`, most significant first: the
  // nibbles spread one a byte and made digits all at once.
  GDMAP_JSON_HOT static void hex32Into(char* text, std::uint32_t value) {
    if constexpr (std::endian::native == std::endian::little) {
      std::uint64_t x = value;
      x = ((x & 0xFFFF0000u) << 16) | (x & 0xFFFFu);
      x = ((x & 0x0000FF000000FF00u) << 8) | (x & 0x000000FF000000FFu);
      x = ((x & 0x00F000F000F000F0u) << 4) | (x & 0x000F000F000F000Fu);
      // Each byte a nibble, the lowest first: a letter where it is 10 or more.
      const std::uint64_t letters = ((x + 0x0606060606060606u) >> 4) & 0x0101010101010101u;
      x = __builtin_bswap64(x + 0x3030303030303030u + letters * ('a' - '9' - 1));
      std::memcpy(text, &x, 8);
    } else {
      for (int i = 0; i < 8; ++i) text[i] = hexDigit((value >> (28 - 4 * i)) & 0xF);
    }
  }
  void longKey(std::string_view name);
  void longPlainString(std::string_view text);
  void appendControlsEscaped(std::string_view text);

  std::string& out_;
  // frames_[0] is the top level, outside any container: no separator.
  std::array<Frame, kMaxDepth + 1> frames_{{{kBreak, kBreak, kBreak, 0, 0, 0, false}}};
  std::size_t depth_ = 0;
  bool afterKey_ = false;
  // Text not yet in the string: what was written inside nested containers
  // since the writer was last in the outermost one (at most kStage - kRoom
  // bytes between calls).
  std::size_t staged_ = 0;
  char stage_[kStage];
};

}  // namespace gdmap

// Only this header's members use it: no macro leaks to who includes it.
#undef GDMAP_JSON_HOT
