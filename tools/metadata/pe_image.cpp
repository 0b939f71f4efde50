#include <gdmap/metadata/pe_image.hpp>

#include "byte_reader.hpp"

#include <vector>

namespace gdmap::metadata {
namespace {

constexpr std::uint16_t kPe32Magic = 0x10B;
constexpr std::uint16_t kPe32PlusMagic = 0x20B;
constexpr std::uint32_t kCliHeaderDirectory = 14;
constexpr std::size_t kSectionHeaderSize = 40;
// The spec allows at most 96 sections; a larger count is a hostile header.
constexpr std::uint16_t kMaxSections = 96;

struct Section {
  std::uint32_t virtualAddress = 0;
  std::uint32_t virtualSize = 0;
  std::uint32_t rawSize = 0;
  std::uint32_t rawOffset = 0;
};

struct DataDirectory {
  std::uint32_t rva = 0;
  std::uint32_t size = 0;
};

// The file bytes an RVA range occupies; only bytes present in the file count
// (the zero-filled tail of a section beyond its raw data is not metadata).
ByteSpan mapRange(ByteSpan file, const std::vector<Section>& sections, DataDirectory range, const char* what) {
  for (const Section& s : sections) {
    if (range.rva < s.virtualAddress) continue;
    const std::uint64_t delta = range.rva - s.virtualAddress;
    if (delta >= s.rawSize) continue;
    if (delta + range.size > s.rawSize) {
      throw MetadataError(std::string(what) + " runs past the end of its section");
    }
    const std::uint64_t start = s.rawOffset + delta;
    if (start + range.size > file.size()) {
      throw MetadataError(std::string(what) + " runs past the end of the file");
    }
    return file.subspan(static_cast<std::size_t>(start), range.size);
  }
  throw MetadataError(std::string(what) + " RVA " + std::to_string(range.rva) + " is in no section");
}

}  // namespace

ByteSpan findMetadataRoot(ByteSpan file) {
  ByteReader in(file, "PE image");
  if (in.u16() != 0x5A4D) in.fail(0, "no MZ signature");
  in.seek(0x3C);
  const std::uint32_t peOffset = in.u32();
  in.seek(peOffset);
  if (in.u32() != 0x00004550) in.fail(peOffset, "no PE signature");

  // COFF file header (20 bytes).
  in.skip(2);  // Machine
  const std::uint16_t sectionCount = in.u16();
  in.skip(12);  // TimeDateStamp, PointerToSymbolTable, NumberOfSymbols
  const std::uint16_t optionalHeaderSize = in.u16();
  in.skip(2);  // Characteristics
  if (sectionCount > kMaxSections) in.fail(peOffset + 6, "too many sections");

  const std::size_t optionalHeader = in.position();
  const std::uint16_t magic = in.u16();
  std::size_t directoryCountOffset = 0;
  if (magic == kPe32Magic) {
    directoryCountOffset = 92;
  } else if (magic == kPe32PlusMagic) {
    directoryCountOffset = 108;
  } else {
    in.fail(optionalHeader, "unknown optional header magic");
  }
  if (directoryCountOffset + 4 > optionalHeaderSize) {
    in.fail(optionalHeader, "optional header too small for its data directories");
  }
  in.seek(optionalHeader + directoryCountOffset);
  const std::uint32_t directoryCount = in.u32();
  if (directoryCount <= kCliHeaderDirectory) in.fail(optionalHeader, "no CLI header directory");
  const std::uint64_t directoriesEnd = directoryCountOffset + 4 + std::uint64_t{directoryCount} * 8;
  if (directoriesEnd > optionalHeaderSize) {
    in.fail(optionalHeader, "data directories overflow the optional header");
  }
  in.seek(optionalHeader + directoryCountOffset + 4 + std::size_t{kCliHeaderDirectory} * 8);
  DataDirectory cliHeader{in.u32(), in.u32()};
  if (cliHeader.rva == 0) in.fail(in.position() - 8, "not a .NET assembly (no CLI header)");

  in.seek(optionalHeader + optionalHeaderSize);
  std::vector<Section> sections;
  sections.reserve(sectionCount);
  for (std::uint16_t i = 0; i < sectionCount; ++i) {
    const std::size_t start = in.position();
    in.skip(8);  // Name
    Section s;
    s.virtualSize = in.u32();
    s.virtualAddress = in.u32();
    s.rawSize = in.u32();
    s.rawOffset = in.u32();
    in.seek(start + kSectionHeaderSize);
    sections.push_back(s);
  }

  if (cliHeader.size < 16) throw MetadataError("CLI header is too small");
  ByteReader cli(mapRange(file, sections, cliHeader, "CLI header"), "CLI header");
  cli.skip(8);  // cb, MajorRuntimeVersion, MinorRuntimeVersion
  DataDirectory metadata{cli.u32(), cli.u32()};
  return mapRange(file, sections, metadata, "metadata");
}

}  // namespace gdmap::metadata
