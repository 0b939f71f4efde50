#include <gdmap/metadata/method_bodies.hpp>

#include <gdmap/internal/metadata_heaps.hpp>
#include <gdmap/internal/metadata_streams.hpp>
#include <gdmap/internal/metadata_table_schema.hpp>
#include <gdmap/internal/metadata_tables.hpp>
#include "metadata_root.hpp"

#include <gdmap/reader/pe_image.hpp>

namespace gdmap::metadata {
namespace {

using table::kCustomAttribute;
using table::kMemberRef;
using table::kMethodDef;
using table::kTypeDef;
using table::kTypeRef;
constexpr std::size_t kRvaColumn = 0;
constexpr std::size_t kImplFlagsColumn = 1;
constexpr std::uint32_t kImplAsync = 0x2000;

// Whether the type `row` of `table` (TypeDef or TypeRef) is
// System.Runtime.CompilerServices.IntrinsicAttribute.
bool isIntrinsicAttribute(const MetadataTables& tables, const Stream& strings, std::uint8_t table, std::uint32_t row) {
  if (row == 0 || row > tables.rowCount(table)) return false;
  const Expected<std::string> name = stringAt(strings, tables.cell(table, row, 1));
  const Expected<std::string> ns = stringAt(strings, tables.cell(table, row, 2));
  return name && ns && *name == "IntrinsicAttribute" && *ns == "System.Runtime.CompilerServices";
}

// The TypeDef that owns MethodDef `method`: the last whose MethodList
// (column 5) is at most `method` (II.22.37: the rows run to the next
// type's list). Rows ascend, so a binary search.
std::uint32_t ownerTypeDef(const MetadataTables& tables, std::uint32_t method) {
  std::uint32_t low = 1, high = tables.rowCount(kTypeDef), owner = 0;
  while (low <= high) {
    const std::uint32_t mid = low + (high - low) / 2;
    if (tables.cell(kTypeDef, mid, 5) <= method) {
      owner = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return owner;
}

// Whether an attribute of type `type` (a CustomAttributeType coded index:
// tag 2 a MethodDef, tag 3 a MemberRef) is a constructor of
// IntrinsicAttribute, this assembly's type or a TypeRef to it.
bool isIntrinsicConstructor(const MetadataTables& tables, const Stream& strings, std::uint32_t type) {
  const std::uint32_t tag = type & 7u, index = type >> 3;
  if (tag == 2) return isIntrinsicAttribute(tables, strings, kTypeDef, ownerTypeDef(tables, index));
  if (tag != 3 || index == 0 || index > tables.rowCount(kMemberRef)) return false;
  const std::uint32_t owner = tables.cell(kMemberRef, index, 0);  // MemberRefParent: tag 1 is a TypeRef
  return (owner & 7u) == 1 && isIntrinsicAttribute(tables, strings, kTypeRef, owner >> 3);
}

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

// The metadata's streams and tables, or the error that stops them.
struct Metadata {
  MetadataStreams streams;
  MetadataTables tables;
};

Expected<Metadata> openMetadata(ByteSpan file) {
  const Expected<ByteSpan> root = findMetadataRoot(file);
  if (!root) return root.error();
  Expected<MetadataStreams> streams = readStreams(*root, static_cast<std::size_t>(root->data() - file.data()));
  if (!streams) return streams.error();
  Expected<MetadataTables> tables = MetadataTables::open(streams->tables);
  if (!tables) return tables.error();
  return Metadata{*streams, *tables};
}

}  // namespace

Expected<bool> hasIntrinsicAttribute(ByteSpan file, std::uint32_t row) {
  const Expected<Metadata> metadata = openMetadata(file);
  if (!metadata) return metadata.error();
  const MetadataTables& tables = metadata->tables;
  // The attributes whose Parent is MethodDef `row` (HasCustomAttribute tag
  // 0): the first row at or past that parent, then the run of it.
  const std::uint32_t parent = row << 5;
  std::uint32_t low = 1, high = tables.rowCount(kCustomAttribute) + 1;
  while (low < high) {
    const std::uint32_t mid = low + (high - low) / 2;
    if (tables.cell(kCustomAttribute, mid, 0) < parent) low = mid + 1;
    else high = mid;
  }
  for (std::uint32_t r = low; r <= tables.rowCount(kCustomAttribute) && tables.cell(kCustomAttribute, r, 0) == parent;
       ++r) {
    if (isIntrinsicConstructor(tables, metadata->streams.strings, tables.cell(kCustomAttribute, r, 1))) return true;
  }
  return false;
}

Expected<std::vector<MethodIl>> methodIlBodies(ByteSpan file) {
  const Expected<pe::PeImage> pe = pe::PeImage::open(file);
  if (!pe) return pe.error();
  const Expected<Metadata> metadata = openMetadata(file);
  if (!metadata) return metadata.error();
  const MetadataTables* tables = &metadata->tables;
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
