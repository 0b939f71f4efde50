#include "il_arguments.hpp"

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

std::optional<std::uint32_t> parseIlOffset(std::string_view text) {
  if (auto special = il::parseSpecialIl(text)) return special;
  return parseU32(text);
}

CLI::Validator u32Argument() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (parseU32(text)) return {};
        return quoteInput(text) + " is not a number below 2^32 (decimal or 0x hex)";
      },
      "");
}

CLI::Validator ilOffsetArgument() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (parseIlOffset(text)) return {};
        return quoteInput(text) + " is not an IL offset (decimal or 0x hex below 2^32, or prolog, epilog, no_mapping)";
      },
      "");
}

CLI::Validator formArgument() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (il::parseFormName(text)) return {};
        return quoteInput(text) + " is not a form: api, nibble, packed2 or packed3";
      },
      "");
}

il::BoundsForm formOf(const std::string& name) { return il::parseFormName(name).value_or(il::BoundsForm::Api); }

std::optional<std::uint32_t> optionalU32(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return parseU32(text);
}

std::string tokenText(std::uint32_t token) { return hex32(token); }

void addFormOption(CLI::App& command, const std::string& name, std::string& value, const std::string& what) {
  command.add_option(name, value, what + ": api, nibble, packed2 or packed3")
      ->type_name("FORM")
      ->required()
      ->check(formArgument());
}

void addMethodOption(CLI::App& command, std::string& value, const std::string& help) {
  command.add_option("--method", value, "The method's token (decimal or 0x hex); " + help)
      ->type_name("TOKEN")
      ->check(u32Argument());
}

void addInstantiationOption(CLI::App& command, std::string& value) {
  command
      .add_option("--instantiation", value,
                  "Which body of a method several instantiations share a token of, as listed when the choice is open: "
                  "'<int32>', '::<string>', '<int32>::<!!0>'")
      ->type_name("TEXT");
}

void addBinaryOutputOption(CLI::App& command, std::string& value) {
  command
      .add_option("-o,--output", value,
                  "Where to write the bytes ('-', the default, for stdout; refused on a terminal)")
      ->type_name("FILE");
}

}  // namespace gdmap::cli
