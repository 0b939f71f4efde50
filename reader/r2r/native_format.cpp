#include "native_format.hpp"

#include "r2r_failure.hpp"

#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

namespace gdmap::r2r {
namespace {

constexpr std::uint32_t kBlockSize = 16;

[[noreturn]] void truncated(const NativeRegion& r, std::uint64_t at, unsigned width) {
  const std::uint64_t where = at < r.end() ? r.fileOffsetOf(at) : r.fileOffset + r.bytes.size();
  fail(where, std::to_string(width) + "-byte read at RVA " + shortHex(at) + " runs past the end of the section",
       rules::kR2rTruncated);
}

// The 1..5-byte integer at `at`: its length from the low bits of the first
// byte, the value's bits unsigned (the callers sign-extend).
std::uint32_t decode(const NativeRegion& r, std::uint64_t& at, unsigned& bits) {
  const std::uint8_t first = r.u8(at);
  unsigned length = 0;
  while (length < 5 && (first >> length) & 1u) ++length;
  if (length == 5) {
    fail(r.fileOffsetOf(at), "native integer starts with " + hex8(first) + " (5 low bits set: no such form)",
         rules::kR2rBadVarint);
  }
  const unsigned size = length + 1;  // bytes
  if (r.end() - at < size) truncated(r, at, size);
  std::uint32_t value = 0;
  if (size == 5) {
    value = r.fixed(at + 1, 4);
    bits = 32;
  } else {
    value = first >> size;
    for (unsigned i = 1; i < size; ++i) value |= std::uint32_t{r.u8(at + i)} << (8 * i - size);
    bits = 8 * size - size;  // 7, 14, 21, 28
  }
  at += size;
  return value;
}

}  // namespace

std::uint8_t NativeRegion::u8(std::uint64_t at) const {
  if (!contains(at)) truncated(*this, at, 1);
  return bytes[static_cast<std::size_t>(at - rva)];
}

std::uint32_t NativeRegion::fixed(std::uint64_t at, unsigned width) const {
  if (at < rva || end() - at < width || at > end()) truncated(*this, at, width);
  std::uint32_t value = 0;
  for (unsigned i = 0; i < width; ++i) value |= std::uint32_t{bytes[static_cast<std::size_t>(at - rva) + i]} << (8 * i);
  return value;
}

std::uint32_t NativeRegion::unsignedAt(std::uint64_t& at) const {
  unsigned bits = 0;
  return decode(*this, at, bits);
}

std::int32_t NativeRegion::signedAt(std::uint64_t& at) const {
  unsigned bits = 0;
  const std::uint32_t raw = decode(*this, at, bits);
  if (bits < 32 && (raw >> (bits - 1)) & 1u) return static_cast<std::int32_t>(raw | ~((1u << bits) - 1u));
  return static_cast<std::int32_t>(raw);
}

NativeArray::NativeArray(const NativeRegion& region, std::uint64_t at) : region_(&region) {
  const std::uint64_t header = at;
  const std::uint32_t value = region.unsignedAt(at);
  base_ = at;
  count_ = value >> 2;
  const unsigned sizeCode = value & 3u;
  if (sizeCode == 3) {
    fail(region.fileOffsetOf(header), "NativeArray header " + shortHex(value) + " has entry width code 3",
         rules::kR2rBadNativeArray);
  }
  entrySize_ = 1u << sizeCode;
  const std::uint64_t blocks = (std::uint64_t{count_} + kBlockSize - 1) / kBlockSize;
  if (blocks * entrySize_ > region.end() - base_) {
    fail(region.fileOffsetOf(header),
         "NativeArray of " + std::to_string(count_) + " elements needs a " + std::to_string(blocks * entrySize_) +
             "-byte block index, only " + std::to_string(region.end() - base_) + " bytes left in the section",
         rules::kR2rBadNativeArray);
  }
}

bool NativeArray::tryGet(std::uint32_t index, std::uint64_t& out) const {
  if (index >= count_) return false;
  const NativeRegion& r = *region_;
  std::uint64_t offset = base_ + r.fixed(base_ + std::uint64_t{entrySize_} * (index / kBlockSize), entrySize_);
  for (std::uint32_t bit = kBlockSize >> 1; bit > 0; bit >>= 1) {
    std::uint64_t next = offset;
    const std::uint32_t val = r.unsignedAt(next);
    if (index & bit) {
      if (val & 2u) {
        // A forward jump to the right subtree; 0 would loop on itself.
        if ((val >> 2) == 0) {
          fail(r.fileOffsetOf(offset), "NativeArray node for element " + std::to_string(index) + " jumps by 0",
               rules::kR2rBadNativeArray);
        }
        offset += val >> 2;
        continue;
      }
    } else if (val & 1u) {
      offset = next;
      continue;
    }
    // A leaf: the element is here when it is the one asked for.
    if ((val & 3u) == 0 && (val >> 2) == (index & (kBlockSize - 1))) {
      offset = next;
      break;
    }
    return false;
  }
  out = offset;
  return true;
}

std::vector<HashtableEntry> hashtableEntries(const NativeRegion& region, std::uint64_t at) {
  const std::uint64_t headerAt = at;
  const std::uint8_t header = region.u8(at);
  const unsigned shift = header >> 2;
  const unsigned sizeCode = header & 3u;
  if (sizeCode > 2) {
    fail(region.fileOffsetOf(headerAt), "NativeHashtable header " + hex8(header) + " has entry width code 3",
         rules::kR2rBadHashtable);
  }
  const unsigned width = 1u << sizeCode;
  const std::uint64_t base = at + 1;
  // (buckets + 1) offsets must fit; this bounds the shift before it is used.
  const std::uint64_t left = region.end() - base;
  if (shift > 31 || ((std::uint64_t{1} << shift) + 1) * width > left) {
    fail(region.fileOffsetOf(headerAt),
         "NativeHashtable of 2^" + std::to_string(shift) + " buckets does not fit the section's " +
             std::to_string(left) + " bytes",
         rules::kR2rBadHashtable);
  }
  const std::uint32_t buckets = 1u << shift;
  std::vector<HashtableEntry> out;
  std::uint64_t start = base + region.fixed(base, width);
  for (std::uint32_t b = 0; b < buckets; ++b) {
    const std::uint64_t endAt = base + std::uint64_t{b + 1} * width;
    const std::uint64_t end = base + region.fixed(endAt, width);
    if (end < start || end > region.end()) {
      fail(region.fileOffsetOf(endAt),
           "NativeHashtable bucket " + std::to_string(b) + " ends at RVA " + shortHex(end) +
               (end < start ? ", before it starts" : ", past the end of the section"),
           rules::kR2rBadHashtable);
    }
    std::uint64_t p = start;
    while (p < end) {
      HashtableEntry e;
      e.bucket = b;
      e.lowHash = region.u8(p);
      ++p;
      const std::uint64_t deltaAt = p;
      const std::int32_t delta = region.signedAt(p);
      const std::int64_t target = static_cast<std::int64_t>(deltaAt) + delta;
      if (p > end) {
        fail(region.fileOffsetOf(deltaAt), "NativeHashtable entry runs past the end of bucket " + std::to_string(b),
             rules::kR2rBadHashtable);
      }
      if (target < 0 || !region.contains(static_cast<std::uint64_t>(target))) {
        fail(region.fileOffsetOf(deltaAt),
             "NativeHashtable entry in bucket " + std::to_string(b) + " points outside the section",
             rules::kR2rBadHashtable);
      }
      e.at = static_cast<std::uint64_t>(target);
      out.push_back(e);
    }
    start = end;
  }
  return out;
}

}  // namespace gdmap::r2r
