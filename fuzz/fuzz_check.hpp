#pragma once
// What every fuzz target shares: an invariant check that aborts (so
// libFuzzer saves the input as a crash) with a message saying which
// invariant broke, plus small helpers for comparing results.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/hex.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace gdmap::fuzz {

[[noreturn]] inline void invariantFailed(const char* file, int line, const char* condition, const std::string& detail) {
  std::fprintf(stderr, "\n==gdmap-fuzz== INVARIANT FAILED at %s:%d\n  %s\n", file, line, condition);
  if (!detail.empty()) std::fprintf(stderr, "  %s\n", detail.c_str());
  std::abort();
}

// "offset 12 [rule]: message" for a failed result, for invariant messages.
inline std::string describeError(const Error& e) {
  return "offset " + std::to_string(e.offset) + " [" + e.rule + "]: " + e.message;
}

// At most `max` bytes as hex, for invariant messages.
inline std::string hexOf(ByteSpan bytes, std::size_t max = 64) {
  std::string s = toHex(bytes.first(bytes.size() < max ? bytes.size() : max));
  if (bytes.size() > max) s += "...";
  return s;
}

inline ByteSpan asBytes(const std::uint8_t* data, std::size_t size) { return ByteSpan(data, size); }
inline std::string_view asText(const std::uint8_t* data, std::size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

}  // namespace gdmap::fuzz

// FUZZ_CHECK(condition, detail): `detail` is an expression giving a
// std::string, evaluated only when the condition fails.
#define FUZZ_CHECK(condition, detail)                                                           \
  do {                                                                                          \
    if (!(condition)) ::gdmap::fuzz::invariantFailed(__FILE__, __LINE__, #condition, (detail)); \
  } while (false)
