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

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace gdmap {

// The nibble at index `at` of `bytes` (the low half of a byte first).
// Precondition: at < 2 * bytes.size().
inline std::uint8_t nibbleAt(ByteSpan bytes, std::size_t at) {
  const std::uint8_t byte = bytes[at / 2];
  return (at % 2 == 0) ? (byte & 0xF) : (byte >> 4);
}

// The varint at nibble `at`, `at` moved past it: NibbleCursor::varint's
// value without its checks, for the loops that decode again what a scan
// through NibbleCursor has proven (whole, at most 11 nibbles, 32 bits), as
// readBits is for bits (bit_cursor.hpp). Precondition: that proof.
inline std::uint32_t readProvenVarint(ByteSpan bytes, std::size_t& at) {
  std::uint32_t value = 0;
  for (;;) {
    const std::uint8_t n = nibbleAt(bytes, at++);
    value = (value << 3) | (n & 7u);
    if ((n & 8) == 0) return value;
  }
}

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
    return nibbleAt(position_++);
  }

  // One varint. On a problem the position is unspecified (callers stop);
  // `start` and `at` still say where it began and what stopped it. A
  // million bounds decode through here: the loop runs on locals with one
  // bound (the end, or the 11th nibble) and one overflow test per nibble;
  // a problem is sorted out of line.
  Varint varint() {
    Varint v;
    v.start = position_;
    if (!ok()) return v;
    const std::size_t end = total();
    const std::size_t limit = std::min(end, position_ + kMaxNibbles);
    std::size_t at = position_;
    std::uint32_t value = 0;
    while (at < limit) {
      const std::uint8_t n = nibbleAt(at++);
      // Another chunk would push bits past bit 31.
      if (value > 0x1FFFFFFFu) [[unlikely]]
        return stopped(v, Problem::Overflow, at);
      value = (value << 3) | (n & 7u);
      if ((n & 8) == 0) {
        position_ = at;
        v.value = value;
        v.at = at - 1;
        v.nibbles = static_cast<unsigned>(at - v.start);
        v.minimal = nibbleAt(v.start) != 8;  // no leading zero chunk
        return v;
      }
    }
    // No last nibble: the blob ended, or a 12th nibble follows.
    if (at == end) return stopped(v, Problem::Truncated, at);
    return stopped(v, Problem::TooLong, at + 1);
  }

 private:
  std::uint8_t nibbleAt(std::size_t at) const { return gdmap::nibbleAt(bytes_, at); }

  // A varint from v.start that `problem` stopped with the position at `at`
  // (past the nibble read last, or the end).
  [[gnu::cold, gnu::noinline]] Varint stopped(Varint v, Problem problem, std::size_t at) {
    position_ = at;
    v.nibbles = static_cast<unsigned>(at - v.start);
    v.minimal = v.nibbles == 0 || nibbleAt(v.start) != 8;
    v.at = problem == Problem::Truncated ? at : at - 1;
    fail(problem, v.at);
    return v;
  }

  // Built only on failure.
  [[gnu::cold, gnu::noinline]] void fail(Problem problem, std::size_t at) {
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
