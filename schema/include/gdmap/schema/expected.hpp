#pragma once
// A value or an error that says where it happened. g++ 12 has no
// std::expected; this is the small subset gdmap needs.
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <variant>

namespace gdmap {

// What went wrong, and where. `offset` is a byte offset for binary input and
// a 0-based byte index for text input; the caller knows which and turns it
// into a located Diagnostic (schema/diagnostic.hpp). `rule` is the stable
// identifier of the broken rule (docs/errors.md).
struct Error {
  Error() = default;
  Error(std::size_t at, std::string text, std::string ruleId = {})
      : offset(at), message(std::move(text)), rule(std::move(ruleId)) {}

  std::size_t offset = 0;
  std::string message;
  std::string rule;
};

namespace detail {
// Reading the value of a failed result is a bug in the caller, in every
// build type: say which error was ignored, then abort (never read garbage).
[[noreturn]] inline void failedResultAccess(const Error& error) {
  std::fprintf(stderr, "gdmap: value() of a failed result (offset %zu, rule '%s'): %s\n", error.offset,
               error.rule.c_str(), error.message.c_str());
  std::abort();
}
[[noreturn]] inline void successfulResultError() {
  std::fputs("gdmap: error() of a successful result\n", stderr);
  std::abort();
}
}  // namespace detail

// [[nodiscard]]: a result that is not looked at is an error ignored. Access
// is checked: value() of an error, or error() of a value, prints the
// error and aborts, in release builds too.
template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}
  Expected(Error error) : state_(std::move(error)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & {
    check();
    return std::get<0>(state_);
  }
  const T& value() const& {
    check();
    return std::get<0>(state_);
  }
  T&& value() && {
    check();
    return std::get<0>(std::move(state_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const {
    if (ok()) detail::successfulResultError();
    return std::get<1>(state_);
  }

 private:
  void check() const {
    if (!ok()) detail::failedResultAccess(std::get<1>(state_));
  }
  std::variant<T, Error> state_;
};

// For operations that produce nothing but may fail.
struct Success {};
using Status = Expected<Success>;

}  // namespace gdmap
