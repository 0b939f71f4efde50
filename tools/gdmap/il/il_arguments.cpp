#include "il/il_arguments.hpp"

#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>

#include <charconv>

namespace gdmap::cli {

std::optional<std::uint32_t> parseU32(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  // from_chars accepts no sign and no space, as wanted; it does not see a
  // second "0x" as a prefix either.
  std::uint32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::uint64_t> parseAddress(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::uint32_t> parseIlOffset(std::string_view text) {
  if (auto special = il::parseSpecialIl(text)) return special;
  return parseU32(text);
}

// A message quoting the text and what it should have been.
std::string problem(bool ok, const std::string& text, const char* expected) {
  return ok ? std::string() : quoteInput(text) + " is not " + expected;
}

std::string u32Problem(const std::string& text) {
  return problem(parseU32(text).has_value(), text, "a number below 2^32 (decimal or 0x hex)");
}

std::string addressProblem(const std::string& text) {
  return problem(parseAddress(text).has_value(), text, "an address below 2^64 (0x hex or decimal)");
}

std::string ilOffsetProblem(const std::string& text) {
  return problem(parseIlOffset(text).has_value(), text,
                 "an IL offset (decimal or 0x hex below 2^32, or prolog, epilog, no_mapping)");
}

std::string formProblem(const std::string& text) {
  return problem(il::parseFormName(text).has_value(), text, "a form: api, nibble, packed2 or packed3");
}

il::BoundsForm formOf(const std::string& name) { return il::parseFormName(name).value_or(il::BoundsForm::Api); }

std::optional<std::uint32_t> optionalU32(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return parseU32(text);
}

std::optional<std::uint64_t> optionalAddress(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return parseAddress(text);
}

std::string tokenText(std::uint32_t token) { return hex32(token); }

}  // namespace gdmap::cli
