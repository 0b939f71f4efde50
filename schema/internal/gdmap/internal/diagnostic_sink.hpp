#pragma once
// The one capped collector of findings every validator shares (the map
// checker, the IL reader's canonical check, the description parser): every
// finding is counted by severity, the first `maxKept` are kept, and the
// rest only counted. A finding is built only when it will be kept: add()
// takes a callable, so a file with millions of problems costs counters, not
// strings. Callers with more reasons to drop a finding (a byte budget)
// call admit() and keep() themselves.
#include <gdmap/schema/diagnostic.hpp>

#include <array>
#include <cstddef>
#include <utility>
#include <vector>

namespace gdmap::internal {

template <typename Finding = Diagnostic>
class DiagnosticSink {
 public:
  DiagnosticSink(std::vector<Finding>& kept, std::size_t maxKept) : kept_(kept), max_(maxKept) {}

  // Counts a finding; true when there is room to keep it (the caller then
  // builds it and keep()s it), false (and truncated()) when not.
  bool admit(Severity severity) {
    ++counts_[static_cast<std::size_t>(severity)];
    if (kept_.size() < max_) return true;
    truncated_ = true;
    return false;
  }
  void keep(Finding finding) { kept_.push_back(std::move(finding)); }

  // admit(), and when admitted, keep(build()).
  template <typename Build>
  void add(Severity severity, Build&& build) {
    if (admit(severity)) keep(std::forward<Build>(build)());
  }

  std::size_t count(Severity severity) const { return counts_[static_cast<std::size_t>(severity)]; }
  std::size_t total() const { return counts_[0] + counts_[1] + counts_[2]; }
  // Whether a finding was not kept for want of room.
  bool truncated() const { return truncated_; }
  std::size_t maxKept() const { return max_; }
  const std::vector<Finding>& kept() const { return kept_; }

 private:
  std::vector<Finding>& kept_;
  std::size_t max_;
  std::array<std::size_t, 3> counts_{};  // by Severity: Warning, Error, Note
  bool truncated_ = false;
};

}  // namespace gdmap::internal
