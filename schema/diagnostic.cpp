#include <gdmap/schema/diagnostic.hpp>

#include <gdmap/schema/hex.hpp>

namespace gdmap {

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
