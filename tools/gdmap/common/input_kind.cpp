#include "common/input_kind.hpp"

#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/map_format.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>

namespace gdmap::cli {
namespace {

bool isJsonSpace(std::uint8_t b) { return b == ' ' || b == '\t' || b == '\n' || b == '\r'; }
bool isBinaryControl(std::uint8_t b) { return b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f'; }

// The DOS header's "MZ" and, at e_lfanew (its u32 at 0x3c), the PE
// signature: what the PE reader looks for first.
bool isPeImage(ByteSpan bytes) {
  if (bytes.size() < 0x40 || bytes[0] != 'M' || bytes[1] != 'Z') return false;
  const std::uint32_t peAt = readU32(bytes, 0x3c);
  return peAt <= bytes.size() - 4 && bytes[peAt] == 'P' && bytes[peAt + 1] == 'E' && bytes[peAt + 2] == 0 &&
         bytes[peAt + 3] == 0;
}

}  // namespace

InputKind sniffInputKind(ByteSpan bytes) {
  const ByteSpan head = bytes.first(std::min(bytes.size(), kSniffBytes));
  if (isPeImage(bytes)) return InputKind::PeImage;
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
  if (noteWrongKind(input, InputKind::PeImage, "a PE image", "a JSON IL description", "gdmap il extract", report))
    return true;
  return noteWrongKind(input, InputKind::Binary, "a binary IL-to-native map", "a JSON IL description",
                       "gdmap il dump --format FORM", report);
}

bool noteJsonNotPeImage(const InputBytes& input, Report& report) {
  return noteWrongKind(input, InputKind::Json, "a JSON IL description", "a PE image", "gdmap il build --format FORM",
                       report);
}

// The first type named rather than given a token: `class` or `valuetype`
// starting a word, then something other than a token's digits.
std::string_view firstTypeName(std::string_view text) {
  for (const std::string_view word : {std::string_view("class "), std::string_view("valuetype ")}) {
    for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
      if (at > 0 && std::string_view("\"<, (").find(text[at - 1]) == std::string_view::npos) continue;
      std::size_t name = at + word.size();
      while (name < text.size() && text[name] == ' ') ++name;
      if (name >= text.size() || (text[name] >= '0' && text[name] <= '9') || text[name] == '"') continue;
      const std::size_t end = text.find_first_of("\"<,", name);
      return text.substr(at, std::min<std::size_t>(end == std::string_view::npos ? text.size() - at : end - at, 80));
    }
  }
  return {};
}

bool noteNamesNeeded(const InputBytes& input, Report& report) {
  const std::string_view name = firstTypeName(input.text());
  if (name.empty()) return false;
  Diagnostic note;
  note.severity = Severity::Note;
  note.rule = rules::kNamesNeeded;
  note.file = input.displayName();
  note.message = "its types are written by name (`" + std::string(name) +
                 "`), as `gdmap dump --names` writes them; did you mean to add `--names ASSEMBLY`, the assembly "
                 "that names them?";
  report.add(std::move(note));
  return true;
}

}  // namespace gdmap::cli
