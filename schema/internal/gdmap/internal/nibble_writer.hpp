#pragma once
// The runtime's nibble stream, writing side (FORMAT.md §3.3): nibbles fill
// each byte low half first; a u32 is written as 3-bit chunks, most
// significant first, every chunk but the last with bit 3 set, in as few
// chunks as hold it.
#include <gdmap/schema/bytes.hpp>

#include <cstdint>

namespace gdmap::il {

class NibbleWriter {
 public:
  explicit NibbleWriter(Bytes& out) : out_(out) {}

  void nibble(std::uint8_t value) {
    if (half_) {
      out_.back() = static_cast<std::uint8_t>(out_.back() | ((value & 0xF) << 4));
    } else {
      out_.push_back(static_cast<std::uint8_t>(value & 0xF));
    }
    half_ = !half_;
  }

  void u32(std::uint32_t value) {
    // 11 chunks hold 33 bits; find the most significant non-zero chunk.
    int top = 10;
    while (top > 0 && ((value >> (3 * top)) & 7) == 0) --top;
    for (int chunk = top; chunk > 0; --chunk) nibble(static_cast<std::uint8_t>(((value >> (3 * chunk)) & 7) | 8));
    nibble(static_cast<std::uint8_t>(value & 7));
  }

  // Pads to a whole byte: the pending high half stays zero.
  void flush() { half_ = false; }

 private:
  Bytes& out_;
  bool half_ = false;  // the last byte's high half is still free
};

}  // namespace gdmap::il
