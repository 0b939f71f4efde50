#pragma once
// Seeded building blocks the random-map tests share: a number below a
// bound (no std:: distribution, whose outputs differ between standard
// libraries), random edits of bytes, and a pool of encoded types of every
// form, warnings included.
#include <gdmap/schema/bytes.hpp>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace gdmap::testing {

// A number in [0, n); 0 when n is 0.
inline std::uint64_t below(std::mt19937_64& rng, std::uint64_t n) { return n == 0 ? 0 : rng() % n; }

// One random edit: a bit flipped, a byte overwritten, inserted or
// deleted, or the tail cut off.
inline void editBytes(std::mt19937_64& rng, gdmap::Bytes& bytes) {
  switch (below(rng, 5)) {
    case 0:
      if (!bytes.empty()) bytes[below(rng, bytes.size())] ^= static_cast<std::uint8_t>(1u << below(rng, 8));
      break;
    case 1:
      if (!bytes.empty()) bytes[below(rng, bytes.size())] = static_cast<std::uint8_t>(rng());
      break;
    case 2:
      bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(below(rng, bytes.size() + 1)),
                   static_cast<std::uint8_t>(rng()));
      break;
    case 3:
      if (!bytes.empty()) bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(below(rng, bytes.size())));
      break;
    default: bytes.resize(below(rng, bytes.size() + 1)); break;
  }
}

// One to three random edits.
inline void mutateBytes(std::mt19937_64& rng, gdmap::Bytes& bytes) {
  for (std::uint64_t e = 0, edits = 1 + below(rng, 3); e < edits; ++e) editBytes(rng, bytes);
}

// Encoded types, one of each form a map holds, two of them warnings.
inline const std::vector<gdmap::Bytes>& typePool() {
  static const std::vector<gdmap::Bytes> pool = {
      {0x08},                                            // int32
      {0x0E},                                            // string
      {0x1C},                                            // object
      {0x02},                                            // bool
      {0x18},                                            // native int
      {0x1D, 0x08},                                      // int32[]
      {0x0F, 0x01},                                      // void*
      {0x13, 0x00},                                      // !0
      {0x1E, 0x01},                                      // !!1
      {0x12, 0x49},                                      // class 0x01000012
      {0x11, 0x08},                                      // valuetype 0x02000002
      {0x15, 0x12, 0x49, 0x01, 0x08},                    // class 0x01000012<int32>
      {0x15, 0x11, 0x08, 0x02, 0x0E, 0x1D, 0x13, 0x00},  // valuetype 0x02000002<string, !0[]>
      {0x14, 0x08, 0x02, 0x01, 0x05, 0x01, 0x00},        // int32[0...4,]
      {0x1B, 0x00, 0x01, 0x08, 0x08},                    // method int32 *(int32)
      {0x1B, 0x05, 0x01, 0x01, 0x41, 0x08},              // method vararg void *(..., int32)
      {0x20, 0x49, 0x08},                                // int32 modopt(0x01000012)
      {0x1F, 0x49, 0x0E},                                // string modreq(0x01000012)
      {0x12, 0x83, 0x21},                                // class 0x010000C8 (2-byte token)
      {0x1D, 0x1D, 0x1D, 0x0E},                          // string[][][]
      {0x01},                                            // void (a warning)
      {0x10, 0x08},                                      // int32& (a warning)
  };
  return pool;
}

}  // namespace gdmap::testing
