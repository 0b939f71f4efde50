#include <gdmap/internal/bytes_hash.hpp>

#include <bit>
#include <chrono>
#include <cstring>
#include <random>

namespace gdmap {
namespace {

// The per-process secret of bytes_hash.hpp.
std::uint64_t processSeed() {
  static const std::uint64_t seed = [] {
    try {
      std::random_device device;
      return std::uint64_t{device()} << 32 ^ device();
    } catch (...) {
      // No entropy source: the address of a local under ASLR, and the time.
      int local = 0;
      return mixBits(reinterpret_cast<std::uintptr_t>(&local) ^
                     static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
    }
  }();
  return seed;
}

}  // namespace

// Cheap, and mixes every input bit into the low bits a table indexes with.
std::uint64_t mixBits(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

std::uint64_t hashBytes(std::string_view text) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(text.data());
  std::size_t n = text.size();
  static const std::uint64_t seed = processSeed();
  std::uint64_t h = 0x9E3779B97F4A7C15ULL ^ seed ^ n;
  // One multiply per word folds it in (the rotation keeps earlier words'
  // high bits moving into the low ones); the full mix runs once, at the end.
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    h = std::rotl(h ^ word, 29) * 0xbf58476d1ce4e5b9ULL;
  }
  // The rest without a loop, by loads that may overlap what was read (the
  // length, folded in below, tells the overlaps apart): the last eight
  // bytes of a longer text, two fours, or the first, middle and last byte.
  std::uint64_t tail = 0;
  if (n != 0 && text.size() >= 8) {
    std::memcpy(&tail, p + n - 8, 8);
  } else if (n >= 4) {
    std::uint32_t first = 0, last = 0;
    std::memcpy(&first, p, 4);
    std::memcpy(&last, p + n - 4, 4);
    tail = std::uint64_t{first} << 32 | last;
  } else if (n != 0) {
    tail = std::uint64_t{p[0]} << 16 | std::uint64_t{p[n / 2]} << 8 | p[n - 1];
  }
  return mixBits(h ^ tail ^ (std::uint64_t{n} << 59));
}

std::uint64_t hashBytes(ByteSpan bytes) {
  return hashBytes(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace gdmap
