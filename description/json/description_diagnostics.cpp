#include <gdmap/internal/description_diagnostics.hpp>

#include <gdmap/internal/json_locator.hpp>

#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <utility>

namespace gdmap::description {

bool DiagnosticList::admit(Severity severity, std::size_t pointerBound) {
  if (!sink_.admit(severity)) return false;
  if (severity == Severity::Note && keptNotes_ >= kMaxKeptNotes) return false;
  return kept_.empty() || keptPointerBytes_ + pointerBound <= kMaxKeptPointerBytes;
}

void DiagnosticList::keep(Severity severity, std::string_view rule, const Site& site, std::string message,
                          std::size_t stringIndex) {
  Pending p;
  p.diagnostic.severity = severity;
  p.diagnostic.rule = rule;
  p.diagnostic.path = site.pointer();
  p.diagnostic.message = std::move(message);
  p.stringIndex = stringIndex;
  p.member = site.member();
  p.keyEnd = site.keyEnd();
  if (severity == Severity::Note) ++keptNotes_;
  keptPointerBytes_ += p.diagnostic.path.size();
  work_.messageBytes += p.diagnostic.message.size();
  sink_.keep(std::move(p));
}

void DiagnosticList::errorAt(std::string_view rule, std::size_t offset, std::string message) {
  if (!sink_.admit(Severity::Error)) return;
  Pending p;
  p.diagnostic.severity = Severity::Error;
  p.diagnostic.rule = rule;
  p.diagnostic.offset = offset;
  p.diagnostic.message = std::move(message);
  work_.messageBytes += p.diagnostic.message.size();
  sink_.keep(std::move(p));
}

std::vector<Diagnostic> DiagnosticList::finish(std::string_view text) {
  // Offsets of the values the pointers name, all in one scan.
  std::vector<json_location::Target> targets;
  std::vector<std::size_t> needsLookup;
  for (std::size_t i = 0; i < kept_.size(); ++i) {
    if (kept_[i].diagnostic.offset != Diagnostic::npos) continue;
    if (kept_[i].keyEnd != Diagnostic::npos && kept_[i].stringIndex == Diagnostic::npos) {
      const std::size_t value = json_location::valueAfterKey(text, kept_[i].keyEnd);
      work_.textBytesScanned += value - std::min(kept_[i].keyEnd, value);
      kept_[i].diagnostic.offset = value;
      continue;
    }
    needsLookup.push_back(i);
    targets.emplace_back(kept_[i].diagnostic.path, kept_[i].member);
  }
  std::size_t scanned = 0;
  const std::vector<std::size_t> found =
      targets.empty() ? std::vector<std::size_t>{} : json_location::locatePointers(text, targets, &scanned);
  work_.textBytesScanned += scanned;
  for (std::size_t k = 0; k < needsLookup.size(); ++k) {
    Pending& p = kept_[needsLookup[k]];
    std::size_t offset = found[k];
    if (offset != json_location::npos && p.stringIndex != Diagnostic::npos && offset < text.size() &&
        text[offset] == '"') {
      const std::size_t inString = json_location::stringCharacterOffset(text, offset, p.stringIndex);
      work_.textBytesScanned += inString - offset;
      offset = inString;
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
  if (!offsets.empty())
    work_.textBytesScanned += std::min(*std::max_element(offsets.begin(), offsets.end()), text.size());
  for (std::size_t k = 0; k < located.size(); ++k) {
    kept_[located[k]].diagnostic.line = positions[k].line;
    kept_[located[k]].diagnostic.column = positions[k].column;
  }

  std::vector<Diagnostic> out;
  out.reserve(kept_.size() + 1);
  for (Pending& p : kept_) out.push_back(std::move(p.diagnostic));
  // In file order, as a reader goes through the file fixing them; npos
  // (nothing located) sorts last.
  std::stable_sort(out.begin(), out.end(),
                   [](const Diagnostic& a, const Diagnostic& b) { return a.offset < b.offset; });
  const std::size_t total = sink_.total();
  if (total > out.size()) {
    Diagnostic note;
    note.severity = Severity::Note;
    note.rule = rules::kTooManyDiagnostics;
    note.message = std::to_string(total - out.size()) + " more problem(s) not listed, after the first " +
                   std::to_string(out.size()) + "; " + std::to_string(errorCount()) + " error(s) and " +
                   std::to_string(warningCount()) + " warning(s) in all";
    if (const std::size_t notes = sink_.count(Severity::Note); notes != 0)
      note.message += ", and " + std::to_string(notes) + " note(s)";
    out.push_back(std::move(note));
  }
  kept_.clear();
  keptPointerBytes_ = 0;
  return out;
}

}  // namespace gdmap::description
