#pragma once
// How the R2R reader's layers report a malformed image: one error path,
// Expected/Error. A step reads a section through its NativeRegion, a
// cursor whose first failure sticks (native_format.hpp); the layer that
// knows the section and the method checks it and prefixes its path then
// ("path: " before the message), and readR2RImage returns the first Error.
// Messages and paths are built only on failure: the valid path pays a
// branch per read, no strings.
#include <gdmap/schema/expected.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace gdmap::r2r {

inline Error r2rError(std::uint64_t offset, std::string message, const char* rule) {
  return Error(static_cast<std::size_t>(offset), std::move(message), rule);
}

// `error` with "`path`: " before its message.
inline Error withPath(std::string_view path, Error error) {
  error.message = std::string(path) + ": " + error.message;
  return error;
}

}  // namespace gdmap::r2r
