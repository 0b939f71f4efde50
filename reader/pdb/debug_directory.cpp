#include <gdmap/pdb/debug_directory.hpp>
#include <gdmap/reader/pe_image.hpp>
#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <string>

namespace gdmap::pdb {
namespace {

constexpr std::uint32_t kDebugDirectory = 6;  // the optional header's data directory
constexpr std::size_t kEntrySize = 28;        // IMAGE_DEBUG_DIRECTORY
constexpr std::uint32_t kCodeView = 2;
constexpr std::uint32_t kEmbeddedPortablePdb = 17;
constexpr std::uint32_t kRsds = 0x53445352;               // "RSDS"
constexpr std::uint32_t kMpdb = 0x4244504D;               // "MPDB"
constexpr std::uint16_t kPortableCodeViewMinor = 0x504D;  // "PM": the PDB is a portable one
constexpr std::size_t kRsdsHeader = 24;                   // signature, GUID, age

struct Entry {
  std::size_t index = 0;
  std::size_t at = 0;  // file offset of the entry
  std::uint32_t stamp = 0;
  std::uint16_t minorVersion = 0;
  std::uint32_t type = 0;
  std::uint32_t size = 0;
  std::uint32_t pointer = 0;  // PointerToRawData: the data's file offset
};

std::string entryPath(const Entry& e) { return "debug directory[" + std::to_string(e.index) + "]"; }

Error entryError(const Entry& e, std::size_t at, std::string message, const char* rule) {
  return Error(at, OffsetUnit::Byte, entryPath(e), std::move(message), rule);
}

// The entry's data, in the file at PointerToRawData (as PEReader reads an
// image file); an error naming `rule` when it lies outside.
Expected<ByteSpan> entryData(ByteSpan image, const Entry& e, const char* rule) {
  if (e.pointer > image.size() || e.size > image.size() - e.pointer)
    return entryError(e, e.at + 24,
                      "PE: its data (file offset " + hex32(e.pointer) + ", " + std::to_string(e.size) +
                          " bytes) lies outside the " + std::to_string(image.size()) + "-byte file",
                      rule);
  return image.subspan(e.pointer, e.size);
}

// An RSDS CodeView entry; nothing for another form (NB10, ...).
Status readCodeView(ByteSpan image, const Entry& e, DebugDirectory& out) {
  const Expected<ByteSpan> data = entryData(image, e, rules::kR2rNotPe);
  if (!data) return data.error();
  ByteCursor in(*data, e.pointer, rules::kR2rNotPe);
  if (data->size() < 4 || in.u32() != kRsds) return Success{};
  CodeViewEntry entry;
  const ByteSpan guid = in.take(16);
  entry.age = in.u32();
  if (!in.ok()) return entryError(e, in.error().offset, "PE: the CodeView data is cut short", rules::kR2rNotPe);
  std::copy(guid.begin(), guid.end(), entry.id.bytes.begin());
  for (std::size_t i = 0; i < 4; ++i) entry.id.bytes[16 + i] = static_cast<std::uint8_t>(e.stamp >> (8 * i));
  const ByteSpan path = in.rest();
  const auto nul = std::find(path.begin(), path.end(), std::uint8_t{0});
  if (nul == path.end())
    return entryError(e, e.pointer + kRsdsHeader, "PE: the CodeView path has no terminating NUL", rules::kR2rNotPe);
  entry.path.assign(path.begin(), nul);
  entry.portable = e.minorVersion == kPortableCodeViewMinor;
  entry.offset = e.pointer;
  out.codeView.push_back(std::move(entry));
  return Success{};
}

// The first EmbeddedPortablePdb entry: "MPDB", the uncompressed size, then
// raw deflate (PE-COFF.md, "Embedded Portable PDB Debug Directory Entry").
Status readEmbedded(ByteSpan image, const Entry& e, DebugDirectory& out) {
  if (out.hasEmbeddedPdb) return Success{};
  const Expected<ByteSpan> data = entryData(image, e, rules::kPdbEmbeddedInvalid);
  if (!data) return data.error();
  ByteCursor in(*data, e.pointer, rules::kPdbEmbeddedInvalid);
  const std::uint32_t signature = in.u32();
  const std::uint32_t size = in.u32();
  if (!in.ok())
    return entryError(
        e, e.pointer,
        "the embedded PDB's data is cut short (" + std::to_string(data->size()) + " bytes, at least 8 needed)",
        rules::kPdbEmbeddedInvalid);
  if (signature != kMpdb)
    return entryError(e, e.pointer, "the embedded PDB's data does not start with MPDB", rules::kPdbEmbeddedInvalid);
  out.hasEmbeddedPdb = true;
  out.embeddedSize = size;
  out.embeddedDeflate = in.rest();
  out.embeddedOffset = e.pointer;
  return Success{};
}

}  // namespace

Expected<DebugDirectory> readDebugDirectory(ByteSpan image) {
  const Expected<pe::PeImage> pe = pe::PeImage::open(image);
  if (!pe) return pe.error();
  DebugDirectory out;
  const pe::DataDirectory directory = pe->directory(kDebugDirectory);
  if (directory.rva == 0 && directory.size == 0) return out;
  const std::uint64_t namedAt = pe->directoryOffset(kDebugDirectory);
  const Expected<ByteSpan> entries = pe->range(directory, namedAt, "debug directory");
  if (!entries) return entries.error();
  if (entries->size() % kEntrySize != 0)
    return Error(namedAt, OffsetUnit::Byte, "debug directory",
                 "PE: the debug directory's " + std::to_string(entries->size()) + " bytes are no multiple of 28",
                 rules::kR2rNotPe);
  const std::size_t base = static_cast<std::size_t>(entries->data() - image.data());
  for (std::size_t i = 0; i < entries->size() / kEntrySize; ++i) {
    ByteCursor in(entries->subspan(i * kEntrySize, kEntrySize), base + i * kEntrySize);
    Entry e;
    e.index = i;
    e.at = in.offset();
    in.skip(4);  // Characteristics
    e.stamp = in.u32();
    in.skip(2);  // MajorVersion
    e.minorVersion = in.u16();
    e.type = in.u32();
    e.size = in.u32();
    in.skip(4);  // AddressOfRawData: the data's RVA, when it is mapped
    e.pointer = in.u32();
    Status read = Success{};
    if (e.type == kCodeView) read = readCodeView(image, e, out);
    else if (e.type == kEmbeddedPortablePdb) read = readEmbedded(image, e, out);
    if (!read) return read.error();
  }
  return out;
}

}  // namespace gdmap::pdb
