// Section 102: the RUNTIME_FUNCTION table, one entry per method body and
// per funclet, sorted by address (the runtime binary-searches it). Only
// x64's entry has its end address; elsewhere the length comes from the
// unwind data, as the runtime's RtlpGetFunctionEndAddress (ARM, ARM64) and
// the x86 unwind info (a length varint) give it.
#include "r2r_errors.hpp"
#include "r2r_parts.hpp"

#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

namespace gdmap::r2r {
namespace {

// The x86 code length at the unwind RVA, the GC info's method size: 7
// bits a byte, most significant group first, bit 7 set on every byte but
// the last (gcdecoder's decodeUnsigned).
template <typename Path>
Expected<std::uint32_t> x86CodeLength(const pe::PeImage& pe, std::uint32_t unwindRva, std::uint64_t namedAt,
                                      const Path& path) {
  const std::optional<std::uint64_t> start = pe.rvaToOffset(unwindRva);
  if (!start) {
    return r2rError(namedAt, path() + ": unwind RVA " + shortHex(unwindRva) + " is in no section's data",
                    rules::kR2rBadRuntimeFunction);
  }
  std::uint32_t value = 0;
  for (unsigned i = 0; i < 5; ++i) {
    const std::optional<std::uint64_t> at = pe.rvaToOffset(unwindRva + i);
    if (!at || *at != *start + i) {
      return r2rError(*start, path() + ": the code length in the unwind data runs past the end of its section",
                      rules::kR2rTruncated);
    }
    const std::uint8_t byte = pe.file()[static_cast<std::size_t>(*at)];
    if (value > 0x01FFFFFFu) {
      return r2rError(*at, path() + ": the code length in the unwind data does not fit in 32 bits",
                      rules::kR2rBadRuntimeFunction);
    }
    value = (value << 7) | (byte & 0x7Fu);
    if ((byte & 0x80) == 0) return value;
  }
  return r2rError(*start, path() + ": the code length in the unwind data is longer than 5 bytes",
                  rules::kR2rBadRuntimeFunction);
}

// The u32 at `rva`; r2r-section-outside-image (named `what`, at the field
// `namedAt`) when no section holds its 4 bytes.
Expected<std::uint32_t> u32In(const pe::PeImage& pe, std::uint32_t rva, std::uint64_t namedAt,
                              const std::string& what) {
  Expected<ByteSpan> bytes = pe.range({rva, 4}, namedAt, what);
  if (!bytes) return bytes.error();
  return ByteCursor(*bytes).u32();
}

// ARM64 and ARM: UnwindData with low bits 01 or 10 is packed unwind data
// whose bits 2..12 are the function length; 00 makes it the RVA of the
// .xdata record, whose first word has it in bits 0..17; 11 is reserved.
// The length counts instructions: 4 bytes on ARM64, 2 (a halfword) on ARM.
template <typename Path>
Expected<std::uint32_t> armCodeLength(const pe::PeImage& pe, std::uint32_t unwindData, unsigned unit,
                                      std::uint64_t namedAt, const Path& path) {
  switch (unwindData & 3u) {
    case 0: {
      Expected<std::uint32_t> word = u32In(pe, unwindData, namedAt, path() + ": .xdata");
      if (!word) return word;
      return (*word & 0x3FFFFu) * unit;
    }
    case 3:
      return r2rError(namedAt, path() + ": unwind data " + hex32(unwindData) + " has the reserved packed form 3",
                      rules::kR2rBadRuntimeFunction);
    default: return ((unwindData >> 2) & 0x7FFu) * unit;
  }
}

// The code length of a non-x64 entry, from its unwind data: x86 from R2R
// 14 (funclets) has the runtime's x86 UNWIND_INFO, a u32 FunctionLength
// (the body's GC info follows it); older x86 the GC info's method size.
// ARM code addresses carry the Thumb bit: `begin` is made even.
template <typename Path>
Expected<std::uint32_t> codeLength(const pe::PeImage& pe, const R2RImage& image, RuntimeFunction& f,
                                   std::uint64_t unwindAt, const Path& path) {
  switch (image.machine) {
    case machine::kI386:
      if (image.profile.x86Funclets) return u32In(pe, f.unwindRva, unwindAt, path() + ": UNWIND_INFO");
      return x86CodeLength(pe, f.unwindRva, unwindAt, path);
    case machine::kArm64: return armCodeLength(pe, f.unwindRva, 4, unwindAt, path);
    default: f.begin &= ~1u; return armCodeLength(pe, f.unwindRva, 2, unwindAt, path);
  }
}

// The checks of one entry against the table so far.
template <typename Path>
Status checkRuntimeFunction(const pe::PeImage& pe, const R2RImage& image, const RuntimeFunction& f, std::uint64_t at,
                            const Path& path) {
  if (f.end <= f.begin) {
    return r2rError(at, path() + ": code [" + shortHex(f.begin) + ", " + shortHex(f.end) + ") is empty",
                    rules::kR2rBadRuntimeFunction);
  }
  if (!image.runtimeFunctions.empty() && f.begin < image.runtimeFunctions.back().end) {
    return r2rError(at,
                    path() + ": code starts at " + shortHex(f.begin) +
                        ", inside or before the previous function (ends at " +
                        shortHex(image.runtimeFunctions.back().end) + "); the table must be sorted and disjoint",
                    rules::kR2rBadRuntimeFunction);
  }
  if (!pe.range({f.begin, f.end - f.begin}, 0, "code")) {
    return r2rError(
        at, path() + ": code [" + shortHex(f.begin) + ", " + shortHex(f.end) + ") is not inside one section's data",
        rules::kR2rBadRuntimeFunction);
  }
  return Success{};
}

}  // namespace

Status readRuntimeFunctions(const pe::PeImage& pe, R2RImage& image) {
  NativeRegion region = regionOf(pe, image, section::kRuntimeFunctions);
  const bool x64 = image.machine == machine::kAmd64;
  // x64: {BeginAddress, EndAddress, UnwindData}; others {BeginAddress, UnwindData}.
  const unsigned entrySize = x64 ? 12 : 8;
  if (region.bytes.size() % entrySize != 0) {
    return r2rError(region.fileOffset,
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
    // Inside: the region is a whole number of entries.
    f.begin = region.fixed(at, 4);
    if (x64) {
      f.end = region.fixed(at + 4, 4);
      f.unwindRva = region.fixed(at + 8, 4);
    } else {
      f.unwindRva = region.fixed(at + 4, 4);
      const Expected<std::uint32_t> length = codeLength(pe, image, f, region.fileOffsetOf(at + 4), path);
      if (!length) return length.error();
      if (*length > 0xFFFFFFFFu - f.begin) {
        return r2rError(region.fileOffsetOf(at),
                        path() + ": code length " + std::to_string(*length) + " overflows the address space",
                        rules::kR2rBadRuntimeFunction);
      }
      f.end = f.begin + *length;
    }
    if (Status checked = checkRuntimeFunction(pe, image, f, region.fileOffsetOf(at), path); !checked) return checked;
    image.runtimeFunctions.push_back(f);
  }
  return Success{};
}

}  // namespace gdmap::r2r
