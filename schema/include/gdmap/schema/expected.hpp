#pragma once
// A value or an error that says where it happened. g++ 12 has no
// std::expected; this is the small subset gdmap needs.
#include <cassert>
#include <cstddef>
#include <string>
#include <utility>
#include <variant>

namespace gdmap {

// `offset` is a byte offset for binary input and a 0-based column (byte
// index) for text input; the caller knows which and turns it into a location.
struct Error {
  std::size_t offset = 0;
  std::string message;
};

template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}
  Expected(Error error) : state_(std::move(error)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { assert(ok()); return std::get<0>(state_); }
  const T& value() const& { assert(ok()); return std::get<0>(state_); }
  T&& value() && { assert(ok()); return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { assert(!ok()); return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

// For operations that produce nothing but may fail.
struct Success {};
using Status = Expected<Success>;

}  // namespace gdmap
