#pragma once
// How the R2R reader's layers report a malformed image: they throw an
// R2RFailure (a located gdmap::Error), the layer that knows the section and
// the method prefixes its path, and readR2RImage returns it as an Expected.
// Thrown only on a malformed image, so the valid path pays nothing.
#include <gdmap/schema/expected.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace gdmap::r2r {

struct R2RFailure {
  Error error;
};

[[noreturn]] inline void fail(std::uint64_t offset, std::string message, const char* rule) {
  throw R2RFailure{Error(static_cast<std::size_t>(offset), std::move(message), rule)};
}

// Runs `body`; a failure inside gets "`path`: " before its message. `path`
// is a string or a callable giving one, called only on failure (the valid
// path builds no strings).
template <typename Path, typename Body>
auto withPath(const Path& path, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (R2RFailure& f) {
    if constexpr (std::is_invocable_v<const Path&>) {
      f.error.message = std::string(path()) + ": " + f.error.message;
    } else {
      f.error.message = std::string(path) + ": " + f.error.message;
    }
    throw;
  }
}

}  // namespace gdmap::r2r
