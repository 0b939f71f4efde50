#pragma once
// Internal to reader/map: how comparisons quote a map's values, with a cap,
// so that a type of a million bytes costs a message of a hundred
// (compareMaps() and diffMaps() word them alike).
#include <gdmap/schema/bytes.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace gdmap::detail {

inline constexpr std::size_t kMaxQuotedBytes = 32;
inline constexpr std::size_t kMaxQuotedText = 80;

// Hex of at most kMaxQuotedBytes bytes, "... (N bytes)" after.
std::string cappedHex(ByteSpan bytes);
// The same, showing bytes[at] (where two values first differ): from the
// start, or from a few bytes before it; "..." where cut.
std::string cappedHexAround(ByteSpan bytes, std::size_t at);
// At most `limit` characters, "..." after.
std::string cappedText(std::string text, std::size_t limit = kMaxQuotedText);
// Two texts, each as is when both fit in `limit` characters, else cut to
// `limit` from their start or, when they differ further in, from a little
// before the first character where they differ; "..." where cut: two texts
// that differ never come out the same.
std::pair<std::string, std::string> cappedPair(const std::string& a, const std::string& b,
                                               std::size_t limit = kMaxQuotedText);
// "0x80000003 (3 entries, sorted)".
std::string headerValue(std::uint32_t count);
// "3 entries", "1 entry".
std::string entries(std::uint64_t n);

}  // namespace gdmap::detail
