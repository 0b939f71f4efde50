#pragma once
// The runtime's nibble stream, reading side (FORMAT.md §3.3), bounded: a
// read never passes the end, a varint never grows past 11 nibbles or 32 bits.
// Positions are nibble indexes from the start of the bytes (byte = index / 2,
// the low half first).
#include <gdmap/schema/bytes.hpp>

#include <cstddef>
#include <cstdint>

namespace gdmap::il {

class NibbleReader {
 public:
  enum class Status : std::uint8_t { Ok, Truncated, TooLong, Overflow };

  struct Varint {
    std::uint32_t value = 0;
    std::size_t start = 0;  // nibble index of its first nibble
    std::size_t at = 0;     // nibble index of the problem (Ok: of the last nibble)
    unsigned nibbles = 0;
    bool minimal = true;  // false when it starts with a zero chunk (nibble 8)
    Status status = Status::Ok;
  };

  // The runtime's reader stops there: 11 chunks of 3 bits hold 33 bits.
  static constexpr unsigned kMaxNibbles = 11;

  explicit NibbleReader(ByteSpan bytes, std::size_t position = 0) : bytes_(bytes), position_(position) {}

  std::size_t position() const { return position_; }
  std::size_t total() const { return bytes_.size() * 2; }
  std::size_t remaining() const { return total() - position_; }

  // The nibble at the position (precondition: remaining() > 0).
  std::uint8_t nibble() {
    const std::uint8_t byte = bytes_[position_ / 2];
    const std::uint8_t value = (position_ % 2 == 0) ? (byte & 0xF) : (byte >> 4);
    ++position_;
    return value;
  }

  // One varint. On a problem the position is unspecified; callers stop.
  Varint u32() {
    Varint v;
    v.start = position_;
    for (;;) {
      if (remaining() == 0) {
        v.status = Status::Truncated;
        v.at = position_;
        return v;
      }
      v.at = position_;
      const std::uint8_t n = nibble();
      if (++v.nibbles > kMaxNibbles) {
        v.status = Status::TooLong;
        return v;
      }
      if (v.nibbles == 1 && n == 8) v.minimal = false;
      if (v.value > 0x1FFFFFFFu) {  // another chunk would push bits past bit 31
        v.status = Status::Overflow;
        return v;
      }
      v.value = (v.value << 3) | (n & 7u);
      if ((n & 8) == 0) return v;
    }
  }

 private:
  ByteSpan bytes_;
  std::size_t position_ = 0;
};

}  // namespace gdmap::il
