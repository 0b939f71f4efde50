#include "input_kind.hpp"

#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>

namespace gdmap::cli {
namespace {

bool isJsonSpace(std::uint8_t b) { return b == ' ' || b == '\t' || b == '\n' || b == '\r'; }
bool isBinaryControl(std::uint8_t b) { return b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f'; }

}  // namespace

InputKind sniffInputKind(ByteSpan bytes) {
  const ByteSpan head = bytes.first(std::min(bytes.size(), kSniffBytes));
  if (std::ranges::any_of(head, isBinaryControl)) return InputKind::Binary;
  // A UTF-8 byte order mark is text's, not a map's.
  std::size_t i = head.size() >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF ? 3 : 0;
  while (i < head.size() && isJsonSpace(head[i])) ++i;
  if (i < head.size() && (head[i] == '{' || head[i] == '[')) return InputKind::Json;
  return InputKind::Other;
}

std::string shellWord(std::string_view word) {
  const bool plain = !word.empty() && std::ranges::all_of(word, [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("._-/+=:,@%").find(c) != std::string_view::npos;
  });
  if (plain) return std::string(word);
  std::string out = "'";
  for (const char c : word) {
    const auto u = static_cast<std::uint8_t>(c);
    if (c == '\'') {
      out += "'\\''";
    } else if (u < 0x20 || u == 0x7F) {
      out += "\\x";
      out += hexDigit(u >> 4);
      out += hexDigit(u);
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

bool noteWrongKind(const InputBytes& input, InputKind kind, std::string_view what, std::string_view expected,
                   std::string_view command, Report& report) {
  if (sniffInputKind(input.bytes()) != kind) return false;
  const std::string& name = input.displayName();
  const bool fromStdin = name == "stdin";
  Diagnostic note;
  note.severity = Severity::Note;
  note.rule = rules::kWrongInputKind;
  note.file = name;
  note.message = std::string(fromStdin ? "this" : "it") + " looks like " + std::string(what) + ", not " +
                 std::string(expected) + "; did you mean `" + std::string(command) + ' ' +
                 (fromStdin ? std::string("-") : shellWord(name)) + "`?";
  report.add(std::move(note));
  return true;
}

bool noteJsonNotMap(const InputBytes& input, Report& report) {
  return noteWrongKind(input, InputKind::Json, "a JSON description", "a binary map", "gdmap build", report);
}

bool noteJsonNotIlBlob(const InputBytes& input, Report& report) {
  return noteWrongKind(input, InputKind::Json, "a JSON IL description", "a binary IL-to-native map", "gdmap il build",
                       report);
}

bool noteBinaryNotDescription(const InputBytes& input, Report& report) {
  return noteWrongKind(input, InputKind::Binary, "a binary map", "a JSON description", "gdmap dump", report);
}

bool noteBinaryNotIlDescription(const InputBytes& input, Report& report) {
  return noteWrongKind(input, InputKind::Binary, "a binary IL-to-native map", "a JSON IL description",
                       "gdmap il dump --format FORM", report);
}

}  // namespace gdmap::cli
