#pragma once
// The invariants of a JSON description reader's diagnostics, shared by the
// fuzz targets description (parseDescription) and il_description
// (parseIlDescription), which promise the same (docs/fuzzing.md):
// - a result comes back exactly when no diagnostic is an error;
// - each diagnostic has a rule and a message; at most the cap (100) plus one
//   summary note are kept; messages stay short whatever the input (quotes
//   are capped, issue #7 defect 4);
// - line and column agree with the offset, and the offset lies in the value
//   the diagnostic's JSON pointer names (issue #7 defect 7), checked against
//   an independent scanner (json_spans.hpp).
#include "fuzz_check.hpp"
#include "json_spans.hpp"

#include <gdmap/schema/diagnostic.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gdmap::fuzz {

inline constexpr std::size_t kMaxKeptDiagnostics = 100;
// A message quotes at most a few capped pieces of input (kMaxQuotedBytes
// each) around fixed text; this leaves room for both.
inline constexpr std::size_t kMaxMessageBytes = 1024;

inline std::string firstError(const std::vector<Diagnostic>& diagnostics) {
  for (const Diagnostic& d : diagnostics)
    if (d.severity == Severity::Error) return d.path + " [" + d.rule + "] " + d.message;
  return "no error diagnostic";
}

// Where byte `offset` of `text` is: 1-based line (counting '\n') and
// column in code points (bytes that are not UTF-8 continuation bytes).
inline std::pair<std::size_t, std::size_t> lineColumn(std::string_view text, std::size_t offset) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++column;
    }
  }
  return {line, column};
}

// A diagnostic's offset lies in the value its JSON pointer names (or that
// member's key), in any member of that name when the key repeats; for a
// pointer to something the text lacks (a missing field), in the nearest
// enclosing value it has.
inline void checkLocations(const std::vector<Diagnostic>& diagnostics, std::string_view text) {
  JsonSpans spans;
  if (!spans.scan(text)) return;  // not JSON: nothing to locate in
  for (const Diagnostic& d : diagnostics) {
    if (d.offset == Diagnostic::npos || d.path.empty() || d.path[0] != '/') continue;
    std::string pointer = d.path;
    while (!pointer.empty() && !spans.has(pointer)) pointer.resize(pointer.rfind('/'));
    FUZZ_CHECK(spans.contains(pointer, d.offset),
               "[" + d.rule + "] " + d.path + " is located at byte " + std::to_string(d.offset) + " (" +
                   std::to_string(d.line) + ":" + std::to_string(d.column) + "), outside " +
                   (pointer.empty() ? std::string("the document") : pointer) + ": " + d.message);
  }
}

// `accepted`: whether the reader returned a result.
inline void checkDiagnostics(const std::vector<Diagnostic>& diagnostics, bool accepted, std::string_view text) {
  bool anyError = false;
  for (const Diagnostic& d : diagnostics) {
    anyError = anyError || d.severity == Severity::Error;
    FUZZ_CHECK(!d.rule.empty(), "a description diagnostic without a rule: " + d.path + ": " + d.message);
    FUZZ_CHECK(!d.message.empty(), "diagnostic [" + d.rule + "] without a message");
    FUZZ_CHECK(d.message.size() <= kMaxMessageBytes, "diagnostic [" + d.rule + "] has a " +
                                                         std::to_string(d.message.size()) +
                                                         "-byte message: " + d.message.substr(0, 200) + "...");
    FUZZ_CHECK(d.offset == Diagnostic::npos || d.offset <= text.size(),
               "diagnostic [" + d.rule + "] at offset " + std::to_string(d.offset) + " past the text");
    if (d.offset != Diagnostic::npos && d.line != 0) {
      const auto [line, column] = lineColumn(text, d.offset);
      FUZZ_CHECK(d.line == line && d.column == column,
                 "diagnostic [" + d.rule + "] at offset " + std::to_string(d.offset) + " says " +
                     std::to_string(d.line) + ":" + std::to_string(d.column) + ", the text says " +
                     std::to_string(line) + ":" + std::to_string(column));
    }
  }
  checkLocations(diagnostics, text);
  FUZZ_CHECK(diagnostics.size() <= kMaxKeptDiagnostics + 1, std::to_string(diagnostics.size()) + " diagnostics kept");
  FUZZ_CHECK(accepted == !anyError, accepted ? "a result returned with an error: " + firstError(diagnostics)
                                             : std::string("no result, yet no error diagnostic"));
}

}  // namespace gdmap::fuzz
