#pragma once
// The diagnostics of one description parse: counted, capped, collected by
// JSON pointer while parsing (positions are not known then), and given byte
// offsets, lines and columns in one pass over the text at the end.
//
// A file can hold millions of errors, so the cost of a diagnostic that is
// not kept must be a counter increment and nothing more: the pointer and the
// message are given as a Site and a callable and built only for a
// diagnostic that is kept. That, and the caps below, keep all diagnostic
// work linear in the size of the text, however many errors it has.
#include <gdmap/schema/diagnostic.hpp>

#include <gdmap/internal/diagnostic_sink.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gdmap::description {

// What the diagnostics of one parse cost, counted so that a test can check
// that the cost is linear without looking at a clock.
struct DiagnosticWork {
  std::size_t pointersBuilt = 0;     // JSON pointers built, by any Site
  std::size_t pointerBytes = 0;      // their total length
  std::size_t messageBytes = 0;      // the total length of the messages built
  std::size_t textBytesScanned = 0;  // bytes of the text the locator went over
};

// Where the value a diagnostic is about is, given lazily.
class Site {
 public:
  // The RFC 6901 pointer of the value: to be built only for a kept
  // diagnostic (each build is counted in the parse's DiagnosticWork).
  std::string pointer() const {
    std::string out = buildPointer();
    ++work_.pointersBuilt;
    work_.pointerBytes += out.size();
    return out;
  }
  // An upper bound of pointer().size(), known without building the pointer
  // (for the byte cap on kept pointers).
  virtual std::size_t pointerBound() const = 0;
  // When the pointer's last token names a member of an object: that
  // member's ordinal in the object (0 for its first member), which tells
  // apart the members of an object that has the key twice. npos otherwise;
  // the pointer's tokens then name the first member with their key.
  virtual std::size_t member() const { return Diagnostic::npos; }
  // When the value is a member's and the reader saw where its name ends
  // (the offset just past the name's closing quote): the value is found
  // from there, without scanning the text from its start. npos otherwise.
  virtual std::size_t keyEnd() const { return Diagnostic::npos; }

 protected:
  explicit Site(DiagnosticWork& work) : work_(work) {}
  ~Site() = default;
  virtual std::string buildPointer() const = 0;

 private:
  DiagnosticWork& work_;
};

class DiagnosticList {
 public:
  DiagnosticList() = default;
  // The sink refers to kept_: a copy would keep into the original.
  DiagnosticList(const DiagnosticList&) = delete;
  DiagnosticList& operator=(const DiagnosticList&) = delete;
  // Past this many, diagnostics are counted, not kept: a broken
  // million-entry file should not print a million lines.
  static constexpr std::size_t kMaxKept = 100;
  // Notes keep to a share of that, so that a description with thousands
  // of overrides (a dump of a broken map) still shows its errors.
  static constexpr std::size_t kMaxKeptNotes = 20;
  // Pointers are kept exact (a machine must be able to follow them), so a
  // member name of megabytes makes a pointer of megabytes; past this many
  // bytes of kept pointers, diagnostics are counted, not kept (the first
  // one is always kept). Real pointers are a few dozen bytes.
  static constexpr std::size_t kMaxKeptPointerBytes = std::size_t{64} * 1024;

  // A problem with the value at `site`. `message` is a callable returning
  // the message, called only when the diagnostic is kept. `stringIndex`: for
  // a problem inside a string value (a type's text, a hex digit), the byte
  // index in the decoded string, so the position can point at the exact
  // character.
  template <typename Message>
  void error(std::string_view rule, const Site& site, Message&& message, std::size_t stringIndex = Diagnostic::npos) {
    if (admit(Severity::Error, site.pointerBound())) {
      keep(Severity::Error, rule, site, std::forward<Message>(message)(), stringIndex);
    }
  }
  template <typename Message>
  void warning(std::string_view rule, const Site& site, Message&& message) {
    if (admit(Severity::Warning, site.pointerBound())) {
      keep(Severity::Warning, rule, site, std::forward<Message>(message)(), Diagnostic::npos);
    }
  }
  // Not a problem: something the reader should know (an override that
  // makes bytes a canonical build would not write).
  template <typename Message>
  void note(std::string_view rule, const Site& site, Message&& message) {
    if (admit(Severity::Note, site.pointerBound())) {
      keep(Severity::Note, rule, site, std::forward<Message>(message)(), Diagnostic::npos);
    }
  }
  // A problem whose byte offset is already known (invalid JSON).
  void errorAt(std::string_view rule, std::size_t offset, std::string message);

  // Every diagnostic reported, kept or not.
  std::size_t errorCount() const { return sink_.count(Severity::Error); }
  std::size_t warningCount() const { return sink_.count(Severity::Warning); }

  // Fills in offsets, lines and columns (`text` must be the parsed JSON;
  // when it is not valid JSON, only diagnostics with a known offset should
  // be here), sorts by position, and adds a too-many-diagnostics note that
  // says how many were not kept and how many errors and warnings there were
  // in all.
  std::vector<Diagnostic> finish(std::string_view text);

  // Shared with the Sites, which count the pointers they build.
  DiagnosticWork& work() { return work_; }
  const DiagnosticWork& work() const { return work_; }

 private:
  struct Pending {
    Diagnostic diagnostic;
    std::size_t stringIndex = Diagnostic::npos;
    std::size_t member = Diagnostic::npos;
    std::size_t keyEnd = Diagnostic::npos;
  };

  // Counts a diagnostic; true when it is to be built and kept.
  bool admit(Severity severity, std::size_t pointerBound);
  void keep(Severity severity, std::string_view rule, const Site& site, std::string message, std::size_t stringIndex);

  std::vector<Pending> kept_;
  internal::DiagnosticSink<Pending> sink_{kept_, kMaxKept};
  std::size_t keptPointerBytes_ = 0;
  std::size_t keptNotes_ = 0;
  DiagnosticWork work_;
};

}  // namespace gdmap::description
