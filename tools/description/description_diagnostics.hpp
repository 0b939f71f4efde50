#pragma once
// The diagnostics of one description parse: collected by JSON pointer while
// parsing (positions are not known then), capped, and given byte offsets,
// lines and columns in one pass over the text at the end.
#include <gdmap/schema/diagnostic.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::description {

class DiagnosticList {
 public:
  // More than this many and the rest are counted, not kept: a broken
  // million-entry file should not print a million lines.
  static constexpr std::size_t kMaxKept = 100;

  // `stringIndex`: for a problem inside a string value (a type's text, a hex
  // digit), the byte index in the decoded string, so the position can point
  // at the exact character.
  void error(std::string rule, std::string pointer, std::string message,
             std::size_t stringIndex = Diagnostic::npos);
  void warning(std::string rule, std::string pointer, std::string message);
  // A problem whose byte offset is already known (invalid JSON).
  void errorAt(std::string rule, std::size_t offset, std::string message);

  std::size_t errorCount() const { return errors_; }

  // Fills in offsets, lines and columns (`text` must be the parsed JSON;
  // when it is not valid JSON, only diagnostics with a known offset should
  // be here), sorts by position, and adds a note for what was dropped.
  std::vector<Diagnostic> finish(std::string_view text);

 private:
  struct Pending {
    Diagnostic diagnostic;
    std::size_t stringIndex = Diagnostic::npos;
  };
  void add(Pending p);

  std::vector<Pending> kept_;
  std::size_t errors_ = 0;
  std::size_t dropped_ = 0;
};

}  // namespace gdmap::description
