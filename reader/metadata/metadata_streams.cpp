#include <gdmap/internal/metadata_streams.hpp>

#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/rules.hpp>

#include <string>

namespace gdmap::metadata {
namespace {

constexpr std::uint32_t kRootSignature = 0x424A5342;  // "BSJB"
// Stream names are at most 32 characters including the NUL (II.24.2.2).
constexpr std::size_t kMaxStreamName = 32;

std::size_t alignUp4(std::size_t n) { return (n + 3) & ~std::size_t{3}; }

Error rootError(Error e, std::string path) {
  e.path = std::move(path);
  return e;
}

}  // namespace

Expected<MetadataStreams> readStreams(ByteSpan root, std::size_t rootOffset) {
  ByteCursor in(root, rootOffset, rules::kInvalidMetadata);
  if (in.u32() != kRootSignature) in.fail(rootOffset, "no BSJB signature");
  in.skip(8);  // MajorVersion, MinorVersion, Reserved
  const std::uint32_t versionLength = in.u32();
  // The length already counts the padding to a multiple of 4 (II.24.2.1).
  in.skip(versionLength);
  in.skip(2);  // Flags
  const std::uint16_t streamCount = in.u16();
  if (!in.ok()) return rootError(in.takeError(), "metadata root");

  MetadataStreams streams;
  bool haveTables = false;
  for (std::uint16_t i = 0; i < streamCount; ++i) {
    const std::string path = "metadata root.streams[" + std::to_string(i) + "]";
    const std::size_t headerStart = in.position();
    const std::uint32_t offset = in.u32();
    const std::uint32_t size = in.u32();
    std::string name;
    while (in.ok()) {
      const char c = static_cast<char>(in.u8());
      if (c == '\0' || !in.ok()) break;
      name.push_back(c);
      if (name.size() >= kMaxStreamName) in.fail(rootOffset + headerStart, "stream name too long");
    }
    // The name, its NUL and padding take a multiple of 4 bytes.
    in.seek(headerStart + 8 + alignUp4(name.size() + 1));
    if (in.ok() && (offset > root.size() || size > root.size() - offset))
      in.fail(rootOffset + headerStart, "stream " + name + " lies outside the metadata");
    if (!in.ok()) return rootError(in.takeError(), path);
    const Stream stream{root.subspan(offset, size), rootOffset + offset};
    if (name == "#~" || name == "#-") {
      streams.tables = stream;
      haveTables = true;
    } else if (name == "#Blob") {
      streams.blobs = stream;
    } else if (name == "#Strings") {
      streams.strings = stream;
    } else if (name == "#GUID") {
      streams.guids = stream;
    } else if (name == "#Pdb") {
      streams.pdb = stream;
      streams.hasPdb = true;
    }
  }
  if (!haveTables)
    return Error(rootOffset, OffsetUnit::Byte, "metadata root", "metadata has no #~ or #- table stream",
                 rules::kInvalidMetadata);
  return streams;
}

}  // namespace gdmap::metadata
