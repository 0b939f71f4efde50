#pragma once
// A value or an error that says where it happened. g++ 12 has no
// std::expected; this is the small subset gdmap needs.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace gdmap {

// What an Error's offset counts. Bytes unless a reader of packed data says
// otherwise (the IL-to-native map's nibble and bit forms).
enum class OffsetUnit : std::uint8_t { Byte, Nibble, Bit };

// What went wrong, and where. `offset` is a byte offset for binary input and
// a 0-based byte index for text input; the caller knows which and turns it
// into a located Diagnostic (schema/diagnostic.hpp). `rule` is the stable
// identifier of the broken rule (docs/errors.md).
//
// A reader that knows more of the location says it in fields, never in the
// message: `path` names the field ("bounds[3].native"); `unit` says what
// `offset` counts (a nibble index is 2*byte, +1 for the high half; a bit
// index 8*byte + bit); `index` names the item of a caller's list the error
// is about (buildMethodTable's method), so that the caller can point at it.
struct Error {
  Error() = default;
  Error(std::size_t at, std::string text, std::string ruleId = {})
      : offset(at), message(std::move(text)), rule(std::move(ruleId)) {}
  Error(std::size_t at, OffsetUnit in, std::string fieldPath, std::string text, std::string ruleId)
      : offset(at), message(std::move(text)), rule(std::move(ruleId)), path(std::move(fieldPath)), unit(in) {}

  std::size_t offset = 0;
  std::string message;
  std::string rule;
  std::string path;
  OffsetUnit unit = OffsetUnit::Byte;
  std::optional<std::size_t> index;

  // The byte `offset` lies in.
  std::size_t byteOffset() const {
    switch (unit) {
      case OffsetUnit::Nibble: return offset / 2;
      case OffsetUnit::Bit: return offset / 8;
      case OffsetUnit::Byte: break;
    }
    return offset;
  }
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
