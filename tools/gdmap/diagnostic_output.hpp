#pragma once
// How the CLI shows diagnostics: text lines on stderr, or a JSON document
// (--json) for machines.
#include <gdmap/schema/diagnostic.hpp>

#include <string>
#include <vector>

namespace gdmap::cli {

// One line each on stderr, prefixed with the input's name.
void printDiagnostics(const std::vector<Diagnostic>& diagnostics, const std::string& inputName);

// A JSON array of diagnostics, each with severity, rule, path, offset (null
// when none), line, column and message.
std::string diagnosticsJson(const std::vector<Diagnostic>& diagnostics);

// A one-off error that is not about a location in the input (usage, I/O).
void printError(const std::string& message);

}  // namespace gdmap::cli
