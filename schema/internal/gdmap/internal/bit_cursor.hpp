#pragma once
// BitCursor: little-endian bit fields (bit 0 of byte 0 first, a field's
// low bit first), the bit-packed IL-to-native forms' layout (FORMAT.md
// §3.3), read with ByteCursor's conventions (byte_cursor.hpp): a read never
// passes the end, a failed read returns 0 without advancing and records
// the first Error for good (offset a bit index, OffsetUnit::Bit).
//
// readBits is the one bit reader: BitCursor's, and that of the loops whose
// reads a count check has proven inside (the bounds scanner, the view's
// cursor), which pay nothing more per field than the load.
#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/bytes.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gdmap {

// Little-endian bits [bit, bit + count) of `bytes`, count <= 32: whole
// bytes gathered, then shifted down past the first byte's lower bits.
// Precondition: bit + count <= 8 * bytes.size().
inline std::uint32_t readBits(ByteSpan bytes, std::size_t bit, unsigned count) {
  std::uint64_t value = 0;
  unsigned have = 0;
  std::size_t byte = bit / 8;
  const unsigned skip = static_cast<unsigned>(bit % 8);
  while (have < count + skip) {
    value |= std::uint64_t{bytes[byte++]} << have;
    have += 8;
  }
  value >>= skip;
  return static_cast<std::uint32_t>(count == 32 ? value & 0xFFFFFFFFu : value & ((std::uint64_t{1} << count) - 1));
}

class BitCursor {
 public:
  // `rule`: the rule id of a read past the end.
  explicit BitCursor(ByteSpan bytes, std::size_t position = 0, std::string_view rule = {})
      : bytes_(bytes), position_(position), limit_(bytes.size() * 8), rule_(rule) {
    if (position_ > limit_) fail(0);
  }

  std::size_t position() const { return position_; }
  std::size_t total() const { return bytes_.size() * 8; }
  std::size_t remaining() const { return position_ < total() ? total() - position_ : 0; }

  bool ok() const { return error_.ok(); }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return error_.get(); }
  Error takeError() { return error_.take(); }

  // The next `count` bits (0 to 32) as an unsigned value. One compare on
  // the valid path: after a failure the limit is the position, so that
  // every later read of a bit fails at once.
  std::uint32_t bits(unsigned count) {
    if ((count > 32) | (count > limit_ - position_)) [[unlikely]] {
      fail(count);
      return 0;
    }
    const std::uint32_t value = readBits(bytes_, position_, count);
    position_ += count;
    return value;
  }
  bool skip(std::size_t count) {
    if (count > limit_ - position_) [[unlikely]] {
      fail(count);
      return false;
    }
    position_ += count;
    return true;
  }

 private:
  [[gnu::noinline]] void fail(std::size_t count) {
    if (!ok()) return;
    limit_ = position_;
    error_.set(Error(position_, OffsetUnit::Bit, "",
                     count > 32
                         ? "internal: a field of " + std::to_string(count) + " bits (at most 32)"
                         : "needs " + std::to_string(count) + " bit(s), only " + std::to_string(remaining()) + " left",
                     std::string(rule_)));
  }

  ByteSpan bytes_;
  std::size_t position_ = 0;
  std::size_t limit_ = 0;  // total() until a read fails, then the position
  std::string_view rule_;  // a constant from rules.hpp (static storage), or empty
  detail::StickyError error_;
};

}  // namespace gdmap
