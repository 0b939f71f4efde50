#pragma once
// Positions in a description's text for diagnostics made after it was read
// (choosing a method, encoding it): the parse no longer runs, but the JSON
// pointer a diagnostic names still finds its value in the text.
#include <gdmap/schema/diagnostic.hpp>

#include <span>
#include <string_view>

namespace gdmap {

// Fills in the byte offset, line and column of each diagnostic that has a
// JSON pointer (`path`) and no offset yet; `jsonText` must be the valid JSON
// it is about. One pass over the text for all of them; a pointer the text
// does not have leaves its diagnostic as it was.
void locateInJson(std::string_view jsonText, std::span<Diagnostic> diagnostics);

}  // namespace gdmap
