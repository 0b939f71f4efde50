#pragma once
// What an input looks like, to tell a user who gave a JSON description
// where a binary map was expected (or the other way round) what they
// probably meant, besides the error the input got. A guess from the first
// bytes only: it never decides what is read, it only words a note.
#include "common/file_io.hpp"
#include "common/report.hpp"

#include <gdmap/schema/bytes.hpp>

#include <string>
#include <string_view>

namespace gdmap::cli {

enum class InputKind {
  Json,     // the first non-space byte is '{' or '[', and no NUL follows
  PeImage,  // "MZ", and e_lfanew points at "PE\0\0": an assembly (`gdmap il extract` reads it)
  Binary,   // a NUL or another control byte (not tab, CR, LF, FF) among the first bytes
  Other,    // text that is not JSON, or nothing
};

// Looks at the first kSniffBytes bytes at most.
inline constexpr std::size_t kSniffBytes = 4096;
InputKind sniffInputKind(ByteSpan bytes);

// `word` as one shell word: as is when plain, else in single quotes with
// control bytes shown as \xNN (a suggestion, not a script).
std::string shellWord(std::string_view word);

// When `input` looks like `kind`: adds a note (rule usage) "NAME looks like
// WHAT, not EXPECTED; did you mean `COMMAND NAME`?" and returns true.
// `command` is the gdmap command that reads such input ("gdmap build");
// stdin is named '-' in the suggestion.
bool noteWrongKind(const InputBytes& input, InputKind kind, std::string_view what, std::string_view expected,
                   std::string_view command, Report& report);

// The common cases, worded once.
// A JSON description given where a dictionary map is expected.
bool noteJsonNotMap(const InputBytes& input, Report& report);
// A JSON IL description given where an IL-to-native map (blob) is expected.
bool noteJsonNotIlBlob(const InputBytes& input, Report& report);
// A binary map given where a JSON description is expected (`gdmap build`):
// `gdmap dump` reads it.
bool noteBinaryNotDescription(const InputBytes& input, Report& report);
// A binary IL-to-native map given where a JSON IL description is expected;
// a PE image there is pointed at `gdmap il extract`.
bool noteBinaryNotIlDescription(const InputBytes& input, Report& report);
// A JSON IL description given where a PE image is expected (`il extract`).
bool noteJsonNotPeImage(const InputBytes& input, Report& report);

// A description whose type text names types (`class [System.Runtime]X`, as
// `gdmap dump --names` writes them), read without --names: adds a note
// (rule names-needed) that --names ASSEMBLY resolves them, and returns true.
bool noteNamesNeeded(const InputBytes& input, Report& report);

}  // namespace gdmap::cli
