// gdmap check MAP [--strict] [--json]: validate a map and say whether it is
// canonical.
#include "commands.hpp"
#include "diagnostic_output.hpp"
#include "exit_status.hpp"
#include "file_io.hpp"

#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/map_view.hpp>

#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

namespace gdmap::cli {
namespace {

struct CheckCommandOptions {
  std::string map;
  bool strict = false;
  bool json = false;
  std::size_t maxDiagnostics = 100;
};

std::string count(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + ' ' + (n == 1 ? one : many);
}

int runCheck(const CheckCommandOptions& options) {
  auto input = InputBytes::open(options.map);
  if (!input) {
    printError(input.error().message);
    return kUsageOrIo;
  }
  const ByteSpan bytes = input->bytes();
  CheckOptions checkOptions;
  checkOptions.strict = options.strict;
  checkOptions.maxDiagnostics = options.maxDiagnostics;
  const CheckReport report = checkMap(bytes, checkOptions);
  CanonicalReport canonical;
  if (report.errors == 0) canonical = checkCanonical(bytes);

  if (options.json) {
    nlohmann::ordered_json out;
    out["file"] = input->displayName();
    out["valid"] = report.valid;
    out["errors"] = report.errors;
    out["warnings"] = report.warnings;
    out["truncated"] = report.truncated;
    out["diagnostics"] = nlohmann::ordered_json::parse(diagnosticsJson(report.diagnostics));
    if (report.errors == 0) {
      out["canonical"] = canonical.canonical;
      out["canonicalReasons"] = nlohmann::ordered_json::parse(diagnosticsJson(canonical.reasons));
    } else {
      out["canonical"] = nullptr;
    }
    std::cout << out.dump(2) << '\n';
  } else {
    printDiagnostics(report.diagnostics, input->displayName());
    if (report.truncated)
      std::cerr << input->displayName() << ": note: stopped listing after " << options.maxDiagnostics
                << " diagnostics\n";
    std::cout << input->displayName() << ": " << (report.valid ? "valid" : "invalid") << " ("
              << count(report.errors, "error", "errors") << ", " << count(report.warnings, "warning", "warnings") << ")";
    if (report.errors == 0) {
      if (auto view = MapView::open(bytes))
        std::cout << "; " << count(view->size(), "dictionary", "dictionaries") << ", " << view->heap().size() << " heap bytes";
      if (canonical.canonical) {
        std::cout << "; canonical";
      } else if (!canonical.reasons.empty()) {
        const Diagnostic& first = canonical.reasons.front();
        std::cout << "; not canonical: " << (first.path.empty() ? "" : first.path + ": ") << first.message;
      }
    }
    std::cout << '\n';
  }
  return report.valid ? kSuccess : kInvalid;
}

}  // namespace

void addCheckCommand(CLI::App& app, int& status) {
  auto options = std::make_shared<CheckCommandOptions>();
  auto* check = app.add_subcommand("check", "Validate a map against every rule of the format; exit 0 when valid");
  check->add_option("MAP", options->map, "The map ('-' for stdin)")->required();
  check->add_flag("--strict", options->strict, "Treat warnings as errors");
  check->add_flag("--json", options->json, "Write the verdict and diagnostics as JSON on stdout");
  check->add_option("--max-diagnostics", options->maxDiagnostics, "Stop listing problems after this many")
      ->default_val(100);
  check->callback([options, &status] { status = runCheck(*options); });
}

}  // namespace gdmap::cli
