#pragma once
// What the two SAX readers of descriptions (description_json.cpp for
// dictionary maps, il_description_json.cpp for IL-to-native maps) share:
// the stack of open JSON containers that tells where the reader is, the
// Site that turns that stack into a JSON pointer only when a diagnostic is
// kept, and the wording of a syntax error.
//
// Private to description/; no JSON library in this header.
#include "description_diagnostics.hpp"

#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/map_description.hpp>  // escapePointerToken

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::description {

// Descriptions may carry // and /* */ comments (docs/description.md): the
// parser skips them, and so does the locator that finds positions
// (json_locator.cpp).
inline constexpr bool kIgnoreComments = true;

// One open JSON container. `Role` is the reader's enum of what a value
// must be; each reader gives its own.
template <typename Role>
struct JsonFrame {
  Role role{};  // what this container is
  bool object = false;
  std::size_t index = 0;  // arrays: the index of the current element
  std::string key;        // objects: the key of the current member
  // Objects: the ordinal of the current member (npos when not known), and
  // how many members were read.
  std::size_t member = Diagnostic::npos;
  std::size_t members = 0;
  Role expect{};      // what the current member or element must be
  unsigned seen = 0;  // bits of the known keys seen in this object (for duplicate keys)
};

template <typename Role>
JsonFrame<Role> openFrame(Role role, bool object, Role firstExpect) {
  JsonFrame<Role> f;
  f.role = role;
  f.object = object;
  f.expect = firstExpect;
  return f;
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
      if (f.object) out += escapePointerToken(f.key);
      else out += std::to_string(f.index);
    }
    return out;
  }
  std::size_t pointerBound() const override {
    // Escaping at most doubles a key; an index has at most 20 digits.
    std::size_t bound = 0;
    for (const JsonFrame<Role>& f : frames_) bound += 1 + (f.object ? 2 * f.key.size() : 20);
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
