#include <gdmap/schema/instantiation_names.hpp>

#include <gdmap/schema/hex.hpp>

namespace gdmap {
namespace {

// FNV-1a, 64 bits, then a final mix so that the top bits depend on every
// byte: fixed constants, no seed, the same everywhere.
std::uint64_t contentHash(ByteSpan bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const std::uint8_t b : bytes) {
    h ^= b;
    h *= 0x100000001b3ULL;
  }
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 32;
  return h;
}

}  // namespace

std::string InstantiationNamer::next(ByteSpan item) {
  const std::uint64_t key = contentHash(item) >> 16;
  std::string name = "i";
  for (int shift = 44; shift >= 0; shift -= 4) name += hexDigit(static_cast<unsigned>((key >> shift) & 0xF));
  const std::uint32_t earlier = seen_[key]++;
  if (earlier > 0) {
    name += '_';
    name += std::to_string(earlier + 1);
  }
  return name;
}

}  // namespace gdmap
