#include <gdmap/reader/pe_image.hpp>

#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

namespace gdmap::pe {
namespace {

constexpr std::uint16_t kPe32Magic = 0x10B;
constexpr std::uint16_t kPe32PlusMagic = 0x20B;
constexpr std::size_t kSectionHeaderSize = 40;
// The PE specification allows at most 96 sections; more is a hostile header.
constexpr std::uint16_t kMaxSections = 96;
// The CLI header's size (ECMA-335 II.25.3.3) and where its directories are.
constexpr std::uint32_t kCliHeaderSize = 72;
constexpr std::size_t kManagedNativeHeaderField = 64;

Error notPe(std::size_t at, std::string message) { return Error(at, "PE: " + std::move(message), rules::kR2rNotPe); }

// The optional header's magic and data directories.
struct OptionalHeader {
  bool pe32Plus = false;
  std::uint32_t directoryCount = 0;
  std::size_t directoriesOffset = 0;
  std::vector<DataDirectory> directories;
};

// `in` is at the optional header, of `size` bytes.
Expected<OptionalHeader> readOptionalHeader(ByteCursor& in, std::uint16_t size) {
  OptionalHeader h;
  const std::size_t optionalHeader = in.position();
  const std::uint16_t magic = in.u16();
  std::size_t countField = 0;
  if (magic == kPe32Magic) {
    countField = 92;
  } else if (magic == kPe32PlusMagic) {
    countField = 108;
    h.pe32Plus = true;
  } else {
    return notPe(optionalHeader, "unknown optional header magic " + hex32(magic));
  }
  if (countField + 4 > size) {
    return notPe(optionalHeader,
                 "optional header of " + std::to_string(size) + " bytes has no room for its data directories");
  }
  in.seek(optionalHeader + countField);
  h.directoryCount = in.u32();
  h.directoriesOffset = optionalHeader + countField + 4;
  // Each directory is 8 bytes and must lie inside the optional header: this
  // bounds the count before anything is reserved.
  if (std::uint64_t{h.directoryCount} * 8 > size - countField - 4) {
    return notPe(optionalHeader + countField,
                 std::to_string(h.directoryCount) + " data directories overflow the optional header");
  }
  h.directories.reserve(h.directoryCount);
  for (std::uint32_t i = 0; i < h.directoryCount; ++i) {
    DataDirectory d;
    d.rva = in.u32();
    d.size = in.u32();
    h.directories.push_back(d);
  }
  if (!in.ok()) return notPe(in.error().offset, "data directories: " + in.error().message);
  return h;
}

// `in` is at the section table of `count` entries (checked to fit).
Expected<std::vector<SectionHeader>> readSectionTable(ByteCursor& in, ByteSpan file, std::uint16_t count) {
  std::vector<SectionHeader> sections;
  sections.reserve(count);
  for (std::uint16_t i = 0; i < count; ++i) {
    const std::size_t headerAt = in.offset();
    SectionHeader s;
    const ByteSpan name = in.take(8);
    for (std::size_t k = 0; k < 8; ++k) s.name[k] = static_cast<char>(name[k]);
    s.virtualSize = in.u32();
    s.virtualAddress = in.u32();
    s.rawSize = in.u32();
    s.rawOffset = in.u32();
    in.skip(kSectionHeaderSize - 24);
    // A file cut short (a copy interrupted, a download truncated) keeps its
    // headers: every section's raw data must be in the file, or what it
    // holds would be read as missing or as the next file's bytes.
    if (s.rawSize != 0 && std::uint64_t{s.rawOffset} + s.rawSize > file.size()) {
      return Error(headerAt + 16,
                   "PE: section '" + s.nameText() + "' has its raw data at [" + shortHex(s.rawOffset) + ", " +
                       shortHex(std::uint64_t{s.rawOffset} + s.rawSize) + "), past the end of the file (" +
                       std::to_string(file.size()) + " bytes): the file is truncated",
                   rules::kR2rTruncated);
    }
    sections.push_back(s);
  }
  return sections;
}

}  // namespace

std::string SectionHeader::nameText() const {
  std::string out;
  for (char c : name) {
    if (c == '\0') break;
    out.push_back(c);
  }
  return out;
}

Expected<PeImage> PeImage::open(ByteSpan file) {
  PeImage image;
  image.file_ = file;
  ByteCursor in(file, 0, rules::kR2rNotPe);
  if (in.u16() != 0x5A4D) return notPe(0, "no MZ signature");
  if (file.size() < 0x40) {
    return notPe(0, "a DOS header needs 64 bytes, the file has " + std::to_string(file.size()));
  }
  in.seek(0x3C);
  const std::uint32_t peOffset = in.u32();
  if (!in.seek(peOffset) || in.u32() != 0x00004550) {
    return notPe(0x3C, "no PE signature at e_lfanew " + hex32(peOffset));
  }
  image.machine_ = in.u16();
  const std::uint16_t sectionCount = in.u16();
  in.skip(12);  // TimeDateStamp, PointerToSymbolTable, NumberOfSymbols
  const std::uint16_t optionalHeaderSize = in.u16();
  in.skip(2);  // Characteristics
  if (!in.ok()) return notPe(in.error().offset, "COFF header: " + in.error().message);
  if (sectionCount > kMaxSections) {
    return notPe(peOffset + 6, std::to_string(sectionCount) + " sections (at most 96)");
  }
  const std::size_t optionalHeader = in.position();
  Expected<OptionalHeader> optional = readOptionalHeader(in, optionalHeaderSize);
  if (!optional) return optional.error();
  image.pe32Plus_ = optional->pe32Plus;
  image.directoryCount_ = optional->directoryCount;
  image.directoriesOffset_ = optional->directoriesOffset;
  image.directories_ = std::move(optional->directories);

  in.seek(optionalHeader + optionalHeaderSize);
  if (!in.ok() || in.remaining() / kSectionHeaderSize < sectionCount) {
    return notPe(peOffset + 6,
                 "the section table of " + std::to_string(sectionCount) + " entries runs past the end of the file");
  }
  Expected<std::vector<SectionHeader>> sections = readSectionTable(in, file, sectionCount);
  if (!sections) return sections.error();
  image.sections_ = std::move(*sections);
  return image;
}

DataDirectory PeImage::directory(std::uint32_t index) const {
  return index < directories_.size() ? directories_[index] : DataDirectory{};
}

std::optional<std::uint64_t> PeImage::rvaToOffset(std::uint32_t rva) const {
  for (const SectionHeader& s : sections_) {
    if (rva < s.virtualAddress) continue;
    const std::uint64_t delta = rva - s.virtualAddress;
    if (delta >= s.rawSize) continue;
    const std::uint64_t offset = std::uint64_t{s.rawOffset} + delta;
    if (offset >= file_.size()) return std::nullopt;
    return offset;
  }
  return std::nullopt;
}

Expected<ByteSpan> PeImage::range(DataDirectory range, std::uint64_t namedAt, std::string_view what) const {
  const auto where = [&] {
    return std::string(what) + " (RVA " + hex32(range.rva) + ", " + std::to_string(range.size) + " bytes)";
  };
  for (const SectionHeader& s : sections_) {
    if (range.rva < s.virtualAddress) continue;
    const std::uint64_t delta = range.rva - s.virtualAddress;
    // An empty range may sit at the very end of a section's data.
    if (delta > s.rawSize || (delta == s.rawSize && range.size != 0)) continue;
    if (delta + range.size > s.rawSize) {
      return Error(namedAt, where() + " runs past the end of section '" + s.nameText() + "'",
                   rules::kR2rSectionOutsideImage);
    }
    const std::uint64_t start = std::uint64_t{s.rawOffset} + delta;
    if (start + range.size > file_.size()) {
      return Error(namedAt, where() + " runs past the end of the file", rules::kR2rSectionOutsideImage);
    }
    return file_.subspan(static_cast<std::size_t>(start), range.size);
  }
  return Error(namedAt, where() + " is in no section's data", rules::kR2rSectionOutsideImage);
}

Expected<CliHeader> PeImage::cliHeader() const {
  const DataDirectory d = directory(kCliHeaderDirectory);
  const std::uint64_t at = directoryCount_ > kCliHeaderDirectory ? directoryOffset(kCliHeaderDirectory) : 0;
  if (d.rva == 0) return Error(at, "PE: not a .NET assembly (no CLI header directory)", rules::kR2rNoHeader);
  if (d.size < kCliHeaderSize) {
    return notPe(at,
                 "CLI header of " + std::to_string(d.size) + " bytes (needs " + std::to_string(kCliHeaderSize) + ")");
  }
  Expected<ByteSpan> bytes = range(d, at, "CLI header");
  if (!bytes) return bytes.error();
  CliHeader h;
  h.offset = static_cast<std::uint64_t>(bytes->data() - file_.data());
  ByteCursor in(*bytes, static_cast<std::size_t>(h.offset), rules::kR2rNotPe);
  in.skip(4);  // cb
  h.majorRuntimeVersion = in.u16();
  h.minorRuntimeVersion = in.u16();
  h.metadata.rva = in.u32();
  h.metadata.size = in.u32();
  h.flags = in.u32();
  in.seek(kManagedNativeHeaderField);
  h.managedNativeHeaderAt = in.offset();
  h.managedNativeHeader.rva = in.u32();
  h.managedNativeHeader.size = in.u32();
  if (!in.ok()) return in.takeError();
  return h;
}

std::optional<std::uint32_t> PeImage::exportRva(std::string_view name) const {
  const DataDirectory d = directory(0);
  constexpr std::uint32_t kExportDirectorySize = 40;
  if (d.rva == 0 || d.size < kExportDirectorySize) return std::nullopt;
  const Expected<ByteSpan> table = range({d.rva, kExportDirectorySize}, 0, "export directory");
  if (!table) return std::nullopt;
  // Every read below is inside a range checked first.
  const auto u32At = [](ByteSpan b, std::size_t at) {
    ByteCursor in(b);
    in.seek(at);
    return in.u32();
  };
  const auto u16At = [](ByteSpan b, std::size_t at) {
    ByteCursor in(b);
    in.seek(at);
    return in.u16();
  };
  const std::uint32_t functionCount = u32At(*table, 20);
  const std::uint32_t nameCount = u32At(*table, 24);
  // Each name takes 4 + 2 bytes of tables and each function 4: a count the
  // file cannot hold is refused before the loop.
  if (nameCount > file_.size() / 6 || functionCount > file_.size() / 4) return std::nullopt;
  const Expected<ByteSpan> functions = range({u32At(*table, 28), functionCount * 4}, 0, "export functions");
  const Expected<ByteSpan> names = range({u32At(*table, 32), nameCount * 4}, 0, "export names");
  const Expected<ByteSpan> ordinals = range({u32At(*table, 36), nameCount * 2}, 0, "export ordinals");
  if (!functions || !names || !ordinals) return std::nullopt;
  for (std::uint32_t i = 0; i < nameCount; ++i) {
    const std::optional<std::uint64_t> at = rvaToOffset(u32At(*names, std::size_t{i} * 4));
    if (!at || *at + name.size() >= file_.size()) continue;
    const ByteSpan text = file_.subspan(static_cast<std::size_t>(*at), name.size() + 1);
    if (std::string_view(reinterpret_cast<const char*>(text.data()), name.size()) != name || text[name.size()] != 0) {
      continue;
    }
    const std::uint32_t ordinal = u16At(*ordinals, std::size_t{i} * 2);
    if (ordinal >= functionCount) return std::nullopt;
    return u32At(*functions, std::size_t{ordinal} * 4);
  }
  return std::nullopt;
}

}  // namespace gdmap::pe
