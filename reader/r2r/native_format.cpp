#include "native_format.hpp"

#include "r2r_errors.hpp"

#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

namespace gdmap::r2r {
namespace {

constexpr std::uint32_t kBlockSize = 16;

[[gnu::noinline]] bool truncated(NativeRegion& r, std::uint64_t at, unsigned width) {
  const std::uint64_t where = at < r.end() ? r.fileOffsetOf(at) : r.fileOffset + r.bytes.size();
  return r.fail(where,
                std::to_string(width) + "-byte read at RVA " + shortHex(at) + " runs past the end of the section",
                rules::kR2rTruncated);
}

// The 1..5-byte integer at `at`: its length from the low bits of the first
// byte, the value's bits unsigned (the callers sign-extend); 0 and 0 bits
// on failure.
std::uint32_t decode(NativeRegion& r, std::uint64_t& at, unsigned& bits) {
  const std::uint8_t first = r.u8(at);
  if (!r.ok()) return 0;
  unsigned length = 0;
  while (length < 5 && (first >> length) & 1u) ++length;
  if (length == 5) {
    r.fail(r.fileOffsetOf(at), "native integer starts with " + hex8(first) + " (5 low bits set: no such form)",
           rules::kR2rBadVarint);
    return 0;
  }
  const unsigned size = length + 1;  // bytes
  if (r.end() - at < size) {
    truncated(r, at, size);
    return 0;
  }
  // The check above proves the rest of the integer inside.
  const std::uint8_t* const bytes = r.bytes.data() + (at - r.rva);
  std::uint32_t value = 0;
  if (size == 5) {
    for (unsigned i = 0; i < 4; ++i) value |= std::uint32_t{bytes[1 + i]} << (8 * i);
    bits = 32;
  } else {
    value = first >> size;
    for (unsigned i = 1; i < size; ++i) value |= std::uint32_t{bytes[i]} << (8 * i - size);
    bits = 8 * size - size;  // 7, 14, 21, 28
  }
  at += size;
  return value;
}

// The entries of bucket `b`, [start, end): each a low hash byte and a
// signed offset relative to itself, pointing inside the section.
bool bucketEntries(NativeRegion& region, std::uint32_t b, std::uint64_t start, std::uint64_t end,
                   std::vector<HashtableEntry>& out) {
  std::uint64_t p = start;
  while (p < end) {
    HashtableEntry e;
    e.bucket = b;
    e.lowHash = region.u8(p);
    ++p;
    const std::uint64_t deltaAt = p;
    const std::int32_t delta = region.signedAt(p);
    if (!region.ok()) return false;
    const std::int64_t target = static_cast<std::int64_t>(deltaAt) + delta;
    if (p > end) {
      return region.fail(region.fileOffsetOf(deltaAt),
                         "NativeHashtable entry runs past the end of bucket " + std::to_string(b),
                         rules::kR2rBadHashtable);
    }
    if (target < 0 || !region.contains(static_cast<std::uint64_t>(target))) {
      return region.fail(region.fileOffsetOf(deltaAt),
                         "NativeHashtable entry in bucket " + std::to_string(b) + " points outside the section",
                         rules::kR2rBadHashtable);
    }
    e.at = static_cast<std::uint64_t>(target);
    out.push_back(e);
  }
  return true;
}

}  // namespace

bool NativeRegion::fail(std::uint64_t offset, std::string message, const char* rule) {
  error.set(r2rError(offset, std::move(message), rule));
  return false;
}

std::uint32_t NativeRegion::pastEnd(std::uint64_t at, unsigned width) {
  if (ok()) truncated(*this, at, width);
  return 0;
}

std::uint32_t NativeRegion::unsignedAt(std::uint64_t& at) {
  unsigned bits = 0;
  return decode(*this, at, bits);
}

std::int32_t NativeRegion::signedAt(std::uint64_t& at) {
  unsigned bits = 0;
  const std::uint32_t raw = decode(*this, at, bits);
  if (bits == 0) return 0;  // failed
  if (bits < 32 && (raw >> (bits - 1)) & 1u) return static_cast<std::int32_t>(raw | ~((1u << bits) - 1u));
  return static_cast<std::int32_t>(raw);
}

NativeArray::NativeArray(NativeRegion& region, std::uint64_t at) : region_(&region) {
  const std::uint64_t header = at;
  const std::uint32_t value = region.unsignedAt(at);
  if (!region.ok()) return;
  base_ = at;
  const std::uint32_t count = value >> 2;
  const unsigned sizeCode = value & 3u;
  if (sizeCode == 3) {
    region.fail(region.fileOffsetOf(header), "NativeArray header " + shortHex(value) + " has entry width code 3",
                rules::kR2rBadNativeArray);
    return;
  }
  entrySize_ = 1u << sizeCode;
  const std::uint64_t blocks = (std::uint64_t{count} + kBlockSize - 1) / kBlockSize;
  if (blocks * entrySize_ > region.end() - base_) {
    region.fail(region.fileOffsetOf(header),
                "NativeArray of " + std::to_string(count) + " elements needs a " + std::to_string(blocks * entrySize_) +
                    "-byte block index, only " + std::to_string(region.end() - base_) + " bytes left in the section",
                rules::kR2rBadNativeArray);
    return;
  }
  count_ = count;
}

bool NativeArray::tryGet(std::uint32_t index, std::uint64_t& out) const {
  if (index >= count_) return false;
  NativeRegion& r = *region_;
  std::uint64_t offset = base_ + r.fixed(base_ + std::uint64_t{entrySize_} * (index / kBlockSize), entrySize_);
  for (std::uint32_t bit = kBlockSize >> 1; bit > 0; bit >>= 1) {
    std::uint64_t next = offset;
    const std::uint32_t val = r.unsignedAt(next);
    if (!r.ok()) return false;
    if (index & bit) {
      if (val & 2u) {
        // A forward jump to the right subtree; 0 would loop on itself.
        if ((val >> 2) == 0) {
          return r.fail(r.fileOffsetOf(offset), "NativeArray node for element " + std::to_string(index) + " jumps by 0",
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

std::vector<HashtableEntry> hashtableEntries(NativeRegion& region, std::uint64_t at) {
  const std::uint64_t headerAt = at;
  const std::uint8_t header = region.u8(at);
  if (!region.ok()) return {};
  const unsigned shift = header >> 2;
  const unsigned sizeCode = header & 3u;
  if (sizeCode > 2) {
    region.fail(region.fileOffsetOf(headerAt), "NativeHashtable header " + hex8(header) + " has entry width code 3",
                rules::kR2rBadHashtable);
    return {};
  }
  const unsigned width = 1u << sizeCode;
  const std::uint64_t base = at + 1;
  // (buckets + 1) offsets must fit; this bounds the shift before it is used.
  const std::uint64_t left = region.end() - base;
  if (shift > 31 || ((std::uint64_t{1} << shift) + 1) * width > left) {
    region.fail(region.fileOffsetOf(headerAt),
                "NativeHashtable of 2^" + std::to_string(shift) + " buckets does not fit the section's " +
                    std::to_string(left) + " bytes",
                rules::kR2rBadHashtable);
    return {};
  }
  const std::uint32_t buckets = 1u << shift;
  std::vector<HashtableEntry> out;
  std::uint64_t start = base + region.fixed(base, width);
  for (std::uint32_t b = 0; b < buckets; ++b) {
    const std::uint64_t endAt = base + std::uint64_t{b + 1} * width;
    const std::uint64_t end = base + region.fixed(endAt, width);
    if (end < start || end > region.end()) {
      region.fail(region.fileOffsetOf(endAt),
                  "NativeHashtable bucket " + std::to_string(b) + " ends at RVA " + shortHex(end) +
                      (end < start ? ", before it starts" : ", past the end of the section"),
                  rules::kR2rBadHashtable);
      return {};
    }
    if (!bucketEntries(region, b, start, end, out)) return {};
    start = end;
  }
  return out;
}

}  // namespace gdmap::r2r
