#include <gdmap/metadata/metadata_streams.hpp>

#include "byte_reader.hpp"

#include <string>

namespace gdmap::metadata {
namespace {

constexpr std::uint32_t kRootSignature = 0x424A5342;  // "BSJB"
// Stream names are at most 32 characters including the NUL (II.24.2.2).
constexpr std::size_t kMaxStreamName = 32;

std::size_t alignUp4(std::size_t n) { return (n + 3) & ~std::size_t{3}; }

}  // namespace

MetadataStreams readStreams(ByteSpan root) {
  ByteReader in(root, "metadata root");
  if (in.u32() != kRootSignature) in.fail(0, "no BSJB signature");
  in.skip(8);  // MajorVersion, MinorVersion, Reserved
  const std::uint32_t versionLength = in.u32();
  // The length already counts the padding to a multiple of 4 (II.24.2.1).
  in.skip(versionLength);
  in.skip(2);  // Flags
  const std::uint16_t streamCount = in.u16();

  MetadataStreams streams;
  bool haveTables = false;
  for (std::uint16_t i = 0; i < streamCount; ++i) {
    const std::size_t headerStart = in.position();
    const std::uint32_t offset = in.u32();
    const std::uint32_t size = in.u32();
    std::string name;
    for (;;) {
      const char c = static_cast<char>(in.u8());
      if (c == '\0') break;
      name.push_back(c);
      if (name.size() >= kMaxStreamName) in.fail(headerStart, "stream name too long");
    }
    // The name, its NUL and padding take a multiple of 4 bytes.
    in.seek(headerStart + 8 + alignUp4(name.size() + 1));
    if (offset > root.size() || size > root.size() - offset) {
      in.fail(headerStart, "stream " + name + " lies outside the metadata");
    }
    const ByteSpan bytes = root.subspan(offset, size);
    if (name == "#~" || name == "#-") {
      streams.tables = bytes;
      haveTables = true;
    } else if (name == "#Blob") {
      streams.blobs = bytes;
    } else if (name == "#Strings") {
      streams.strings = bytes;
    }
  }
  if (!haveTables) throw MetadataError("metadata has no #~ or #- table stream");
  return streams;
}

}  // namespace gdmap::metadata
