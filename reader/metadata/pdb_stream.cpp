#include <gdmap/internal/metadata_pdb_stream.hpp>
#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <string>

namespace gdmap::metadata {
namespace {

constexpr std::uint32_t kMaxRows = 0x00FFFFFF;  // a row number is 24 bits of a token

Error pdbStreamError(Error e, const std::string& field) {
  e.path = "#Pdb stream";
  if (!field.empty()) e.path += "." + field;
  return e;
}

}  // namespace

Expected<PdbStream> readPdbStream(const Stream& stream) {
  PdbStream out;
  ByteCursor in(stream.bytes, stream.offset, rules::kInvalidMetadata);
  const ByteSpan id = in.take(out.id.size());
  if (!in.ok()) return pdbStreamError(in.takeError(), "PDB id");
  std::copy(id.begin(), id.end(), out.id.begin());
  const std::size_t entryAt = in.offset();
  out.entryPoint = in.u32();
  if (!in.ok()) return pdbStreamError(in.takeError(), "EntryPoint");
  if (out.entryPoint != 0 && out.entryPoint >> 24 != table::kMethodDef)
    return pdbStreamError(
        Error(entryAt, "entry point " + hex32(out.entryPoint) + " is no MethodDef token", rules::kInvalidMetadata),
        "EntryPoint");
  const std::size_t maskAt = in.offset();
  out.referencedTables = in.u64();
  if (!in.ok()) return pdbStreamError(in.takeError(), "ReferencedTypeSystemTables");
  if (out.referencedTables >> (kLastKnownTable + 1) != 0)
    return pdbStreamError(
        Error(maskAt, "refers to tables past 0x2C, which are no type-system tables", rules::kInvalidMetadata),
        "ReferencedTypeSystemTables");
  for (std::size_t t = 0; t <= kLastKnownTable; ++t) {
    if ((out.referencedTables >> t & 1) == 0) continue;
    const std::size_t at = in.offset();
    const std::uint32_t rows = in.u32();
    const std::string field = "TypeSystemTableRows[" + hex8(static_cast<std::uint8_t>(t)) + "]";
    if (!in.ok()) return pdbStreamError(in.takeError(), field);
    if (rows > kMaxRows)
      return pdbStreamError(
          Error(at, "table " + hex8(static_cast<std::uint8_t>(t)) + " claims too many rows", rules::kInvalidMetadata),
          field);
    out.rowCounts[t] = rows;
  }
  return out;
}

}  // namespace gdmap::metadata
