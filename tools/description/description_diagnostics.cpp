#include "description_diagnostics.hpp"

#include "json_locator.hpp"

#include <algorithm>
#include <utility>

namespace gdmap::description {

void DiagnosticList::add(Pending p) {
  if (p.diagnostic.severity == Severity::Error) ++errors_;
  if (kept_.size() >= kMaxKept) {
    ++dropped_;
    return;
  }
  kept_.push_back(std::move(p));
}

void DiagnosticList::error(std::string rule, std::string pointer, std::string message, std::size_t stringIndex) {
  Pending p;
  p.diagnostic.severity = Severity::Error;
  p.diagnostic.rule = std::move(rule);
  p.diagnostic.path = std::move(pointer);
  p.diagnostic.message = std::move(message);
  p.stringIndex = stringIndex;
  add(std::move(p));
}

void DiagnosticList::warning(std::string rule, std::string pointer, std::string message) {
  Pending p;
  p.diagnostic.severity = Severity::Warning;
  p.diagnostic.rule = std::move(rule);
  p.diagnostic.path = std::move(pointer);
  p.diagnostic.message = std::move(message);
  add(std::move(p));
}

void DiagnosticList::errorAt(std::string rule, std::size_t offset, std::string message) {
  Pending p;
  p.diagnostic.severity = Severity::Error;
  p.diagnostic.rule = std::move(rule);
  p.diagnostic.offset = offset;
  p.diagnostic.message = std::move(message);
  add(std::move(p));
}

std::vector<Diagnostic> DiagnosticList::finish(std::string_view text) {
  // Offsets of the values the pointers name, all in one scan.
  std::vector<std::string> pointers;
  std::vector<std::size_t> needsLookup;
  for (std::size_t i = 0; i < kept_.size(); ++i) {
    if (kept_[i].diagnostic.offset != Diagnostic::npos) continue;
    needsLookup.push_back(i);
    pointers.push_back(kept_[i].diagnostic.path);
  }
  const std::vector<std::size_t> found = json_location::locatePointers(text, pointers);
  for (std::size_t k = 0; k < needsLookup.size(); ++k) {
    Pending& p = kept_[needsLookup[k]];
    std::size_t offset = found[k];
    if (offset != json_location::npos && p.stringIndex != Diagnostic::npos && offset < text.size() &&
        text[offset] == '"') {
      offset = json_location::stringCharacterOffset(text, offset, p.stringIndex);
    }
    p.diagnostic.offset = offset;
  }

  std::vector<std::size_t> offsets;
  std::vector<std::size_t> located;
  for (std::size_t i = 0; i < kept_.size(); ++i) {
    if (kept_[i].diagnostic.offset == Diagnostic::npos) continue;
    located.push_back(i);
    offsets.push_back(kept_[i].diagnostic.offset);
  }
  const std::vector<json_location::LineColumn> positions = json_location::lineColumns(text, offsets);
  for (std::size_t k = 0; k < located.size(); ++k) {
    kept_[located[k]].diagnostic.line = positions[k].line;
    kept_[located[k]].diagnostic.column = positions[k].column;
  }

  std::vector<Diagnostic> out;
  out.reserve(kept_.size() + 1);
  for (Pending& p : kept_) out.push_back(std::move(p.diagnostic));
  // In file order, as a reader goes through the file fixing them; npos
  // (nothing located) sorts last.
  std::stable_sort(out.begin(), out.end(), [](const Diagnostic& a, const Diagnostic& b) { return a.offset < b.offset; });
  if (dropped_ != 0) {
    Diagnostic note;
    note.severity = Severity::Error;
    note.rule = "too-many-diagnostics";
    note.message = std::to_string(dropped_) + " more problem(s) not shown (only the first " +
                   std::to_string(kMaxKept) + " are listed)";
    out.push_back(std::move(note));
  }
  kept_.clear();
  return out;
}

}  // namespace gdmap::description
