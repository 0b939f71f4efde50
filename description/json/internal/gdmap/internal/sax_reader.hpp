#pragma once
// What the two SAX readers of descriptions (dictionary maps and IL-to-native
// maps) do alike, as a base each derives from: the stack of open
// containers and the Site over it, moving on after a value, reporting a
// problem at the current value, recording nlohmann's syntax error; and the
// parse call itself, with comments allowed and a syntax error reported
// alone; and the members of the format's objects, from its key table.
// `Role` is the reader's enum of what a value must be (it has a `Root` and
// an `Anything`); the derived reader supplies the SAX events that carry
// values, `wrongType(Role, const char* found)`, and its tables as
// `Derived::kKeys` (a KeyTable) and `Derived::kKeyedObjects`.
//
// Private to description/; includes nlohmann/json, unlike json_sax.hpp.
#include <gdmap/internal/description_diagnostics.hpp>
#include <gdmap/internal/json_sax.hpp>
#include <gdmap/internal/plain_json_sax.hpp>

#include <gdmap/schema/rules.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gdmap::description {

template <typename Derived, typename Role>
class SaxReader {
 public:
  using json = nlohmann::json;

  bool null() { return scalar("null"); }
  bool binary(json::binary_t&) { return scalar("binary data"); }
  bool parse_error(std::size_t position, const std::string& lastToken, const json::exception& e) {
    syntaxErrorAt(position, lastToken, e.what());
    return false;
  }
  // nlohmann's syntax error, as parse_error() gets it.
  void syntaxErrorAt(std::size_t position, const std::string& lastToken, const std::string& what) {
    // `position` counts the characters read, the offending one included.
    syntaxErrorOffset = position == 0 ? 0 : position - 1;
    syntaxError = syntaxErrorMessage(what, lastToken);
  }

  std::size_t syntaxErrorOffset = 0;
  std::string syntaxError;
  // How far the parser has read (runSax() keeps it current): where the
  // value of the latest event ends, give or take the one character a
  // number is followed by.
  const char* readTo = nullptr;
  const char* textBegin = nullptr;
  // Called with how many bytes of the text have been read, about every
  // kProgressStep bytes, at the end of an object (set by the caller).
  std::function<void(std::size_t)> onProgress;
  static constexpr std::size_t kProgressStep = std::size_t{4} << 20;

 protected:
  explicit SaxReader(DiagnosticList& diagnostics) : diagnostics_(diagnostics) {}

  Role expected() const { return frames_.empty() ? Role::Root : frames_.back().expect; }

  // A problem with the current value; `message` is called only when the
  // diagnostic is kept.
  template <typename Message>
  void error(const char* rule, Message&& message) {
    diagnostics_.error(rule, site_, std::forward<Message>(message));
  }

  // A value has ended: the container moves on to its next element.
  bool done() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
    return true;
  }

  // At the end of an object: tells onProgress when another step was read.
  void progressed() {
    const auto read = static_cast<std::size_t>(readTo - textBegin);
    if (read < nextProgress_ || !onProgress) return;
    nextProgress_ = read + kProgressStep;
    onProgress(read);
  }

  // A key has been read: the current object moves on to its next member.
  JsonFrame<Role>& nextMember() {
    JsonFrame<Role>& f = frames_.back();
    f.member = f.members++;
    return f;
  }

  // A key of one of the format's objects: what its value must be comes
  // from the key table; a key the object does not know, or one given
  // again, is reported and its value skipped. True for the first of one
  // of the object's alternative forms (the reader counts them).
  bool readKey(std::string_view name) {
    JsonFrame<Role>& f = frames_.back();
    constexpr const auto& keys = Derived::kKeys;
    static constexpr auto byRole = keysByRole<kMaxRoles>(keys);
    const std::size_t i = findKey(keys, byRole, f.role, name);
    if (i == keys.size()) {
      f.setKey(name);
      f.expect = Role::Anything;
      unknownKey(f);
      return false;
    }
    f.tableKey = keys[i].name;
    if (f.seen & keyBit(i)) {
      error(rules::kDuplicateKey, [&] { return "key " + quoteInput(f.keyText()) + " is given more than once"; });
      f.expect = Role::Anything;
      return false;
    }
    f.expect = keys[i].value;
    f.seen |= keyBit(i);
    return keys[i].use == KeyUse::Form;
  }

  // What an ended object leaves its reader: what it was and which keys it
  // had (the frame itself, with its key text, is gone).
  struct ClosedObject {
    Role role;
    KeyBits seen;
  };

  // Opens a container's frame in place (a frame is built and dropped for
  // every object and array of the file).
  void pushFrame(Role role, bool object, Role firstExpect = Role::Anything) {
    frames_.emplace_back(role, object, firstExpect);
  }

  // An object has ended: its frame taken off the stack, then its required
  // keys checked (the site is then the object).
  ClosedObject closeObject() {
    const ClosedObject closed{frames_.back().role, frames_.back().seen};
    frames_.pop_back();
    checkRequiredKeys(closed);
    return closed;
  }

  // The required keys of the object `closed` that were not given, in table
  // order.
  void checkRequiredKeys(const ClosedObject& closed) {
    static constexpr std::array<KeyBits, kMaxRoles> required = requiredKeyMasks<kMaxRoles>(Derived::kKeys);
    if (required[static_cast<std::size_t>(closed.role)] & ~closed.seen) [[unlikely]]
      reportMissingKeys(closed);
  }

  // A value of a JSON type the position does not take.
  bool scalar(const char* found) {
    static_cast<Derived*>(this)->wrongType(expected(), found);
    return done();
  }

  DiagnosticList& diagnostics_;
  std::vector<JsonFrame<Role>> frames_;
  const FrameSite<Role> site_{diagnostics_.work(), frames_};

 private:
  static constexpr std::size_t kMaxRoles = 64;  // bounds the values of a Role

  [[gnu::noinline, gnu::cold]] void unknownKey(const JsonFrame<Role>& f) {
    error(rules::kUnknownKey, [&] {
      return "unknown key " + quoteInput(f.keyText()) + " in " +
             keyedObjectName(Derived::kKeys, Derived::kKeyedObjects, f.role);
    });
  }

  [[gnu::noinline, gnu::cold]] void reportMissingKeys(const ClosedObject& f) {
    constexpr const auto& keys = Derived::kKeys;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const Key<Role>& k = keys[i];
      if (k.container != f.role || k.use != KeyUse::Required || (f.seen & keyBit(i))) continue;
      error(rules::kMissingField, [&] {
        std::string message(k.missingBefore);
        message += '"';
        message += k.name;
        message += '"';
        message += k.missingAfter;
        return message;
      });
    }
  }

  std::size_t nextProgress_ = kProgressStep;
};

// The text as nlohmann's parser reads it, one character at a time, with
// the position published after each (nlohmann's SAX events carry no
// position). One store a character: the parser's own iterator is in memory
// too, so the cost is noise beside its lexer's.
class PublishingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  PublishingIterator(const char* at, const char** published) : at_(at), published_(published) {}
  reference operator*() const { return *at_; }
  PublishingIterator& operator++() {
    *published_ = ++at_;
    return *this;
  }
  PublishingIterator operator++(int) {
    PublishingIterator before = *this;
    ++*this;
    return before;
  }
  friend bool operator==(const PublishingIterator& a, const PublishingIterator& b) { return a.at_ == b.at_; }

 private:
  const char* at_;
  const char** published_;
};

// Takes nlohmann's syntax error and nothing else: what runSax() asks for
// when the plain parser has stopped at an error, so that the message is
// nlohmann's own, whichever parser found it.
struct SyntaxErrorCatcher {
  using json = nlohmann::json;
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(json::number_integer_t) { return true; }
  bool number_unsigned(json::number_unsigned_t) { return true; }
  bool number_float(json::number_float_t, const json::string_t&) { return true; }
  bool string(json::string_t&) { return true; }
  bool binary(json::binary_t&) { return true; }
  bool start_object(std::size_t) { return true; }
  bool key(json::string_t&) { return true; }
  bool end_object() { return true; }
  bool start_array(std::size_t) { return true; }
  bool end_array() { return true; }
  bool parse_error(std::size_t p, const std::string& token, const json::exception& e) {
    position = p;
    lastToken = token;
    what = e.what();
    return false;
  }
  std::size_t position = 0;
  std::string lastToken;
  std::string what;
};

// Runs a SAX parser over `text` (comments allowed) into `reader`: the plain
// parser (plain_json_sax.hpp) when the text is plain, nlohmann's otherwise.
// False after a syntax error, with that error alone in `out` and the cost
// of what was dropped in `work` (syntaxErrorDiagnostics()).
template <typename Reader>
bool runSax(std::string_view text, Reader& reader, const DiagnosticList& diagnostics, std::vector<Diagnostic>& out,
            DiagnosticWork& work) {
  const char* begin = text.data();
  reader.readTo = begin;
  reader.textBegin = begin;
  bool parsed = false;
  if (internal::isPlainJson(text)) {
    parsed = internal::PlainJsonParser<Reader>(text, reader, reader.readTo).parse();
    if (!parsed) {
      SyntaxErrorCatcher catcher;
      nlohmann::json::sax_parse(text, &catcher, nlohmann::json::input_format_t::json, true, kIgnoreComments);
      reader.syntaxErrorAt(catcher.position, catcher.lastToken, catcher.what);
    }
  } else {
    const PublishingIterator first(begin, &reader.readTo);
    const PublishingIterator last(begin + text.size(), &reader.readTo);
    parsed =
        nlohmann::json::sax_parse(first, last, &reader, nlohmann::json::input_format_t::json, true, kIgnoreComments);
  }
  if (parsed) return true;
  // nlohmann counts a character past the end for some errors at the end of
  // the text (a `//` comment that ends it); the end is where they are.
  const std::size_t offset = std::min(reader.syntaxErrorOffset, text.size());
  out = syntaxErrorDiagnostics(text, offset, std::move(reader.syntaxError), diagnostics, work);
  return false;
}

}  // namespace gdmap::description
