#pragma once
// One finding about an input, binary or text, with where it is.
#include <cstddef>
#include <string>
#include <string_view>

namespace gdmap {

enum class Severity { Warning, Error };

struct Diagnostic {
  Severity severity = Severity::Error;
  // A stable identifier of the rule, for tests and --json consumers:
  // "offset-outside-heap", "unknown-key", ...
  std::string rule;
  // Where, as a path: "directory[3].offset", "heap@0x1c.type[1]" for maps;
  // a JSON pointer ("/dictionaries/3/types/1") for descriptions.
  std::string path;
  // Byte offset in the map, or (for descriptions) in the JSON text; npos
  // when there is none.
  std::size_t offset = npos;
  // 1-based line and column in a description's text; 0 when unknown.
  std::size_t line = 0;
  std::size_t column = 0;
  std::string message;

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
};

// Input quoted in a message: at most `maxBytes` bytes of `text` (cut at a
// UTF-8 character boundary, with "..." when cut), in single quotes, control
// characters escaped, so that a hostile 200 MB line costs a message of a
// few dozen bytes.
inline constexpr std::size_t kMaxQuotedBytes = 40;
std::string quoteInput(std::string_view text, std::size_t maxBytes = kMaxQuotedBytes);

// "error: directory[3].offset (byte 0x1c): offset 0x40 is past the heap's end"
std::string formatDiagnostic(const Diagnostic& d, const std::string& fileName = {});

}  // namespace gdmap
