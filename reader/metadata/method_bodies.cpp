#include <gdmap/metadata/method_bodies.hpp>

#include "metadata_root.hpp"
#include "metadata_streams.hpp"
#include "metadata_tables.hpp"

#include <gdmap/reader/pe_image.hpp>

namespace gdmap::metadata {
namespace {

constexpr std::uint8_t kMethodDef = 0x06;
constexpr std::size_t kRvaColumn = 0;
constexpr std::size_t kImplFlagsColumn = 1;
constexpr std::uint32_t kImplAsync = 0x2000;

// The CodeSize of the method header at file offset `at` (II.25.4.2: tiny,
// the low two bits 2 and the size in the other six; II.25.4.3: fat, the
// low two bits 3, a 12-byte header whose CodeSize is the u32 at +4).
std::optional<std::uint32_t> ilCodeSize(ByteSpan file, std::uint64_t at) {
  if (at >= file.size()) return std::nullopt;
  const std::uint8_t first = file[static_cast<std::size_t>(at)];
  if ((first & 3u) == 2u) return first >> 2;
  if ((first & 3u) != 3u || file.size() - at < 12) return std::nullopt;
  const std::size_t p = static_cast<std::size_t>(at) + 4;
  return std::uint32_t{file[p]} | std::uint32_t{file[p + 1]} << 8 | std::uint32_t{file[p + 2]} << 16 |
         std::uint32_t{file[p + 3]} << 24;
}

}  // namespace

Expected<std::vector<MethodIl>> methodIlBodies(ByteSpan file) {
  const Expected<pe::PeImage> pe = pe::PeImage::open(file);
  if (!pe) return pe.error();
  const Expected<ByteSpan> root = findMetadataRoot(file);
  if (!root) return root.error();
  const Expected<MetadataStreams> streams = readStreams(*root, static_cast<std::size_t>(root->data() - file.data()));
  if (!streams) return streams.error();
  const Expected<MetadataTables> tables = MetadataTables::open(streams->tables);
  if (!tables) return tables.error();
  const std::uint32_t rows = tables->rowCount(kMethodDef);
  std::vector<MethodIl> bodies(rows);
  for (std::uint32_t row = 1; row <= rows; ++row) {
    MethodIl& body = bodies[row - 1];
    body.runtimeAsync = (tables->cell(kMethodDef, row, kImplFlagsColumn) & kImplAsync) != 0;
    const std::uint32_t rva = tables->cell(kMethodDef, row, kRvaColumn);
    if (rva == 0) continue;
    if (const std::optional<std::uint64_t> at = pe->rvaToOffset(rva)) body.codeSize = ilCodeSize(file, *at);
  }
  return bodies;
}

}  // namespace gdmap::metadata
