#include <gdmap/schema/diagnostic.hpp>

#include <gdmap/internal/utf8_boundary.hpp>
#include <gdmap/schema/hex.hpp>

#include <utility>

namespace gdmap {
namespace {

// The length of the well-formed UTF-8 sequence that starts at text[i]
// (Unicode 15, table 3-7: no overlong forms, no surrogates, nothing above
// U+10FFFF), or 0 when the byte there starts none.
std::size_t utf8SequenceLength(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (text.size() - i < length) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  return length;
}

void appendEscapedByte(unsigned char c, std::string& out) {
  out += "\\x";
  out += hexDigit(c >> 4);
  out += hexDigit(c);
}

// Line and column (1-based, in code points) of byte `offset` of `text`.
void lineAndColumn(std::string_view text, std::size_t offset, std::size_t& line, std::size_t& column) {
  if (offset > text.size()) offset = text.size();
  column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++column;
    }
  }
}

}  // namespace

const char* severityName(Severity severity) {
  switch (severity) {
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
    case Severity::Error: break;
  }
  return "error";
}

Diagnostic binaryDiagnostic(const Error& error, std::string path, std::size_t base, Severity severity) {
  Diagnostic d;
  d.severity = severity;
  d.rule = error.rule;
  if (path.empty()) {
    d.path = error.path;
  } else {
    d.path = std::move(path);
  }
  d.offset = base + error.byteOffset();
  switch (error.unit) {
    case OffsetUnit::Nibble: d.message = "nibble " + std::to_string(error.offset) + ": " + error.message; break;
    case OffsetUnit::Bit: d.message = "bit " + std::to_string(error.offset) + ": " + error.message; break;
    case OffsetUnit::Byte: d.message = error.message; break;
  }
  return d;
}

Diagnostic textDiagnostic(const Error& error, std::string_view text, std::size_t firstLine, std::string path,
                          Severity severity) {
  Diagnostic d;
  d.severity = severity;
  d.rule = error.rule;
  d.path = std::move(path);
  d.offset = error.offset < text.size() ? error.offset : text.size();
  d.line = firstLine;
  lineAndColumn(text, d.offset, d.line, d.column);
  d.message = error.message;
  return d;
}

std::string quoteInput(std::string_view text, std::size_t maxBytes) {
  bool cut = false;
  if (text.size() > maxBytes) {
    text = text.substr(0, utf8BoundaryBefore(text, maxBytes));
    cut = true;
  }
  std::string out = "'";
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const auto u = static_cast<unsigned char>(c);
    if (c == '\\' || c == '\'') {
      out += '\\';
      out += c;
      ++i;
    } else if (u < 0x20 || u == 0x7F) {
      appendEscapedByte(u, out);
      ++i;
    } else if (const std::size_t length = utf8SequenceLength(text, i); length != 0) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      appendEscapedByte(u, out);  // not UTF-8: shown, never passed through
      ++i;
    }
  }
  out += cut ? "'..." : "'";
  return out;
}

std::string shownPath(std::string_view path) {
  if (path.size() <= kMaxShownPathBytes) return std::string(path);
  constexpr std::size_t kTail = 40;
  const std::size_t headEnd = utf8BoundaryBefore(path, kMaxShownPathBytes - kTail);
  const std::size_t tailStart = utf8BoundaryAfter(path, path.size() - kTail);
  std::string out(path.substr(0, headEnd));
  out += "\xE2\x80\xA6";  // U+2026, the ellipsis
  out.append(path.substr(tailStart));
  out += " (" + std::to_string(path.size()) + " bytes)";
  return out;
}

std::string shownMessage(std::string_view message) {
  if (message.size() <= kMaxShownMessageBytes) return std::string(message);
  std::string out(message.substr(0, utf8BoundaryBefore(message, kMaxShownMessageBytes)));
  out += "...";
  return out;
}

std::string formatDiagnostic(const Diagnostic& d, const std::string& fileName) {
  const std::string file = shownPath(fileName.empty() ? d.file : fileName);
  const std::string path = shownPath(d.path);
  std::string out;
  if (!file.empty()) {
    out += file;
    if (d.line != 0) out += ':' + std::to_string(d.line) + ':' + std::to_string(d.column);
    out += ": ";
  }
  out += severityName(d.severity);
  out += ": ";
  // A text input is located by line and column; a byte offset is only
  // worth showing for binaries.
  const bool showByte = d.offset != Diagnostic::npos && d.line == 0;
  if (!path.empty()) out += path;
  if (showByte) {
    out += path.empty() ? "byte " : " (byte ";
    appendHex32(static_cast<std::uint32_t>(d.offset), out);
    if (!path.empty()) out += ')';
  }
  if (!path.empty() || showByte) out += ": ";
  out += shownMessage(d.message);
  if (!d.rule.empty()) out += " [" + d.rule + ']';
  return out;
}

void appendJsonString(std::string_view text, std::string& out) {
  out += '"';
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      const std::size_t length = utf8SequenceLength(text, i);
      if (length == 0) {
        out += "\\ufffd";  // one replacement per byte that starts no character
        ++i;
      } else {
        out.append(text.substr(i, length));
        i += length;
      }
      continue;
    }
    ++i;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (u < 0x20 || u == 0x7F) {
          out += "\\u00";
          out += hexDigit(u >> 4);
          out += hexDigit(u);
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void appendDiagnosticJson(const Diagnostic& d, std::string& out) {
  out += "{\"severity\": \"";
  out += severityName(d.severity);
  out += "\", \"rule\": ";
  appendJsonString(d.rule, out);
  out += ", \"message\": ";
  appendJsonString(shownMessage(d.message), out);
  if (!d.file.empty()) {
    out += ", \"file\": ";
    appendJsonString(shownPath(d.file), out);
  }
  out += ", \"path\": ";
  appendJsonString(shownPath(d.path), out);
  out += ", \"offset\": ";
  out += d.offset == Diagnostic::npos ? std::string("null") : std::to_string(d.offset);
  if (d.line != 0) {
    out += ", \"line\": " + std::to_string(d.line);
    out += ", \"column\": " + std::to_string(d.column);
  }
  out += '}';
}

std::string diagnosticJson(const Diagnostic& d) {
  std::string out;
  appendDiagnosticJson(d, out);
  return out;
}

std::string diagnosticsJson(const std::vector<Diagnostic>& diagnostics, std::size_t indent) {
  if (diagnostics.empty()) return "[]";
  std::string out = "[";
  for (std::size_t i = 0; i < diagnostics.size(); ++i) {
    out += i == 0 ? "\n" : ",\n";
    out.append(indent + 2, ' ');
    appendDiagnosticJson(diagnostics[i], out);
  }
  out += '\n';
  out.append(indent, ' ');
  out += ']';
  return out;
}

}  // namespace gdmap
