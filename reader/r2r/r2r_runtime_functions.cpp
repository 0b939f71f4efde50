// Section 102: the RUNTIME_FUNCTION table, one entry per method body and
// per funclet, sorted by address (the runtime binary-searches it).
#include "r2r_failure.hpp"
#include "r2r_parts.hpp"

#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

namespace gdmap::r2r {
namespace {

// x86 GC info starts with the method's code length, in the x86 GC
// encoder's varint: 7 bits a byte, most significant group first, bit 7 set
// on every byte but the last (gcdecoder's decodeUnsigned).
template <typename Path>
std::uint32_t x86CodeLength(const pe::PeImage& pe, std::uint32_t gcInfoRva, std::uint64_t namedAt, const Path& path) {
  const std::optional<std::uint64_t> start = pe.rvaToOffset(gcInfoRva);
  if (!start) {
    fail(namedAt, path() + ": GC info RVA " + shortHex(gcInfoRva) + " is in no section's data",
         rules::kR2rBadRuntimeFunction);
  }
  std::uint32_t value = 0;
  for (unsigned i = 0; i < 5; ++i) {
    const std::optional<std::uint64_t> at = pe.rvaToOffset(gcInfoRva + i);
    if (!at || *at != *start + i) {
      fail(*start, path() + ": the GC info's code length runs past the end of its section", rules::kR2rTruncated);
    }
    const std::uint8_t byte = pe.file()[static_cast<std::size_t>(*at)];
    if (value > 0x01FFFFFFu) {
      fail(*at, path() + ": the GC info's code length does not fit in 32 bits", rules::kR2rBadRuntimeFunction);
    }
    value = (value << 7) | (byte & 0x7Fu);
    if ((byte & 0x80) == 0) return value;
  }
  fail(*start, path() + ": the GC info's code length is longer than 5 bytes", rules::kR2rBadRuntimeFunction);
}

}  // namespace

void readRuntimeFunctions(const pe::PeImage& pe, R2RImage& image) {
  const NativeRegion region = regionOf(pe, image, section::kRuntimeFunctions);
  const bool x86 = image.machine == machine::kI386;
  // x86 has no EndAddress: {BeginAddress, UnwindData}; x64 has all three.
  const unsigned entrySize = x86 ? 8 : 12;
  if (region.bytes.size() % entrySize != 0) {
    fail(region.fileOffset,
         "runtimeFunctions: " + std::to_string(region.bytes.size()) + " bytes are not a whole number of " +
             std::to_string(entrySize) + "-byte entries",
         rules::kR2rTruncated);
  }
  const std::size_t count = region.bytes.size() / entrySize;
  image.runtimeFunctions.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t at = region.rva + std::uint64_t{i} * entrySize;
    const auto path = [i] { return "runtimeFunctions[" + std::to_string(i) + "]"; };
    RuntimeFunction f;
    f.begin = region.fixed(at, 4);
    if (x86) {
      f.unwindRva = region.fixed(at + 4, 4);
      const std::uint32_t length = x86CodeLength(pe, f.unwindRva, region.fileOffsetOf(at + 4), path);
      if (length > 0xFFFFFFFFu - f.begin) {
        fail(region.fileOffsetOf(at),
             path() + ": code length " + std::to_string(length) + " overflows the address space",
             rules::kR2rBadRuntimeFunction);
      }
      f.end = f.begin + length;
    } else {
      f.end = region.fixed(at + 4, 4);
      f.unwindRva = region.fixed(at + 8, 4);
    }
    if (f.end <= f.begin) {
      fail(region.fileOffsetOf(at), path() + ": code [" + shortHex(f.begin) + ", " + shortHex(f.end) + ") is empty",
           rules::kR2rBadRuntimeFunction);
    }
    if (!image.runtimeFunctions.empty() && f.begin < image.runtimeFunctions.back().end) {
      fail(region.fileOffsetOf(at),
           path() + ": code starts at " + shortHex(f.begin) + ", inside or before the previous function (ends at " +
               shortHex(image.runtimeFunctions.back().end) + "); the table must be sorted and disjoint",
           rules::kR2rBadRuntimeFunction);
    }
    if (!pe.range({f.begin, f.end - f.begin}, 0, "code")) {
      fail(region.fileOffsetOf(at),
           path() + ": code [" + shortHex(f.begin) + ", " + shortHex(f.end) + ") is not inside one section's data",
           rules::kR2rBadRuntimeFunction);
    }
    image.runtimeFunctions.push_back(f);
  }
}

}  // namespace gdmap::r2r
