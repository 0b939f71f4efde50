#pragma once
// What the `gdmap il` subcommands read from their command line: forms,
// tokens, sizes and offsets. Numbers are decimal or 0x hex below 2^32; a
// malformed one is refused while the command line is parsed, so it is a
// usage error (exit 2) in the form asked for (text or --json).
#include <gdmap/schema/il_map.hpp>

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gdmap::cli {

// Decimal or 0x-prefixed hex, below 2^32; nullopt for anything else.
std::optional<std::uint32_t> parseU32(std::string_view text);
// parseU32, or one of the IL specials by name ("prolog", "epilog",
// "no_mapping").
std::optional<std::uint32_t> parseIlOffset(std::string_view text);

// Validators for CLI11 options holding those numbers as text.
CLI::Validator u32Argument();
CLI::Validator ilOffsetArgument();

// The four form names, for --format, --from and --to.
CLI::Validator formArgument();
// A name formArgument() accepted.
il::BoundsForm formOf(const std::string& name);

// Option values that may be absent: empty text means not given (an empty
// value fails the validators).
std::optional<std::uint32_t> optionalU32(const std::string& text);

// The options every `gdmap il` subcommand spells alike.
// `--format F` (or --from/--to): required, one of the four form names; the
// help reads "<what>: api, nibble, packed2 or packed3".
void addFormOption(CLI::App& command, const std::string& name, std::string& value, const std::string& what);
// `--method TOKEN`, a u32; `help` says what an absent or unknown token means.
// --instantiation TEXT: which body of a method whose token several bodies
// share (il::instantiationText, e.g. "<int32>::<string>").
void addInstantiationOption(CLI::App& command, std::string& value);

void addMethodOption(CLI::App& command, std::string& value, const std::string& help);
// `-o,--output FILE` for binary bytes: '-' is stdout, refused on a terminal.
void addBinaryOutputOption(CLI::App& command, std::string& value);

// "0x06000001": how tokens are printed.
std::string tokenText(std::uint32_t token);

// The token `dump` writes when --token is not given.
inline constexpr std::uint32_t kDefaultDumpToken = 0x06000001;

}  // namespace gdmap::cli
