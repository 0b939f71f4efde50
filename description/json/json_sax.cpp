#include <gdmap/internal/json_sax.hpp>

#include <gdmap/schema/rules.hpp>

#include <utility>

namespace gdmap::description {

std::string syntaxErrorMessage(const std::string& what, const std::string& token) {
  // "[json.exception.parse_error.101] parse error at line 1, column 9: ..."
  std::string message = what;
  const auto dropThrough = [&](std::string_view separator) {
    if (const std::size_t at = message.find(separator); at != std::string::npos)
      message.erase(0, at + separator.size());
  };
  if (message.starts_with("[json.exception.")) dropThrough("] ");
  if (message.starts_with("parse error")) dropThrough(": ");
  if (token.empty()) return message;
  std::string quotedToken = "'";
  quotedToken += token;
  quotedToken += '\'';
  const std::size_t quoted = message.find(quotedToken);
  if (quoted == std::string::npos) return message;
  return message.substr(0, quoted) + quoteInput(token) + message.substr(quoted + quotedToken.size());
}

std::vector<Diagnostic> syntaxErrorDiagnostics(std::string_view text, std::size_t offset, std::string message,
                                               const DiagnosticList& dropped, DiagnosticWork& work) {
  DiagnosticList syntax;
  syntax.errorAt(rules::kInvalidJson, offset, std::move(message));
  std::vector<Diagnostic> out = syntax.finish(text);
  work = dropped.work();
  work.messageBytes += syntax.work().messageBytes;
  work.textBytesScanned += syntax.work().textBytesScanned;
  return out;
}

}  // namespace gdmap::description
