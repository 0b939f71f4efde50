#pragma once
// What the two SAX readers of descriptions (description_json.cpp for
// dictionary maps, il_description_json.cpp for IL-to-native maps) share:
// the stack of open JSON containers that tells where the reader is, the
// Site that turns that stack into a JSON pointer only when a diagnostic is
// kept, and the wording of a syntax error.
//
// Each format's keys are one table of Key (below): the reader's dispatch,
// the duplicate check, the names in messages and the members that
// diagnostics point at all come from it, so each key is spelled once.
//
// Private to description/; no JSON library in this header.
#include <gdmap/internal/description_diagnostics.hpp>

#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/map_description.hpp>  // escapePointerToken

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::description {

// The known keys of an object, one bit each (a key's bit is its index in
// its format's key table).
using KeyBits = std::uint64_t;

// Descriptions may carry // and /* */ comments (docs/description.md): the
// parser skips them, and so does the locator that finds positions
// (json_locator.cpp).
inline constexpr bool kIgnoreComments = true;

// One open JSON container. `Role` is the reader's enum of what a value
// must be; each reader gives its own.
template <typename Role>
struct JsonFrame {
  // A constructor of its own: `JsonFrame()` would zero the whole frame
  // before initialising it, for every object and array of the file.
  JsonFrame(Role roleOf, bool isObject, Role firstExpect) : role(roleOf), object(isObject), expect(firstExpect) {}

  Role role{};  // what this container is
  bool object = false;
  std::size_t index = 0;  // arrays: the index of the current element
  // Objects: the key of the current member, as keyText() gives it: a key
  // of the format's table is a view of the table (no copy for the
  // millions of rva and hex keys); any other is copied into `key`.
  std::string key;
  std::string_view tableKey;
  std::string_view keyText() const { return tableKey.data() != nullptr ? tableKey : std::string_view(key); }
  void setKey(std::string_view text) {
    key.assign(text);
    tableKey = {};
  }
  // Objects: the ordinal of the current member (npos when not known), and
  // how many members were read.
  std::size_t member = Diagnostic::npos;
  std::size_t members = 0;
  Role expect{};     // what the current member or element must be
  KeyBits seen = 0;  // bits of the known keys seen in this object (for duplicate keys)
};

// How a key takes part in its object.
enum class KeyUse : std::uint8_t {
  Optional,
  Required,  // missing: Key::missing* is reported when the object ends
  Form,      // one of the object's alternative forms (exactly one is given)
  Unlisted,  // known, but not named in the object's list of keys ($schema)
};

// One key of a format. `Role` is the reader's enum of what a value must be.
// A key's bit in JsonFrame::seen is its index in the format's table.
template <typename Role>
struct Key {
  std::string_view name;
  Role container;  // the object it is a member of
  Role value;      // what its value must be
  KeyUse use = KeyUse::Optional;
  // What a message about its value calls it ("IL offset"); empty: its name.
  std::string_view noun = {};
  // A required key's message when it is missing, around its quoted name.
  std::string_view missingBefore = {};
  std::string_view missingAfter = {};
};

// How an object of a format is named in a message about an unknown key,
// and how its keys are listed after the name.
enum class KeyListing : std::uint8_t {
  None,  // "the description"
  Or,    // "a bound (expected \"native\", \"il\" or \"source\")"
  And,   // "... (expected \"offset\" and \"raw\")"
  Only,  // "... (expected only \"hex\")"
};

template <typename Role>
struct KeyedObject {
  Role role;
  std::string_view name;
  KeyListing listing = KeyListing::Or;
};

template <typename Role, std::size_t N>
using KeyTable = std::array<Key<Role>, N>;

constexpr KeyBits keyBit(std::size_t index) { return KeyBits{1} << index; }

// Each role's keys, by their index in the table, for findKey(): a key is
// looked up for every member of the file, and a role has a few keys where
// the table has all the format's.
template <std::size_t Roles, std::size_t N>
struct KeysByRole {
  std::array<std::array<std::uint8_t, N>, Roles> keys{};
  std::array<std::uint8_t, Roles> count{};
};

template <std::size_t Roles, typename Role, std::size_t N>
constexpr KeysByRole<Roles, N> keysByRole(const KeyTable<Role, N>& keys) {
  static_assert(N <= 64, "a key's bit is its index in a KeyBits");
  KeysByRole<Roles, N> out;
  for (std::size_t i = 0; i < N; ++i) {
    const auto role = static_cast<std::size_t>(keys[i].container);
    out.keys[role][out.count[role]++] = static_cast<std::uint8_t>(i);
  }
  return out;
}

// The index of `name` among the keys of `container`; the table's size when
// the object does not know it. The format's keys are a few bytes: compared
// in line, not by a call to memcmp.
template <std::size_t Roles, typename Role, std::size_t N>
constexpr std::size_t findKey(const KeyTable<Role, N>& keys, const KeysByRole<Roles, N>& byRole, Role container,
                              std::string_view name) {
  const auto role = static_cast<std::size_t>(container);
  for (std::size_t k = 0; k < byRole.count[role]; ++k) {
    const std::size_t i = byRole.keys[role][k];
    const std::string_view known = keys[i].name;
    if (known.size() != name.size()) continue;
    std::size_t c = 0;
    while (c < name.size() && known[c] == name[c]) ++c;
    if (c == name.size()) return i;
  }
  return N;
}

// The key of `container` whose value is `value` (there is one).
template <typename Role, std::size_t N>
constexpr std::size_t keyFor(const KeyTable<Role, N>& keys, Role container, Role value) {
  for (std::size_t i = 0; i < N; ++i)
    if (keys[i].container == container && keys[i].value == value) return i;
  return N;
}

template <typename Role, std::size_t N>
constexpr KeyBits bitFor(const KeyTable<Role, N>& keys, Role container, Role value) {
  return keyBit(keyFor(keys, container, value));
}

template <typename Role, std::size_t N>
constexpr std::string_view nameFor(const KeyTable<Role, N>& keys, Role container, Role value) {
  return keys[keyFor(keys, container, value)].name;
}

// The bits of the keys of `container` used as `use`.
template <typename Role, std::size_t N>
constexpr KeyBits keyMask(const KeyTable<Role, N>& keys, Role container, KeyUse use) {
  KeyBits mask = 0;
  for (std::size_t i = 0; i < N; ++i)
    if (keys[i].container == container && keys[i].use == use) mask |= keyBit(i);
  return mask;
}

// keyMask(keys, role, KeyUse::Required) for every role, by its value.
template <std::size_t Roles, typename Role, std::size_t N>
constexpr std::array<KeyBits, Roles> requiredKeyMasks(const KeyTable<Role, N>& keys) {
  std::array<KeyBits, Roles> masks{};
  for (std::size_t i = 0; i < N; ++i)
    if (keys[i].use == KeyUse::Required) masks[static_cast<std::size_t>(keys[i].container)] |= keyBit(i);
  return masks;
}

// What a message calls the value of a key whose value is `value`: the
// first such key's noun or name; empty when no key has such a value.
template <typename Role, std::size_t N>
constexpr std::string_view valueNoun(const KeyTable<Role, N>& keys, Role value) {
  for (const Key<Role>& k : keys)
    if (k.value == value) return k.noun.empty() ? k.name : k.noun;
  return {};
}

// The quoted names of the keys in `mask`, in table order: "\"a\", \"b\""
// then `last` before the final one (" or ", " and ", or ", ").
template <typename Role, std::size_t N>
std::string keyList(const KeyTable<Role, N>& keys, KeyBits mask, std::string_view last) {
  std::string out;
  for (std::size_t i = 0; i < N; ++i) {
    if (!(mask & keyBit(i))) continue;
    mask &= ~keyBit(i);
    if (!out.empty()) out += mask == 0 ? last : std::string_view(", ");
    out += '"';
    out += keys[i].name;
    out += '"';
  }
  return out;
}

// The bits of the keys of `container` that its list names.
template <typename Role, std::size_t N>
constexpr KeyBits listedKeys(const KeyTable<Role, N>& keys, Role container) {
  KeyBits mask = 0;
  for (std::size_t i = 0; i < N; ++i)
    if (keys[i].container == container && keys[i].use != KeyUse::Unlisted) mask |= keyBit(i);
  return mask;
}

// An object's name with its keys, for "unknown key ... in <this>"; "this
// object" for one the format has no keys for.
template <typename Role, std::size_t N, std::size_t M>
std::string keyedObjectName(const KeyTable<Role, N>& keys, const std::array<KeyedObject<Role>, M>& objects, Role role) {
  for (const KeyedObject<Role>& object : objects) {
    if (object.role != role) continue;
    std::string out(object.name);
    const KeyBits listed = listedKeys(keys, role);
    switch (object.listing) {
      case KeyListing::None: break;
      case KeyListing::Or: out += " (expected " + keyList(keys, listed, " or ") + ")"; break;
      case KeyListing::And: out += " (expected " + keyList(keys, listed, " and ") + ")"; break;
      case KeyListing::Only: out += " (expected only " + keyList(keys, listed, "") + ")"; break;
    }
    return out;
  }
  return "this object";
}

// Where the reader is: the value being read, or the container just closed.
// Diagnostics come only from the format's own containers (a few deep),
// never from inside a skipped value, so building a pointer is a few steps.
template <typename Role>
class FrameSite final : public Site {
 public:
  FrameSite(DiagnosticWork& work, const std::vector<JsonFrame<Role>>& frames) : Site(work), frames_(frames) {}

  std::string buildPointer() const override {
    std::string out;
    for (const JsonFrame<Role>& f : frames_) {
      out += '/';
      if (f.object) out += escapePointerToken(f.keyText());
      else out += std::to_string(f.index);
    }
    return out;
  }
  std::size_t pointerBound() const override {
    // Escaping at most doubles a key; an index has at most 20 digits.
    std::size_t bound = 0;
    for (const JsonFrame<Role>& f : frames_) bound += 1 + (f.object ? 2 * f.keyText().size() : 20);
    return bound;
  }
  std::size_t member() const override {
    return !frames_.empty() && frames_.back().object ? frames_.back().member : Diagnostic::npos;
  }

 private:
  const std::vector<JsonFrame<Role>>& frames_;
};

// nlohmann's message with what it quotes of the input bounded (it quotes
// the token read so far, the rest of the file for an unterminated string)
// and its own position prefix dropped: the position is reported separately,
// as for every other diagnostic.
std::string syntaxErrorMessage(const std::string& what, const std::string& token);

// The result of a parse that stopped at a syntax error: that error alone
// (what was read before it may have problems too, but positions come from
// the text, which must be well-formed for that). `work` receives the cost
// of what `dropped` built before the error, plus the syntax error's.
std::vector<Diagnostic> syntaxErrorDiagnostics(std::string_view text, std::size_t offset, std::string message,
                                               const DiagnosticList& dropped, DiagnosticWork& work);

}  // namespace gdmap::description
