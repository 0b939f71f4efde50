#include "elf_format.hpp"

#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <cstring>

namespace gdmap::elf {

Expected<std::vector<ProgramHeader>> readProgramHeaders(const ReadElfBytes& read, std::uint64_t base) {
  std::uint8_t header[64] = {};
  if (Status s = read(0, MutableByteSpan(header, sizeof header)); !s) return s.error();
  if (std::memcmp(header,
                  "\x7f"
                  "ELF",
                  4) != 0) {
    return Error(static_cast<std::size_t>(base), "no ELF signature at " + shortHex(base), rules::kElfInvalid);
  }
  if (header[4] != 2 || header[5] != 1) {
    return Error(static_cast<std::size_t>(base + 4), "not a 64-bit little-endian ELF module", rules::kElfInvalid);
  }
  ByteCursor h{ByteSpan(header, sizeof header)};
  h.seek(32);
  const std::uint64_t phoff = h.u64();
  h.seek(54);
  const std::uint16_t phentsize = h.u16();
  const std::uint16_t phnum = h.u16();
  if (phentsize != kProgramHeaderSize || phoff > kMaxProgramHeaderOffset || phnum > kMaxProgramHeaders) {
    return Error(static_cast<std::size_t>(base + 32),
                 "program headers at +" + shortHex(phoff) + " of " + std::to_string(phentsize) + " bytes each",
                 rules::kElfInvalid);
  }
  std::vector<std::uint8_t> raw(static_cast<std::size_t>(phnum * kProgramHeaderSize));
  if (raw.empty()) return std::vector<ProgramHeader>{};
  if (Status s = read(phoff, raw); !s) return s.error();
  std::vector<ProgramHeader> out(phnum);
  ByteCursor p{ByteSpan(raw)};
  for (ProgramHeader& ph : out) {
    ph.type = p.u32();
    p.u32();  // flags
    ph.offset = p.u64();
    ph.vaddr = p.u64();
    p.u64();  // paddr
    ph.fileSize = p.u64();
    ph.memorySize = p.u64();
    p.u64();  // align
  }
  return out;
}

}  // namespace gdmap::elf
