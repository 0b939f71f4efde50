#pragma once
// The one-string form of a description writer that streams its text in
// pieces: `write(emit)` calls `emit` with each piece.
#include <gdmap/schema/expected.hpp>

#include <string>
#include <string_view>

namespace gdmap::description {

template <class Write>
Expected<std::string> collectedText(Write&& write) {
  std::string text;
  Status written = write([&](std::string_view chunk) -> Status {
    text += chunk;
    return Success{};
  });
  if (!written) return written.error();
  return text;
}

}  // namespace gdmap::description
