#pragma once
// What the readers of this folder share of the ELF format (the System V
// gABI, 64-bit little-endian): the constants they look for and the ELF
// header and program headers, read through whatever holds the bytes (a
// target's memory at a module's base, or a file), checked before use.
// Private to reader/elf.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <cstdint>
#include <functional>
#include <vector>

namespace gdmap::elf {

inline constexpr std::uint32_t kPtLoad = 1;
inline constexpr std::uint32_t kPtDynamic = 2;
inline constexpr std::uint32_t kPtNote = 4;
inline constexpr std::int64_t kDtNull = 0;
inline constexpr std::int64_t kDtHash = 4;
inline constexpr std::int64_t kDtStrtab = 5;
inline constexpr std::int64_t kDtSymtab = 6;
inline constexpr std::int64_t kDtRela = 7;
inline constexpr std::int64_t kDtRelaSize = 8;
inline constexpr std::int64_t kDtRelaEntry = 9;
inline constexpr std::int64_t kDtStrsz = 10;
inline constexpr std::int64_t kDtSyment = 11;
inline constexpr std::int64_t kDtGnuHash = 0x6ffffef5;
inline constexpr std::uint64_t kDynamicEntrySize = 16;   // Elf64_Dyn
inline constexpr std::uint64_t kProgramHeaderSize = 56;  // Elf64_Phdr
// Real modules have a few dozen program headers, within their first page.
inline constexpr std::uint64_t kMaxProgramHeaderOffset = 1u << 20;
inline constexpr std::uint64_t kMaxProgramHeaders = 1024;

struct ProgramHeader {
  std::uint32_t type = 0;
  std::uint64_t offset = 0;  // in the file
  std::uint64_t vaddr = 0;   // link-time address
  std::uint64_t fileSize = 0;
  std::uint64_t memorySize = 0;
};

// Reads `out.size()` bytes at `offset` from the ELF header's start.
using ReadElfBytes = std::function<Status(std::uint64_t offset, MutableByteSpan out)>;

// The program headers of the ELF object `read` gives. Errors are
// elf-invalid at `base` + the offset of the lying field (no signature, not
// 64-bit little-endian, program headers of another size, too far or too
// many), or the reader's own.
Expected<std::vector<ProgramHeader>> readProgramHeaders(const ReadElfBytes& read, std::uint64_t base);

}  // namespace gdmap::elf
