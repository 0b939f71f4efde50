#pragma once
// The runtime's "native format" (nativeformatreader.h): variable-length
// unsigned and signed integers, the NativeArray (a sparse array stored as
// 16-element blocks, each a small binary tree of nodes) and the
// NativeHashtable (buckets of (low hash byte, relative offset) entries).
//
// Offsets are RVAs, as in the runtime, but every read must stay inside one
// region (an R2R section): stricter than the runtime, which checks only the
// image bounds. A region is a cursor with ByteCursor's conventions
// (byte_cursor.hpp): a failed read returns 0 and records the first Error
// (the file offset of the offending byte) for good; the NativeArray and
// NativeHashtable readers record theirs there too, and the step reading the
// section checks ok() and prefixes its path (r2r_errors.hpp).
#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/bytes.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace gdmap::r2r {

// The bytes of one section, addressed by RVA, and the first problem found
// reading them.
struct NativeRegion {
  ByteSpan bytes;
  std::uint32_t rva = 0;
  std::uint64_t fileOffset = 0;

  std::uint64_t end() const { return std::uint64_t{rva} + bytes.size(); }
  bool contains(std::uint64_t at) const { return at >= rva && at < end(); }
  std::uint64_t fileOffsetOf(std::uint64_t at) const { return fileOffset + (at - rva); }
  // Bytes from `at` to the end of the region (precondition: contains(at) or at == end()).
  ByteSpan from(std::uint64_t at) const { return bytes.subspan(static_cast<std::size_t>(at - rva)); }

  // Reads; 0 and r2r-truncated past the end of the region. Inline: the
  // NativeArray and hashtable walks read through them per method.
  std::uint8_t u8(std::uint64_t at) {
    if (!ok() || !contains(at)) [[unlikely]]
      return static_cast<std::uint8_t>(pastEnd(at, 1));
    return bytes[static_cast<std::size_t>(at - rva)];
  }
  std::uint32_t fixed(std::uint64_t at, unsigned width) {  // 1, 2 or 4 bytes
    if (!ok() || at < rva || end() - at < width || at > end()) [[unlikely]]
      return pastEnd(at, width);
    std::uint32_t value = 0;
    const std::size_t from = static_cast<std::size_t>(at - rva);
    for (unsigned i = 0; i < width; ++i) value |= std::uint32_t{bytes[from + i]} << (8 * i);
    return value;
  }
  // DecodeUnsigned / DecodeSigned: 1 to 5 bytes, the low bits of the first
  // byte say how many; a first byte with its 5 low bits set is r2r-bad-varint.
  // `at` advances past the integer (not on failure).
  std::uint32_t unsignedAt(std::uint64_t& at);
  std::int32_t signedAt(std::uint64_t& at);

  bool ok() const { return error.ok(); }
  Error takeError() { return error.take(); }
  // Records a problem at file offset `offset` unless one is recorded; false.
  bool fail(std::uint64_t offset, std::string message, const char* rule);

  detail::StickyError error;

 private:
  // A read of `width` bytes at `at` that does not fit (r2r-truncated,
  // unless an error is recorded): 0.
  [[gnu::cold, gnu::noinline]] std::uint32_t pastEnd(std::uint64_t at, unsigned width);
};

// A NativeArray whose header is at `at`. Construction checks that the
// block index table fits the region, which bounds the element count by the
// region's size (r2r-bad-native-array otherwise). Problems are the region's
// (an array that does not open has no elements).
class NativeArray {
 public:
  NativeArray(NativeRegion& region, std::uint64_t at);
  std::uint32_t count() const { return count_; }
  // Whether element `index` is present; its offset (RVA) in `out`. Four
  // steps at most; every node must point forward inside the region (false,
  // and the region's error, otherwise).
  bool tryGet(std::uint32_t index, std::uint64_t& out) const;

 private:
  NativeRegion* region_;
  std::uint64_t base_ = 0;
  std::uint32_t count_ = 0;
  unsigned entrySize_ = 1;
};

// Every entry of a NativeHashtable whose header byte is at `at`, in bucket
// order: the RVA each entry's relative offset points at. Checks the header
// (entry width, bucket count), that the bucket table fits and never goes
// backwards (so the walk is linear in the region size), and that every
// entry lies in its bucket's range (r2r-bad-hashtable; then the region's
// error and no entries).
struct HashtableEntry {
  std::uint32_t bucket = 0;
  std::uint8_t lowHash = 0;
  std::uint64_t at = 0;  // RVA of the entry's data
};
std::vector<HashtableEntry> hashtableEntries(NativeRegion& region, std::uint64_t at);

}  // namespace gdmap::r2r
