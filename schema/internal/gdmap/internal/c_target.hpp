#pragma once
// What the C calls of the target's sources and of reader/runtime share:
// the C handle of a target, and an Error copied into a gdmap_error.
#include <gdmap/schema/target_memory.h>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/schema/target_memory.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string_view>

struct gdmap_target {
  std::unique_ptr<gdmap::TargetMemory> memory;
};

namespace gdmap::internal {

inline void copyText(std::string_view text, char* out, std::size_t capacity) {
  const std::size_t n = std::min(text.size(), capacity - 1);
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
}

// `error` described (when the caller gave one).
inline void describe(gdmap_error* error, std::string_view rule, std::uint64_t where, std::string_view message) {
  if (error == nullptr) return;
  copyText(rule, error->rule, sizeof error->rule);
  error->where = where;
  copyText(message, error->message, sizeof error->message);
}

inline void describe(gdmap_error* error, const Error& e) { describe(error, e.rule, e.offset, e.message); }

// The memory of `target`, or null after describing why there is none (a
// null handle, or one whose source is gone): what the C calls that open a
// runtime through a target check first.
inline const TargetMemory* targetMemory(const gdmap_target* target, gdmap_error* error) {
  if (target != nullptr && target->memory) return target->memory.get();
  describe(error, rules::kRuntimeNotFound, 0, "no target");
  return nullptr;
}

}  // namespace gdmap::internal
