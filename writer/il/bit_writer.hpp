#pragma once
// The packed bounds forms' bit stream, writing side (FORMAT.md §3.3):
// fields packed least significant bit first across byte boundaries.
#include <gdmap/schema/bytes.hpp>

#include <algorithm>
#include <cstdint>

namespace gdmap::il {

class BitWriter {
 public:
  explicit BitWriter(Bytes& out) : out_(out) {}
  void bits(std::uint64_t value, unsigned count) {
    for (unsigned done = 0; done < count;) {
      if (used_ == 0) out_.push_back(0);
      const unsigned take = std::min(8 - used_, count - done);
      const auto chunk = static_cast<std::uint8_t>((value >> done) & ((1u << take) - 1));
      out_.back() = static_cast<std::uint8_t>(out_.back() | (chunk << used_));
      used_ = (used_ + take) % 8;
      done += take;
    }
  }
  // Bits left in the last byte (0 when it is full).
  unsigned padding() const { return used_ == 0 ? 0 : 8 - used_; }

 private:
  Bytes& out_;
  unsigned used_ = 0;  // bits used in the last byte (0: start a new one)
};

}  // namespace gdmap::il
