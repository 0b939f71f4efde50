#pragma once
// What the two SAX readers of descriptions (dictionary maps and IL-to-native
// maps) do alike, as a base each derives from: the stack of open
// containers and the Site over it, moving on after a value, reporting a
// problem at the current value, recording nlohmann's syntax error; and the
// parse call itself, with comments allowed and a syntax error reported
// alone. `Role` is the reader's enum of what a value must be (it has a
// `Root`); the derived reader supplies the SAX events that carry values,
// and `wrongType(Role, const char* found)`.
//
// Private to tools/description; includes nlohmann/json, unlike json_sax.hpp.
#include "description_diagnostics.hpp"
#include "json_sax.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
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
    // `position` counts the characters read, the offending one included.
    syntaxErrorOffset = position == 0 ? 0 : position - 1;
    syntaxError = syntaxErrorMessage(e.what(), lastToken);
    return false;
  }

  std::size_t syntaxErrorOffset = 0;
  std::string syntaxError;

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

  // A value of a JSON type the position does not take.
  bool scalar(const char* found) {
    static_cast<Derived*>(this)->wrongType(expected(), found);
    return done();
  }

  DiagnosticList& diagnostics_;
  std::vector<JsonFrame<Role>> frames_;
  const FrameSite<Role> site_{diagnostics_.work(), frames_};
};

// Runs nlohmann's SAX parser over `text` (comments allowed) into `reader`.
// False after a syntax error, with that error alone in `out` and the cost
// of what was dropped in `work` (syntaxErrorDiagnostics()).
template <typename Reader>
bool runSax(std::string_view text, Reader& reader, const DiagnosticList& diagnostics, std::vector<Diagnostic>& out,
            DiagnosticWork& work) {
  if (nlohmann::json::sax_parse(text, &reader, nlohmann::json::input_format_t::json, true, kIgnoreComments))
    return true;
  // nlohmann counts a character past the end for some errors at the end of
  // the text (a `//` comment that ends it); the end is where they are.
  const std::size_t offset = std::min(reader.syntaxErrorOffset, text.size());
  out = syntaxErrorDiagnostics(text, offset, std::move(reader.syntaxError), diagnostics, work);
  return false;
}

}  // namespace gdmap::description
