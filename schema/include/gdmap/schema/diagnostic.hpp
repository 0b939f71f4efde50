#pragma once
// One finding about an input, binary or text, with where it is; and the one
// text form and the one JSON form every gdmap tool prints it in.
#include <gdmap/schema/expected.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap {

// Warning and Error keep their historic values; Note was added after them.
enum class Severity { Warning, Error, Note };

// "error", "warning", "note": the words both formats use.
const char* severityName(Severity severity);

struct Diagnostic {
  Severity severity = Severity::Error;
  // A stable identifier of the rule (rules.hpp, docs/errors.md), for tests
  // and --json consumers: "offset-outside-heap", "unknown-key", ...
  std::string rule;
  // Where, as a path: "directory[3].offset", "heap@0x1c.type[1]" for maps;
  // a JSON pointer ("/dictionaries/3/types/1") for descriptions.
  std::string path;
  // Byte offset in the map, or (for text) in the text; npos when there is
  // none.
  std::size_t offset = npos;
  // 1-based line and column (in Unicode code points) in a text input; 0
  // when unknown or when the input is binary.
  std::size_t line = 0;
  std::size_t column = 0;
  std::string message;
  // The input the finding is about ("map.gdmap", "stdin", "argument 2");
  // empty when the caller names it (formatDiagnostic's fileName) or when
  // there is no input (a usage error).
  std::string file;

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
};

// An Error from a binary reader as a diagnostic: the byte offset is
// `base + error.byteOffset()` (the error's offset is relative to the bytes
// the reader was given), `path` names the field (the error's own path when
// empty). The error's rule is kept; a nibble or bit offset is said before
// the message ("nibble 7: ...", "bit 45: ...").
Diagnostic binaryDiagnostic(const Error& error, std::string path = {}, std::size_t base = 0,
                            Severity severity = Severity::Error);

// An Error from a text parser as a diagnostic: `error.offset` is a byte index
// in `text`, turned into line and column (the first line of `text` is
// `firstLine`, so a caller that parses one line of a file passes its line
// number). An offset past the end points just past the last character.
Diagnostic textDiagnostic(const Error& error, std::string_view text, std::size_t firstLine = 1, std::string path = {},
                          Severity severity = Severity::Error);

// Input quoted in a message: at most `maxBytes` bytes of `text` (cut at a
// UTF-8 character boundary, with "..." when cut), in single quotes, control
// characters and bytes that are not UTF-8 escaped as \xNN, so that a hostile
// 200 MB line costs a message of a few dozen bytes.
inline constexpr std::size_t kMaxQuotedBytes = 40;
std::string quoteInput(std::string_view text, std::size_t maxBytes = kMaxQuotedBytes);

// A path, JSON pointer or file name as a diagnostic shows it: whole up to
// kMaxShownPathBytes, else its first bytes, "…", its last bytes and its full
// length ("/instantiations/NNNN…NNNN/17 (50021 bytes)"), each end cut at a
// UTF-8 character boundary. Pointers are built from the input's keys, so a
// key of a megabyte would otherwise make every line about it a megabyte;
// the tail keeps the index a pointer ends with. Diagnostic::path itself
// stays exact for API users, who can follow it.
inline constexpr std::size_t kMaxShownPathBytes = 160;
std::string shownPath(std::string_view path);

// A message as a diagnostic shows it: at most kMaxShownMessageBytes (cut at
// a UTF-8 character boundary, "..." when cut), whatever a library put in it.
inline constexpr std::size_t kMaxShownMessageBytes = 512;
std::string shownMessage(std::string_view message);

// The text form, one line without a newline:
//   "map.gdmap: error: directory[3].offset (byte 0x0000001c): offset 0x40 is past the heap's end [offset-outside-heap]"
//   "d.json:2:7: error: /x: unknown key \"x\" in the description [unknown-key]"
// `fileName` names the input when not empty, else `d.file` does; with
// neither, the line starts at the severity. The file and the path are shown
// by shownPath, the message by shownMessage, so a line is bounded whatever
// the input.
std::string formatDiagnostic(const Diagnostic& d, const std::string& fileName = {});

// `text` as a JSON string literal (with its quotes) appended to `out`:
// quotes, backslashes and control characters escaped; every byte sequence
// that is not well-formed UTF-8 replaced by U+FFFD, so the output is always
// valid JSON whatever the input.
void appendJsonString(std::string_view text, std::string& out);

// The JSON form of one diagnostic, an object on one line with the keys in
// this order: "severity", "rule", "message", then the location: "file"
// (when known), "path" (always, "" when none), "offset" (null when none),
// "line" and "column" (only for text inputs). Bounded as formatDiagnostic
// is (shownPath, shownMessage).
void appendDiagnosticJson(const Diagnostic& d, std::string& out);
std::string diagnosticJson(const Diagnostic& d);

// A JSON array of diagnostics, one per line, each line indented by
// `indent` + 2 spaces (the closing bracket by `indent`).
std::string diagnosticsJson(const std::vector<Diagnostic>& diagnostics, std::size_t indent = 0);

}  // namespace gdmap
