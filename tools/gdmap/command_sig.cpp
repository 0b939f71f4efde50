// gdmap sig encode|decode: ILAsm type text <-> signature bytes, one item per
// operand or, with no operands, one per stdin line.
#include "commands.hpp"
#include "diagnostic_output.hpp"
#include "exit_status.hpp"

#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/type_text.hpp>
#include <gdmap/writer/type_encoder.hpp>

#include <functional>
#include <iostream>
#include <string>
#include <vector>

namespace gdmap::cli {
namespace {

// A conversion failure: `column` is 1-based in the item's text (0 = none).
struct ItemFailure {
  std::size_t column = 0;
  std::string message;
};
using Converter = std::function<bool(std::string_view item, std::string& out, ItemFailure& failure)>;

bool encodeItem(std::string_view text, std::string& out, ItemFailure& failure) {
  auto type = parseType(text);
  if (!type) {
    failure = {type.error().offset + 1, type.error().message};
    return false;
  }
  auto bytes = encodeType(*type);
  if (!bytes) {
    failure = {0, bytes.error().message};
    return false;
  }
  out += toHex(*bytes);
  return true;
}

// The column of the first digit of byte `index` in hex text with spaces.
std::size_t columnOfByte(std::string_view text, std::size_t index) {
  std::size_t digits = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n') continue;
    if (digits == 2 * index) return i + 1;
    ++digits;
  }
  return text.size() + 1;
}

bool decodeItem(std::string_view text, std::string& out, ItemFailure& failure) {
  auto bytes = parseHex(text);
  if (!bytes) {
    failure = {bytes.error().offset + 1, bytes.error().message};
    return false;
  }
  auto type = decodeTypeBlob(*bytes);
  if (!type) {
    const std::size_t at = type.error().offset;
    failure = {columnOfByte(text, at), "byte " + std::to_string(at) + ": " + type.error().message};
    return false;
  }
  formatType(*type, out);
  return true;
}

void reportFailure(const std::string& where, const ItemFailure& failure) {
  std::cerr << where;
  if (failure.column != 0) std::cerr << ':' << failure.column;
  std::cerr << ": error: " << failure.message << '\n';
}

int convertOperands(const std::vector<std::string>& items, const Converter& convert) {
  int status = kSuccess;
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    ItemFailure failure;
    if (!convert(items[i], out, failure)) {
      reportFailure("argument " + std::to_string(i + 1), failure);
      status = kInvalid;
    }
    out += '\n';
  }
  std::cout << out << std::flush;
  return std::cout ? status : kUsageOrIo;
}

// One result line per input line, in order; a failed line leaves an empty
// output line so results stay aligned with their inputs.
int convertLines(const Converter& convert) {
  std::ios::sync_with_stdio(false);
  int status = kSuccess;
  std::string line;
  std::string out;
  std::size_t lineNumber = 0;
  while (std::getline(std::cin, line)) {
    ++lineNumber;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    ItemFailure failure;
    if (!convert(line, out, failure)) {
      reportFailure("stdin:" + std::to_string(lineNumber), failure);
      status = kInvalid;
    }
    out += '\n';
    if (out.size() >= (1u << 16)) {
      std::cout << out;
      out.clear();
    }
  }
  if (std::cin.bad()) {
    printError("stdin: cannot read");
    return kUsageOrIo;
  }
  std::cout << out << std::flush;
  return std::cout ? status : kUsageOrIo;
}

void addConversion(CLI::App& sig, const char* name, const char* help, const char* itemName,
                   Converter convert, int& status) {
  auto* command = sig.add_subcommand(name, help);
  auto items = std::make_shared<std::vector<std::string>>();
  command->add_option(itemName, *items, "Items to convert; none: read one per line from stdin");
  command->callback([items, convert, &status] {
    status = items->empty() ? convertLines(convert) : convertOperands(*items, convert);
  });
}

}  // namespace

void addSigCommand(CLI::App& app, int& status) {
  auto* sig = app.add_subcommand("sig", "Convert one ECMA-335 type signature between ILAsm text and bytes");
  sig->require_subcommand(1);
  addConversion(*sig, "encode",
                "ILAsm type text -> lowercase hex bytes, e.g. 'class 0x01000012<int32, !0[]>' -> 15124902081d1300",
                "TYPE", encodeItem, status);
  addConversion(*sig, "decode",
                "Hex bytes (spaces and either case allowed) -> ILAsm type text, e.g. '15 12 49 01 08' -> "
                "class 0x01000012<int32>",
                "HEX", decodeItem, status);
}

}  // namespace gdmap::cli
