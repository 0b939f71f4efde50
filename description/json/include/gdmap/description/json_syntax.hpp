#pragma once
// Whether a JSON text is well-formed, checked as its pieces arrive, so that
// a description read from a pipe stops being read at its first invalid
// byte (`yes | gdmap build -`) instead of at its end, if it has one. The
// check is the description parser's own (nlohmann's SAX, with comments
// allowed as in descriptions): what it accepts, parseDescription() parses;
// where it stops, parseDescription() reports the same syntax error.
#include <functional>
#include <string_view>

namespace gdmap {

// Reads pieces from `next` (an empty piece: the text has ended) until the
// text ends or its syntax fails; true when it is one valid JSON value.
// Nothing after a syntax error is asked for: the piece holding the first
// invalid byte is the last one read. Each piece need only stay valid until
// `next` is called again.
bool checkJsonSyntax(const std::function<std::string_view()>& next);

}  // namespace gdmap
