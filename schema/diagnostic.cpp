#include <gdmap/schema/diagnostic.hpp>

#include <gdmap/schema/hex.hpp>

namespace gdmap {

std::string quoteInput(std::string_view text, std::size_t maxBytes) {
  bool cut = false;
  if (text.size() > maxBytes) {
    std::size_t end = maxBytes;
    // Back up over UTF-8 continuation bytes so a character is never split.
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    text = text.substr(0, end);
    cut = true;
  }
  std::string out = "'";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\\' || c == '\'') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7F) {
      out += "\\x";
      out += hexDigit(u >> 4);
      out += hexDigit(u);
    } else {
      out += c;
    }
  }
  out += cut ? "'..." : "'";
  return out;
}

std::string formatDiagnostic(const Diagnostic& d, const std::string& fileName) {
  std::string out;
  if (!fileName.empty()) {
    out += fileName;
    if (d.line != 0) out += ':' + std::to_string(d.line) + ':' + std::to_string(d.column);
    out += ": ";
  }
  out += d.severity == Severity::Error ? "error: " : "warning: ";
  if (!d.path.empty()) out += d.path;
  if (d.offset != Diagnostic::npos && d.line == 0) {
    out += d.path.empty() ? "byte " : " (byte ";
    out += hex32(static_cast<std::uint32_t>(d.offset));
    if (!d.path.empty()) out += ')';
  }
  if (!d.path.empty() || (d.offset != Diagnostic::npos && d.line == 0)) out += ": ";
  out += d.message;
  if (!d.rule.empty()) out += " [" + d.rule + ']';
  return out;
}

}  // namespace gdmap
