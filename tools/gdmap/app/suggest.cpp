#include "app/suggest.hpp"

#include <algorithm>
#include <string>

namespace gdmap::cli {
namespace {

const CommandSyntax* findSubcommand(const CommandSyntax& command, std::string_view name) {
  for (const CommandSyntax& sub : command.subcommands)
    if (sub.name == name) return &sub;
  return nullptr;
}

const OptionSyntax* findOption(const CommandSyntax& command, std::string_view name) {
  for (const OptionSyntax& option : command.options)
    if (std::ranges::find(option.names, name) != option.names.end()) return &option;
  return nullptr;
}

std::vector<std::string> subcommandNames(const CommandSyntax& command) {
  std::vector<std::string> names;
  for (const CommandSyntax& sub : command.subcommands)
    if (!sub.name.empty()) names.push_back(sub.name);
  return names;
}

std::vector<std::string> optionNames(const CommandSyntax& command) {
  std::vector<std::string> names;
  for (const OptionSyntax& option : command.options)
    names.insert(names.end(), option.names.begin(), option.names.end());
  return names;
}

// "gdmap il": the names from the top down to the level.
std::string commandPath(const std::vector<const CommandSyntax*>& levels) {
  std::string path;
  for (const CommandSyntax* level : levels) {
    if (!path.empty()) path += ' ';
    path += level->name;
  }
  return path;
}

}  // namespace

std::size_t editDistance(std::string_view a, std::string_view b, std::size_t limit) {
  const std::size_t over = limit + 1;
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > limit) return over;
  // Three rows of the usual table: the one before last (for swaps), the
  // last and the current.
  std::vector<std::size_t> before(b.size() + 1), last(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) last[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    std::size_t best = row[0];
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({last[j] + 1, row[j - 1] + 1, last[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
      best = std::min(best, row[j]);
    }
    if (best > limit) return over;  // every path from here costs more
    std::swap(before, last);
    std::swap(last, row);
  }
  return std::min(last[b.size()], over);
}

std::optional<std::string> nearestName(std::string_view word, const std::vector<std::string>& candidates) {
  constexpr std::size_t kLimit = 2;
  std::optional<std::string> best;
  std::size_t bestDistance = kLimit + 1;
  for (const std::string& name : candidates) {
    const std::size_t d = editDistance(word, name, kLimit);
    if (d == 0) return std::nullopt;
    if (d < bestDistance && d < word.size()) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

std::string UsageSuggestion::message() const {
  return std::string(option ? "unknown option '" : "unknown command '") + unknown + "' for `" + command +
         "`; did you mean '" + suggested + "'?";
}

std::optional<UsageSuggestion> suggestForArguments(const CommandSyntax& app, int argc, const char* const* argv) {
  std::vector<const CommandSyntax*> levels{&app};
  const CommandSyntax* level = &app;
  bool chosen = false;  // whether `level` is a leaf reading its operands
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "--") break;  // operands from here on
    if (word.size() > 1 && word[0] == '-') {
      const std::string name(word.substr(0, std::min(word.find('='), word.size())));
      const OptionSyntax* opt = findOption(*level, name);
      if (opt == nullptr && word[1] != '-' && word.size() > 2) {
        opt = findOption(*level, word.substr(0, 2));  // -xVALUE
        if (opt != nullptr) continue;
      }
      if (opt == nullptr) {
        // A negative number may be an operand; anything else is a mistake.
        if (word[1] >= '0' && word[1] <= '9') continue;
        // "-x" is too short to guess from; a word nothing is near may sit
        // before the mistake that can be named (`gdmap --json chek`).
        if (name.size() <= 2) continue;
        if (const auto near = nearestName(name, optionNames(*level)))
          return UsageSuggestion{name, *near, commandPath(levels), true};
        continue;
      }
      // Skip the option's value when it is the next word.
      if (name.size() == word.size() && opt->takesValue) ++i;
      continue;
    }
    if (chosen) continue;
    if (const CommandSyntax* sub = findSubcommand(*level, word)) {
      level = sub;
      levels.push_back(sub);
      chosen = subcommandNames(*sub).empty();
      continue;
    }
    if (subcommandNames(*level).empty()) {
      chosen = true;
      continue;
    }
    const auto near = nearestName(word, subcommandNames(*level));
    if (!near) return std::nullopt;
    return UsageSuggestion{std::string(word), *near, commandPath(levels), false};
  }
  return std::nullopt;
}

}  // namespace gdmap::cli
