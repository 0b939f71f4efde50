#include <gdmap/internal/json_locator.hpp>

#include <gdmap/internal/utf8_encode.hpp>

#include <gdmap/schema/hex.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <unordered_map>

namespace gdmap::json_location {
namespace {

// The pointers to find, as a trie of reference tokens, so that one walk of
// the document serves all of them. Member names and array indexes are kept
// apart: an array index must be looked up without formatting it as text for
// every element of a million-element array.
struct TrieNode {
  std::unordered_map<std::string, std::uint32_t> members;
  std::unordered_map<std::size_t, std::uint32_t> elements;
  std::vector<std::size_t> targets;  // indexes into the target list that end here
  // Targets that end at a member of this object given by its ordinal.
  std::unordered_map<std::size_t, std::vector<std::size_t>> memberTargets;
};

constexpr std::uint32_t kNoNode = UINT32_MAX;

std::string unescapeToken(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
      out += token[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      out += token[i];
    }
  }
  return out;
}

// An RFC 6901 array index: "0" or digits without a leading zero.
bool parseIndex(std::string_view token, std::size_t& index) {
  if (token.empty() || token.size() > 18) return false;
  if (token.size() > 1 && token[0] == '0') return false;
  index = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return false;
    index = index * 10 + static_cast<std::size_t>(c - '0');
  }
  return true;
}

class Trie {
 public:
  explicit Trie(const std::vector<Target>& targets) : nodes_(1) {
    for (std::size_t p = 0; p < targets.size(); ++p) {
      std::string_view rest = targets[p].pointer;
      // A pointer that does not start with '/' (other than "") names nothing.
      if (!rest.empty() && rest[0] != '/') continue;
      const bool byOrdinal = targets[p].member != npos;
      // By ordinal, the last token is replaced by the ordinal.
      if (byOrdinal) {
        if (rest.empty()) continue;
        rest = rest.substr(0, rest.rfind('/'));
      }
      std::uint32_t node = 0;
      while (!rest.empty()) {
        rest.remove_prefix(1);  // the '/'
        const std::size_t end = std::min(rest.find('/'), rest.size());
        const std::string token = unescapeToken(rest.substr(0, end));
        rest.remove_prefix(end);
        node = child(node, token);
      }
      if (byOrdinal) nodes_[node].memberTargets[targets[p].member].push_back(p);
      else nodes_[node].targets.push_back(p);
    }
  }

  const TrieNode& operator[](std::uint32_t node) const { return nodes_[node]; }

  // The node of the first member named `name`; kNoNode for a later one.
  std::uint32_t memberChild(std::uint32_t node, const std::string& name) {
    const auto it = nodes_[node].members.find(name);
    if (it == nodes_[node].members.end() || entered_[it->second]) return kNoNode;
    entered_[it->second] = true;
    return it->second;
  }
  const std::vector<std::size_t>* memberTargets(std::uint32_t node, std::size_t ordinal) const {
    const auto it = nodes_[node].memberTargets.find(ordinal);
    return it == nodes_[node].memberTargets.end() ? nullptr : &it->second;
  }
  std::uint32_t elementChild(std::uint32_t node, std::size_t index) const {
    const auto it = nodes_[node].elements.find(index);
    return it == nodes_[node].elements.end() ? kNoNode : it->second;
  }

 private:
  // A token may name a member or an element; the document decides which, so
  // it goes in both tables (under one child node).
  std::uint32_t child(std::uint32_t node, const std::string& token) {
    if (const auto it = nodes_[node].members.find(token); it != nodes_[node].members.end()) return it->second;
    const auto created = static_cast<std::uint32_t>(nodes_.size());
    nodes_.emplace_back();
    nodes_[node].members.emplace(token, created);
    if (std::size_t index = 0; parseIndex(token, index)) nodes_[node].elements.emplace(index, created);
    entered_.push_back(false);
    return created;
  }

  std::vector<TrieNode> nodes_;
  // Per node: whether the walk has entered a member value for it, so that
  // a later member with the same key is not taken for it.
  std::vector<bool> entered_ = std::vector<bool>(1, false);
};

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// What the escape \<letter> stands for (\" \\ \/ stand for their letter).
char escapedCharacter(char letter) {
  constexpr std::string_view kLetters = "bfnrt";
  constexpr std::string_view kCharacters = "\b\f\n\r\t";
  const std::size_t at = kLetters.find(letter);
  return at == std::string_view::npos ? letter : kCharacters[at];
}

// A forgiving cursor: reads '\0' past the end, so malformed text cannot make
// the scanner read out of bounds (it then finds nothing useful, but stops).
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  std::size_t pos = 0;

  bool atEnd() const { return pos >= text_.size(); }
  char peek() const { return atEnd() ? '\0' : text_[pos]; }
  // White space and comments: descriptions may carry // and /* */
  // comments (the parser is told to ignore them), which are white space
  // here too. An unterminated comment runs to the end.
  void skipSpace() {
    for (;;) {
      while (!atEnd() && isSpace(text_[pos])) ++pos;
      if (!skipComment()) return;
    }
  }
  // At "//" or "/*": moves past the comment and returns true.
  bool skipComment() {
    if (peek() != '/' || pos + 1 >= text_.size()) return false;
    const char kind = text_[pos + 1];
    if (kind == '/') {
      const std::size_t end = text_.find('\n', pos + 2);
      pos = end == std::string_view::npos ? text_.size() : end + 1;
      return true;
    }
    if (kind == '*') {
      const std::size_t end = text_.find("*/", pos + 2);
      pos = end == std::string_view::npos ? text_.size() : end + 2;
      return true;
    }
    return false;
  }

  // At an opening quote: moves past the closing quote.
  void skipString() {
    ++pos;
    while (!atEnd() && text_[pos] != '"') pos += text_[pos] == '\\' ? 2 : 1;
    if (!atEnd()) ++pos;
  }

  // At an opening quote: decodes the string and moves past it.
  std::string readString() {
    std::string out;
    ++pos;
    while (!atEnd() && text_[pos] != '"') {
      if (text_[pos] != '\\') {
        out += text_[pos++];
        continue;
      }
      const char e = pos + 1 < text_.size() ? text_[pos + 1] : '\0';
      pos += 2;
      if (e == 'u') appendUtf8(readUnicodeEscape(), out);
      else out += escapedCharacter(e);
    }
    if (!atEnd()) ++pos;
    return out;
  }

  // Any value: moves past it. Iterative, so nesting depth costs no stack.
  void skipValue() {
    const char c = peek();
    if (c == '"') return skipString();
    if (c != '{' && c != '[') {
      // A literal ends where white space, a comment or punctuation starts.
      while (!atEnd() && !isSpace(text_[pos]) && text_[pos] != ',' && text_[pos] != ']' && text_[pos] != '}' &&
             text_[pos] != '/')
        ++pos;
      return;
    }
    std::size_t depth = 0;
    while (!atEnd()) {
      const char d = text_[pos];
      if (d == '"') {
        skipString();
        continue;
      }
      if (d == '/' && skipComment()) continue;  // a comment may hold quotes and brackets
      ++pos;
      if (d == '{' || d == '[') ++depth;
      if ((d == '}' || d == ']') && --depth == 0) return;
    }
  }

 private:
  // After "\u": four hex digits, and a low surrogate's "\uXXXX" after a high one.
  std::uint32_t readUnicodeEscape() {
    std::uint32_t cp = readHex4();
    if (cp >= 0xD800 && cp < 0xDC00 && peekIs("\\u")) {
      const std::size_t save = pos;
      pos += 2;
      const std::uint32_t low = readHex4();
      if (low >= 0xDC00 && low < 0xE000) return 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      pos = save;
    }
    return cp;
  }
  std::uint32_t readHex4() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4 && !atEnd(); ++i, ++pos) {
      const char c = text_[pos];
      v <<= 4;
      // The parser accepted the text, so this is a hex digit.
      v |= static_cast<std::uint32_t>(hexDigitValue(c) & 0xF);
    }
    return v;
  }
  bool peekIs(std::string_view s) const { return text_.substr(std::min(pos, text_.size())).starts_with(s); }

  std::string_view text_;
};

// How many bytes the escape starting at text[pos] ('\\') decodes to, and how
// many raw characters it spans.
void measureEscape(std::string_view text, std::size_t pos, std::size_t& decoded, std::size_t& raw) {
  const char e = pos + 1 < text.size() ? text[pos + 1] : '\0';
  if (e != 'u') {
    decoded = 1;
    raw = 2;
    return;
  }
  auto hexAt = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = at; i < at + 4 && i < text.size(); ++i) {
      const char h = text[i];
      v = v << 4 | static_cast<std::uint32_t>(hexDigitValue(h) & 0xF);
    }
    return v;
  };
  const std::uint32_t cp = hexAt(pos + 2);
  raw = 6;
  if (cp >= 0xD800 && cp < 0xDC00 && text.substr(std::min(pos + 6, text.size())).starts_with("\\u")) {
    const std::uint32_t low = hexAt(pos + 8);
    if (low >= 0xDC00 && low < 0xE000) {
      raw = 12;
      decoded = 4;
      return;
    }
  }
  decoded = cp < 0x80 ? 1 : cp < 0x800 ? 2 : 3;
}

}  // namespace

std::vector<std::size_t> locatePointers(std::string_view text, const std::vector<Target>& targets,
                                        std::size_t* scanned) {
  std::vector<std::size_t> found(targets.size(), npos);
  Trie trie(targets);

  // One frame per open container that lies on the way to some target;
  // containers off every path are skipped whole.
  struct Frame {
    std::uint32_t node;
    bool object;
    std::size_t index;  // of the current element, or the ordinal of the current member
  };
  std::vector<Frame> stack;
  Cursor in(text);
  std::uint32_t pending = 0;                                   // trie node of the next value, or kNoNode
  const std::vector<std::size_t>* pendingByOrdinal = nullptr;  // targets found by member ordinal

  for (;;) {
    // A value.
    in.skipSpace();
    if (pendingByOrdinal != nullptr) {
      for (std::size_t target : *pendingByOrdinal) found[target] = in.pos;
      pendingByOrdinal = nullptr;
    }
    bool opened = false;
    if (pending == kNoNode) {
      in.skipValue();
    } else {
      for (std::size_t target : trie[pending].targets) found[target] = in.pos;
      const char c = in.peek();
      if (c == '{' || c == '[') {
        ++in.pos;
        stack.push_back({pending, c == '{', 0});
        in.skipSpace();
        opened = in.peek() != '}' && in.peek() != ']';
        if (!opened) {  // an empty container: its value is complete
          stack.pop_back();
          ++in.pos;
        }
      } else {
        in.skipValue();
      }
    }
    // After a value: close containers until one has a next member.
    while (!opened && !stack.empty()) {
      in.skipSpace();
      const char c = in.peek();
      ++in.pos;
      if (c == ',') {
        ++stack.back().index;
        opened = true;
      } else {
        stack.pop_back();  // '}' or ']' (or the end of malformed text)
        if (c == '\0') stack.clear();
      }
    }
    if (!opened) break;
    // The next member or element: find its trie node.
    Frame& top = stack.back();
    if (top.object) {
      in.skipSpace();
      if (in.peek() != '"') break;  // malformed text: give up
      pending = kNoNode;
      if (trie[top.node].members.empty()) {
        in.skipString();
      } else {
        pending = trie.memberChild(top.node, in.readString());
      }
      pendingByOrdinal = trie.memberTargets(top.node, top.index);
      in.skipSpace();
      if (in.peek() != ':') break;
      ++in.pos;
    } else {
      pending = trie.elementChild(top.node, top.index);
    }
  }
  if (scanned != nullptr) *scanned = std::min(in.pos, text.size());
  return found;
}

std::size_t valueAfterKey(std::string_view text, std::size_t keyEnd) {
  Cursor in(text);
  in.pos = std::min(keyEnd, text.size());
  in.skipSpace();
  if (in.peek() == ':') ++in.pos;
  in.skipSpace();
  return std::min(in.pos, text.size());
}

std::size_t stringCharacterOffset(std::string_view text, std::size_t quoteOffset, std::size_t decodedIndex) {
  std::size_t pos = quoteOffset + 1;
  std::size_t decoded = 0;
  while (pos < text.size() && text[pos] != '"') {
    std::size_t d = 1;
    std::size_t raw = 1;
    if (text[pos] == '\\') measureEscape(text, pos, d, raw);
    // The index falls inside (or at the start of) this character.
    if (decodedIndex < decoded + d) return pos;
    decoded += d;
    pos += raw;
  }
  return std::min(pos, text.size());
}

std::vector<LineColumn> lineColumns(std::string_view text, const std::vector<std::size_t>& offsets) {
  std::vector<std::size_t> order(offsets.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return offsets[a] < offsets[b]; });

  std::vector<LineColumn> out(offsets.size());
  std::size_t pos = 0;
  std::size_t line = 1;
  std::size_t lineStart = 0;
  std::size_t counted = 0;     // code points of the current line are counted up to here
  std::size_t codePoints = 0;  // on the current line, before `counted`
  for (std::size_t i : order) {
    const std::size_t target = std::min(offsets[i], text.size());
    // Lines by memchr (a diagnostic near the end of a large file is found
    // at memory speed), then code points on the target's line only.
    while (pos < target) {
      const void* newline = std::memchr(text.data() + pos, '\n', target - pos);
      if (newline == nullptr) {
        pos = target;
        break;
      }
      pos = static_cast<std::size_t>(static_cast<const char*>(newline) - text.data()) + 1;
      ++line;
      lineStart = pos;
    }
    if (counted < lineStart) {  // a new line: count from its start
      counted = lineStart;
      codePoints = 0;
    }
    for (; counted < target; ++counted)
      if ((static_cast<unsigned char>(text[counted]) & 0xC0) != 0x80) ++codePoints;  // not a UTF-8 continuation byte
    out[i] = {line, codePoints + 1};
  }
  return out;
}

}  // namespace gdmap::json_location
