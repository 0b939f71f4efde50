#pragma once
// Internal to reader/map: where the checker's findings go. Every finding is
// counted; a Diagnostic (strings and all) is built only when it will be kept,
// so a map with millions of bad entries costs counters, not memory.
#include <gdmap/reader/map_check.hpp>

#include <gdmap/internal/diagnostic_sink.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::detail {

// The checker's view of the shared capped sink: --strict makes warnings
// errors, the report's counts are kept current (a caller may look at them
// mid-check), and the canonical-form check may also want the first finding
// of each rule.
class DiagnosticSink {
 public:
  // `firstOfRule`, when given, also receives the first finding of each rule
  // even past maxDiagnostics: what the canonical-form check needs.
  DiagnosticSink(CheckReport& report, const CheckOptions& options, std::vector<Diagnostic>* firstOfRule)
      : report_(report),
        strict_(options.strict),
        sink_(report.diagnostics, options.maxDiagnostics),
        firstOfRule_(firstOfRule) {}

  // `path` and `message` are callables returning std::string, called only
  // when the Diagnostic is kept.
  template <typename Path, typename Message>
  void add(Severity severity, std::string_view rule, std::size_t offset, Path&& path, Message&& message) {
    if (strict_) severity = Severity::Error;  // --strict: warnings are errors
    const bool keep = sink_.admit(severity);
    ++(severity == Severity::Error ? report_.errors : report_.warnings);
    if (!keep) report_.truncated = true;
    const bool first = firstOfRule_ != nullptr && !seen(rule);
    if (!keep && !first) return;
    Diagnostic d;
    d.severity = severity;
    d.rule = std::string(rule);
    d.path = path();
    d.offset = offset;
    d.message = message();
    if (first) firstOfRule_->push_back(d);
    if (keep) sink_.keep(std::move(d));
  }

 private:
  // A handful of rule ids exist; a linear scan beats any map here.
  bool seen(std::string_view rule) const {
    for (const Diagnostic& d : *firstOfRule_) {
      if (d.rule == rule) return true;
    }
    return false;
  }

  CheckReport& report_;
  bool strict_;
  internal::DiagnosticSink<> sink_;
  std::vector<Diagnostic>* firstOfRule_;
};

}  // namespace gdmap::detail
