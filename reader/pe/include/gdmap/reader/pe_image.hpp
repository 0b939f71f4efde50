#pragma once
// PE/COFF headers, bounds-checked: the one PE reader behind both the
// metadata reader (reader/metadata: the CLI header's MetaData directory) and
// the ReadyToRun reader (the CLI header's ManagedNativeHeader). It reads
// the DOS stub's e_lfanew, the PE signature, the COFF header (Machine), the
// optional header's data directories and the section table, and maps RVA
// ranges to the file bytes the sections' raw data holds.
//
// Errors carry the file offset of the offending field and a rule id:
// r2r-not-pe for malformed headers, r2r-section-outside-image for an RVA
// range that no section's raw data holds (docs/errors.md).
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::pe {

struct DataDirectory {
  std::uint32_t rva = 0;
  std::uint32_t size = 0;
};

// Data directory indexes (the optional header's table).
inline constexpr std::uint32_t kCliHeaderDirectory = 14;

struct SectionHeader {
  std::array<char, 8> name{};  // NUL-padded, not necessarily NUL-terminated
  std::uint32_t virtualSize = 0;
  std::uint32_t virtualAddress = 0;
  std::uint32_t rawSize = 0;
  std::uint32_t rawOffset = 0;
  std::string nameText() const;
};

// ECMA-335 II.25.3.3, the fields the readers use.
struct CliHeader {
  std::uint64_t offset = 0;  // file offset of the header
  std::uint16_t majorRuntimeVersion = 0;
  std::uint16_t minorRuntimeVersion = 0;
  DataDirectory metadata;
  std::uint32_t flags = 0;
  DataDirectory managedNativeHeader;        // a READYTORUN_HEADER in an R2R image; zero otherwise
  std::uint64_t managedNativeHeaderAt = 0;  // file offset of that directory entry
};

class PeImage {
 public:
  // Reads the headers and the section table (at most 96 sections, as the
  // PE specification allows).
  static Expected<PeImage> open(ByteSpan file);

  ByteSpan file() const { return file_; }
  std::uint16_t machine() const { return machine_; }
  bool pe32Plus() const { return pe32Plus_; }
  const std::vector<SectionHeader>& sections() const { return sections_; }
  // The directory at `index`, zero when the table is shorter.
  DataDirectory directory(std::uint32_t index) const;
  // File offset of the directory entry `index` (for error locations).
  std::uint64_t directoryOffset(std::uint32_t index) const { return directoriesOffset_ + std::uint64_t{index} * 8; }

  // The file offset of the byte at `rva`, when a section's raw data holds it.
  std::optional<std::uint64_t> rvaToOffset(std::uint32_t rva) const;
  // The file bytes of [rva, rva + size): all in one section's raw data and in
  // the file, else r2r-section-outside-image at `namedAt` (the offset of the
  // field that named the range), the message starting with `what`.
  Expected<ByteSpan> range(DataDirectory range, std::uint64_t namedAt, std::string_view what) const;

  // The CLI header (data directory 14). r2r-no-header when the image has
  // none; r2r-not-pe when it is shorter than the 72 bytes it must hold.
  Expected<CliHeader> cliHeader() const;

  // The RVA the export directory (data directory 0) gives the symbol
  // `name`; nullopt when the image exports no such name or its export
  // table cannot be read (every count checked against the bytes it needs).
  std::optional<std::uint32_t> exportRva(std::string_view name) const;

 private:
  ByteSpan file_;
  std::uint16_t machine_ = 0;
  bool pe32Plus_ = false;
  std::uint64_t directoriesOffset_ = 0;
  std::uint32_t directoryCount_ = 0;
  std::vector<DataDirectory> directories_;
  std::vector<SectionHeader> sections_;
};

}  // namespace gdmap::pe
