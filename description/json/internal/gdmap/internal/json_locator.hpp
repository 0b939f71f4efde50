#pragma once
// Finds where values are in JSON text. JSON parsers (nlohmann included) do
// not keep the positions of the values they return, but a diagnostic about a
// description must say "line 12, column 7". This scanner works on the text
// alone, after the parser has accepted it, and only for the few values that
// diagnostics name: one pass over the text for any number of pointers.
// Comments (// to the end of the line, /* to */), which descriptions may
// carry, are white space to it as they are to the parser.
//
// Internal to description/; no JSON library in this header.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::json_location {

inline constexpr std::size_t npos = static_cast<std::size_t>(-1);

// A value to find: the one the JSON pointer names ("" is the whole
// document; "/dictionaries/3/types/1"). Each token names the *first* member
// with that key (the description reader reads the first and skips later
// ones, so that is where its findings are), unless `member` is given: then
// the pointer's last token is replaced by "the member with this ordinal" (0
// for an object's first member), which tells apart the members of an object
// that has the key twice.
// The pointer is viewed, not copied (it may be as long as the text): it
// must outlive the call.
struct Target {
  Target(std::string_view p, std::size_t m = npos) : pointer(p), member(m) {}
  Target(const char* p, std::size_t m = npos) : pointer(p), member(m) {}
  Target(const std::string& p, std::size_t m = npos) : pointer(p), member(m) {}
  std::string_view pointer;
  std::size_t member = npos;
};

// The byte offset of the first character of each target's value, or npos
// when the text has no such value. `text` must be valid JSON. One pass over
// the text for any number of targets; `scanned`, when given, receives how
// many bytes of it the pass went over.
std::vector<std::size_t> locatePointers(std::string_view text, const std::vector<Target>& targets,
                                        std::size_t* scanned = nullptr);

// Where the value of a member is, given the offset just past its name's
// closing quote: past white space, comments and the ':'. Clamped to the
// text's end.
std::size_t valueAfterKey(std::string_view text, std::size_t keyEnd);

// For a JSON string whose opening quote is at text[quoteOffset]: the offset
// in `text` of the character that produced byte `decodedIndex` of the
// decoded string (escapes such as \" and \u00e9 take more raw characters than
// they decode to). An index at or past the decoded end gives the closing
// quote's offset.
std::size_t stringCharacterOffset(std::string_view text, std::size_t quoteOffset, std::size_t decodedIndex);

struct LineColumn {
  std::size_t line = 0;    // 1-based
  std::size_t column = 0;  // 1-based, counted in Unicode code points (UTF-8)
};

// Line and column of each offset (an offset past the end is clamped to the
// end). One pass over the text for all of them.
std::vector<LineColumn> lineColumns(std::string_view text, const std::vector<std::size_t>& offsets);

}  // namespace gdmap::json_location
