#pragma once
// NibbleCursor: the runtime's nibble stream, reading side (FORMAT.md §3.3),
// with ByteCursor's conventions (byte_cursor.hpp): a read never passes the
// end, a varint never grows past 11 nibbles or 32 bits, a failed read
// returns 0 and records the first Error for good (offset a nibble index,
// OffsetUnit::Nibble). Positions are nibble indexes from the start of the
// bytes (byte = index / 2, the low half first).
//
// The Error's words are the strict bounds reader's; a caller that words
// its own (the R2R reader's header, the JIT's) asks problem() which it was.
#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/rules.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace gdmap {

class NibbleCursor {
 public:
  // What stopped the first failed read.
  enum class Problem : std::uint8_t { None, Truncated, TooLong, Overflow };

  struct Varint {
    std::uint32_t value = 0;  // 0 when the read failed
    std::size_t start = 0;    // nibble index of its first nibble
    std::size_t at = 0;       // nibble index of its last nibble, or of the problem
    unsigned nibbles = 0;
    bool minimal = true;  // false when it starts with a zero chunk (nibble 8)
  };

  // The runtime's reader stops there: 11 chunks of 3 bits hold 33 bits.
  static constexpr unsigned kMaxNibbles = 11;

  explicit NibbleCursor(ByteSpan bytes, std::size_t position = 0) : bytes_(bytes), position_(position) {}

  std::size_t position() const { return position_; }
  std::size_t total() const { return bytes_.size() * 2; }
  std::size_t remaining() const { return total() - position_; }

  bool ok() const { return problem_ == Problem::None; }
  explicit operator bool() const { return ok(); }
  Problem problem() const { return problem_; }
  const Error& error() const { return error_.get(); }
  Error takeError() { return error_.take(); }

  // The nibble at the position; 0 and Truncated at the end.
  std::uint8_t nibble() {
    if (!ok()) return 0;
    if (remaining() == 0) {
      fail(Problem::Truncated, position_);
      return 0;
    }
    return next();
  }

  // One varint. On a problem the position is unspecified (callers stop);
  // `start` and `at` still say where it began and what stopped it.
  Varint varint() {
    Varint v;
    v.start = position_;
    if (!ok()) return v;
    for (;;) {
      v.at = position_;
      if (remaining() == 0) return failed(v, Problem::Truncated);
      const std::uint8_t n = next();
      if (++v.nibbles > kMaxNibbles) return failed(v, Problem::TooLong);
      if (v.nibbles == 1 && n == 8) v.minimal = false;
      // Another chunk would push bits past bit 31.
      if (v.value > 0x1FFFFFFFu) return failed(v, Problem::Overflow);
      v.value = (v.value << 3) | (n & 7u);
      if ((n & 8) == 0) return v;
    }
  }

 private:
  std::uint8_t next() {
    const std::uint8_t byte = bytes_[position_ / 2];
    const std::uint8_t value = (position_ % 2 == 0) ? (byte & 0xF) : (byte >> 4);
    ++position_;
    return value;
  }

  Varint failed(Varint v, Problem problem) {
    fail(problem, v.at);
    v.value = 0;
    return v;
  }

  // Built only on failure.
  [[gnu::noinline]] void fail(Problem problem, std::size_t at) {
    problem_ = problem;
    switch (problem) {
      case Problem::TooLong:
        error_.set(Error(at, OffsetUnit::Nibble, "",
                         "a nibble varint longer than " + std::to_string(kMaxNibbles) +
                             " nibbles (the runtime's reader stops there)",
                         std::string(rules::kIlVarintTooLong)));
        return;
      case Problem::Overflow:
        error_.set(Error(at, OffsetUnit::Nibble, "", "a nibble varint whose value does not fit in 32 bits",
                         std::string(rules::kIlVarintOverflow)));
        return;
      case Problem::Truncated:
      case Problem::None: break;
    }
    error_.set(Error(at, OffsetUnit::Nibble, "",
                     "the blob ends inside a nibble varint (" + std::to_string(bytes_.size()) + " byte(s))",
                     std::string(rules::kIlTruncated)));
  }

  ByteSpan bytes_;
  std::size_t position_ = 0;
  Problem problem_ = Problem::None;
  detail::StickyError error_;
};

}  // namespace gdmap
