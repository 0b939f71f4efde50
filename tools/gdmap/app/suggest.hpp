#pragma once
// "Did you mean ...?" for a mistyped subcommand or option: when the parser
// rejects a command line, the first word no level of it knows is compared
// with the names that level offers (subcommands, or the options of the
// subcommand being read). The levels are a plain CommandSyntax tree, which
// cli_app.cpp makes from the parser's own.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::cli {

// Optimal string alignment distance (Levenshtein plus the swap of two
// adjacent characters), in bytes. Stops early: any distance above `limit`
// is reported as limit + 1, so a long hostile word costs O(limit) per name
// once the lengths alone rule it out, and O(|a| * |b|) at most.
std::size_t editDistance(std::string_view a, std::string_view b, std::size_t limit = 2);

// The candidate nearest to `word` within distance 2 (the first of equals),
// when the distance is also below the length of `word` (so "x" is not
// taken for "il"); empty when none qualifies or `word` is a candidate.
std::optional<std::string> nearestName(std::string_view word, const std::vector<std::string>& candidates);

struct UsageSuggestion {
  std::string unknown;    // the word as typed
  std::string suggested;  // the name meant
  std::string command;    // the command the word was read under: "gdmap", "gdmap il"
  bool option = false;    // an option rather than a subcommand
  // "unknown command 'chek'; did you mean 'check'?"
  std::string message() const;
};

// One option as the command line spells it.
struct OptionSyntax {
  std::vector<std::string> names;  // "--output", "-o"
  bool takesValue = false;         // the next word is its value (`-o FILE`)
};

// A command and what may follow it.
struct CommandSyntax {
  std::string name;  // "gdmap", "il", "check"
  std::vector<OptionSyntax> options;
  std::vector<CommandSyntax> subcommands;
};

// Walks the arguments as `app` reads them (subcommands by name, option
// values skipped) up to the first word its level does not know, and offers
// the nearest name for it. Empty when every word is known or nothing is
// near.
std::optional<UsageSuggestion> suggestForArguments(const CommandSyntax& app, int argc, const char* const* argv);

}  // namespace gdmap::cli
