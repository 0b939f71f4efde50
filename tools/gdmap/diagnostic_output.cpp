#include "diagnostic_output.hpp"

#include <iostream>

#include <nlohmann/json.hpp>

namespace gdmap::cli {

void printDiagnostics(const std::vector<Diagnostic>& diagnostics, const std::string& inputName) {
  for (const Diagnostic& d : diagnostics) std::cerr << formatDiagnostic(d, inputName) << '\n';
}

std::string diagnosticsJson(const std::vector<Diagnostic>& diagnostics) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Diagnostic& d : diagnostics) {
    nlohmann::ordered_json item;
    item["severity"] = d.severity == Severity::Error ? "error" : "warning";
    item["rule"] = d.rule;
    item["path"] = d.path;
    item["offset"] = d.offset == Diagnostic::npos ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(d.offset);
    if (d.line != 0) {
      item["line"] = d.line;
      item["column"] = d.column;
    }
    item["message"] = d.message;
    list.push_back(std::move(item));
  }
  return list.dump(2);
}

void printError(const std::string& message) { std::cerr << "gdmap: error: " << message << '\n'; }

}  // namespace gdmap::cli
