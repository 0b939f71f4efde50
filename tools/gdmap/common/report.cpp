#include "common/report.hpp"

#include "app/exit_status.hpp"
#include "common/source_line.hpp"

#include <gdmap/schema/rules.hpp>

#include <iostream>
#include <utility>

namespace gdmap::cli {
namespace {

void printText(const Diagnostic& d) {
  // A diagnostic about no input is the program's own: "gdmap: error: ...".
  std::cerr << formatDiagnostic(d, d.file.empty() ? "gdmap" : "") << '\n';
}

}  // namespace

Diagnostic notListedNote(std::size_t notListed, std::size_t listed, std::size_t errors, std::size_t warnings) {
  Diagnostic note;
  note.severity = Severity::Note;
  note.rule = rules::kTooManyDiagnostics;
  note.message = std::to_string(notListed) + " more problem(s) not listed, after the first " + std::to_string(listed) +
                 "; " + std::to_string(errors) + " error(s) and " + std::to_string(warnings) + " warning(s) in all";
  return note;
}

Report::Report(bool json, std::size_t maxListed) : json_(json), maxListed_(maxListed), object_(std::cout) {}

void Report::nameInput(const std::string& path, const char* key) {
  if (json_) object_.string(key, path == "-" ? "stdin" : path);
}

void Report::add(Diagnostic d) {
  if (d.severity == Severity::Error) ++errors_;
  if (d.severity == Severity::Warning) ++warnings_;
  if (listed_ >= maxListed_) {
    ++notListed_;
    if (notListedFile_ != d.file) notListedFile_ = d.file;
    return;
  }
  ++listed_;
  if (json_) {
    kept_.push_back(std::move(d));
  } else {
    printText(d);
  }
}

void Report::add(std::vector<Diagnostic> diagnostics, const std::string& file) {
  for (Diagnostic& d : diagnostics) {
    if (d.file.empty()) d.file = file;
    add(std::move(d));
  }
}

void Report::add(std::vector<Diagnostic> diagnostics, const std::string& file, std::string_view text) {
  for (Diagnostic& d : diagnostics) {
    if (d.file.empty()) d.file = file;
    const bool excerpt = !json_ && d.rule == rules::kInvalidJson && d.offset != Diagnostic::npos;
    const std::size_t listedBefore = listed_;
    const std::size_t offset = d.offset;
    const std::size_t line = d.line;
    add(std::move(d));
    if (excerpt && listed_ != listedBefore) std::cerr << sourceExcerpt(text, offset, line);
  }
}

int Report::fail(int status, const char* rule, std::string message, std::string file) {
  Diagnostic d;
  d.rule = rule;
  d.message = std::move(message);
  d.file = std::move(file);
  add(std::move(d));
  return status;
}

void Report::countUnlisted(const std::vector<Diagnostic>& listed, std::size_t errors, std::size_t warnings) {
  std::size_t listedErrors = 0;
  std::size_t listedWarnings = 0;
  for (const Diagnostic& d : listed) {
    if (d.severity == Severity::Error) ++listedErrors;
    if (d.severity == Severity::Warning) ++listedWarnings;
  }
  if (errors > listedErrors) errors_ += errors - listedErrors;
  if (warnings > listedWarnings) warnings_ += warnings - listedWarnings;
}

int Report::finish(int status) {
  if (notListed_ != 0) {
    Diagnostic note = notListedNote(notListed_, listed_, errors_, warnings_);
    note.file = notListedFile_;
    notListed_ = 0;
    if (json_) {
      kept_.push_back(std::move(note));
    } else {
      printText(note);
    }
  }
  bool written = true;
  if (json_) {
    if (!object_.has("errors")) object_.number("errors", errors_);
    if (!object_.has("warnings")) object_.number("warnings", warnings_);
    object_.raw("diagnostics", diagnosticsJson(kept_, 2));
    kept_.clear();
    written = object_.close();
  } else {
    std::cout.flush();
    written = static_cast<bool>(std::cout);
  }
  return written ? status : stdoutFailed();
}

int Report::stdoutFailed() {
  if (!stdoutFailed_) {
    stdoutFailed_ = true;
    // Nowhere else to say it: stderr, in text, whatever the mode.
    Diagnostic d;
    d.rule = rules::kOutputUnwritable;
    d.file = "stdout";
    d.message = "cannot write";
    printText(d);
  }
  return kUsageOrIo;
}

}  // namespace gdmap::cli
