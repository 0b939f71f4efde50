#pragma once
// The generic dictionary map's layout (FORMAT.md §1) as the writer and the
// reader both see it: its constants, its little-endian u32s, and the field
// paths diagnostics name its parts by. One definition, so the builder and
// the checker cannot drift apart.
//
//   u32 header            bit 31: sorted by RVA; bits 0..30: N
//   N x {u32 rva, u32 offset}   the directory; offset is relative to the heap
//   heap                  items: compressed L, then L bytes (compressed T, T types)
#include <gdmap/schema/bytes.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace gdmap {

inline constexpr std::uint32_t kSortedFlag = 0x80000000u;      // header bit 31
inline constexpr std::uint32_t kEntryCountMask = 0x7FFFFFFFu;  // header bits 0..30
inline constexpr std::size_t kHeaderSize = 4;
inline constexpr std::size_t kDirectoryEntrySize = 8;
inline constexpr std::uint64_t kMaxDirectoryEntries = 0x7FFFFFFF;  // N has 31 bits
inline constexpr std::uint64_t kMaxHeapOffset = 0xFFFFFFFF;        // a directory offset is a u32
inline constexpr std::uint32_t kMaxItemLength = 0x1FFFFFFF;        // L is a compressed uint
// The smallest item is its length prefix alone (one byte, L = 0); a valid
// one also holds its type count and at least one type: 3 bytes.
inline constexpr std::size_t kMinItemSize = 1;

// Where things are, as 64-bit numbers: 4 + 8 * (2^31 - 1) does not fit in
// 32 bits.
constexpr std::uint64_t directoryEntryOffset(std::uint64_t index) { return kHeaderSize + kDirectoryEntrySize * index; }
constexpr std::uint64_t directoryRvaOffset(std::uint64_t index) { return directoryEntryOffset(index); }
constexpr std::uint64_t directoryOffsetOffset(std::uint64_t index) { return directoryEntryOffset(index) + 4; }
// Also the end of the directory: where the heap starts for N entries.
constexpr std::uint64_t heapStartFor(std::uint64_t entries) { return directoryEntryOffset(entries); }

// Little-endian u32 at bytes[at..at+3], assembled byte by byte: no unaligned
// load, no aliasing, the same result on any host. The caller has checked
// that the four bytes exist (ByteCursor checks for itself).
constexpr std::uint32_t readU32(ByteSpan bytes, std::size_t at) {
  return std::uint32_t{bytes[at]} | std::uint32_t{bytes[at + 1]} << 8 | std::uint32_t{bytes[at + 2]} << 16 |
         std::uint32_t{bytes[at + 3]} << 24;
}
constexpr void writeU32(std::uint8_t* out, std::uint32_t value) {
  out[0] = static_cast<std::uint8_t>(value);
  out[1] = static_cast<std::uint8_t>(value >> 8);
  out[2] = static_cast<std::uint8_t>(value >> 16);
  out[3] = static_cast<std::uint8_t>(value >> 24);
}
void appendU32(Bytes& out, std::uint32_t value);

// Field paths, the names diagnostics give a map's parts:
//   "header.count", "directory[3].rva", "directory[3].offset",
//   "heap@0x1c" (an item, by its offset relative to the heap's start:
//   lowercase hex, no padding, the offset a dump shows), "heap@0x1c.length",
//   "heap@0x1c.count", "heap@0x1c.type[1]". Absolute byte offsets go in
//   Diagnostic::offset, not in paths.
inline constexpr char kHeaderCountPath[] = "header.count";
std::string directoryEntryPath(std::uint64_t index);   // "directory[3]"
std::string directoryRvaPath(std::uint64_t index);     // "directory[3].rva"
std::string directoryOffsetPath(std::uint64_t index);  // "directory[3].offset"
std::string heapPath(std::uint64_t heapOffset);        // "heap@0x1c"
std::string itemLengthPath(std::uint64_t heapOffset);  // "heap@0x1c.length"
std::string itemCountPath(std::uint64_t heapOffset);   // "heap@0x1c.count"
std::string typeIndexPath(std::uint64_t index);        // ".type[1]": appended to an item's path
void appendTypeIndexPath(std::uint64_t index, std::string& out);

}  // namespace gdmap
