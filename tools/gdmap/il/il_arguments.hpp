#pragma once
// What the `gdmap il` subcommands read from their command line: forms,
// tokens, sizes and offsets. Numbers are decimal or 0x hex below 2^32; a
// malformed one is refused while the command line is parsed (cli_app.cpp
// checks each with the parser here), so it is a usage error (exit 2) in the
// form asked for (text or --json).
#include <gdmap/schema/il_map.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gdmap::cli {

// Decimal or 0x-prefixed hex, below 2^32; nullopt for anything else.
std::optional<std::uint32_t> parseU32(std::string_view text);
// A code address (or RVA) for `--address`: 0x-prefixed hex or decimal,
// below 2^64; nullopt for anything else.
std::optional<std::uint64_t> parseAddress(std::string_view text);
// parseU32, or one of the IL specials by name ("prolog", "epilog",
// "no_mapping").
std::optional<std::uint32_t> parseIlOffset(std::string_view text);

// Why `text` is not what an option of each kind holds (a number, an IL
// offset, a form name), or empty when it is: the messages a malformed
// command line gets.
std::string u32Problem(const std::string& text);
std::string ilOffsetProblem(const std::string& text);
std::string addressProblem(const std::string& text);
std::string formProblem(const std::string& text);

// A form name the command line was checked to hold.
il::BoundsForm formOf(const std::string& name);

// Option values that may be absent: empty text means not given (an empty
// value fails the validators).
std::optional<std::uint32_t> optionalU32(const std::string& text);
std::optional<std::uint64_t> optionalAddress(const std::string& text);

// "0x06000001": how tokens are printed.
std::string tokenText(std::uint32_t token);

// The token `dump` writes when --token is not given.
inline constexpr std::uint32_t kDefaultDumpToken = 0x06000001;

}  // namespace gdmap::cli
