#include "common/check_output.hpp"

#include "common/report.hpp"

#include <gdmap/internal/plural.hpp>
#include <gdmap/schema/rules.hpp>

namespace gdmap::cli {

void closeTruncatedList(CheckReport& checked) {
  if (!checked.truncated) return;
  for (const Diagnostic& d : checked.diagnostics)
    if (d.rule == rules::kTooManyDiagnostics) return;
  const std::size_t all = checked.errors + checked.warnings;
  const std::size_t listed = checked.diagnostics.size();
  checked.diagnostics.push_back(
      notListedNote(all > listed ? all - listed : 0, listed, checked.errors, checked.warnings));
}

void writeCheckCounts(const CheckReport& checked, JsonObject& out) {
  out.boolean("valid", checked.valid);
  out.number("errors", checked.errors);
  out.number("warnings", checked.warnings);
  out.boolean("truncated", checked.truncated);
}

std::string checkCounts(const CheckReport& checked) {
  return plural(checked.errors, "error", "errors") + ", " + plural(checked.warnings, "warning", "warnings");
}

std::string canonicalVerdict(bool canonical, const std::vector<Diagnostic>& reasons) {
  if (canonical) return "; canonical";
  if (reasons.empty()) return {};
  const Diagnostic& first = reasons.front();
  return "; not canonical: " + (first.path.empty() ? "" : first.path + ": ") + first.message;
}

}  // namespace gdmap::cli
