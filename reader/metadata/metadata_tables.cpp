#include <gdmap/internal/metadata_pdb_stream.hpp>
#include <gdmap/internal/metadata_tables.hpp>
#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <string>

namespace gdmap::metadata {
namespace {

// HeapSizes bits (II.24.2.6) and the bit the CLR's uncompressed (#-) writer
// sets when four bytes of extra data follow the row counts.
constexpr std::uint8_t kWideStrings = 0x01;
constexpr std::uint8_t kWideGuids = 0x02;
constexpr std::uint8_t kWideBlobs = 0x04;
constexpr std::uint8_t kExtraData = 0x40;
// Row indexes are 24 bits in a token; a larger count is a hostile header.
constexpr std::uint32_t kMaxRows = 0x00FFFFFF;
// The Valid mask's offset in the header: Reserved, versions, HeapSizes, Reserved.
constexpr std::size_t kValidOffset = 8;

Error located(Error e) {
  e.path = "#~ table stream";
  return e;
}

}  // namespace

Expected<std::size_t> MetadataTables::readHeader(const Stream& stream) {
  stream_ = stream.bytes;
  streamOffset_ = stream.offset;
  ByteCursor in(stream.bytes, stream.offset, rules::kInvalidMetadata);
  in.skip(4);  // Reserved
  in.skip(2);  // MajorVersion, MinorVersion
  const std::uint8_t heapSizes = in.u8();
  in.skip(1);  // Reserved
  const std::uint64_t valid = in.u64();
  in.skip(8);  // Sorted
  widths_.wideStrings = (heapSizes & kWideStrings) != 0;
  widths_.wideGuids = (heapSizes & kWideGuids) != 0;
  widths_.wideBlobs = (heapSizes & kWideBlobs) != 0;
  for (std::size_t t = 0; t < kTableCount && in.ok(); ++t) {
    if ((valid >> t) & 1) {
      const std::size_t at = in.offset();
      const std::uint32_t rows = in.u32();
      if (rows > kMaxRows) in.fail(at, "table " + std::to_string(t) + " claims too many rows");
      rows_[t] = rows;
    }
  }
  if (heapSizes & kExtraData) in.skip(4);
  if (!in.ok()) return located(in.takeError());
  widths_.rowCounts = rows_;
  return in.position();
}

Status MetadataTables::layOut(const Stream& stream, std::size_t offset, std::uint8_t last) {
  // Tables follow each other in table-number order; unknown tables (past
  // the last one read) can only come after the ones this tool reads, so
  // their unknown row size does not matter.
  lastLaidOut_ = last;
  for (std::uint8_t t = 0; t <= last; ++t) {
    TableLayout& layout = layouts_[t];
    layout.offset = offset;
    std::size_t columnOffset = 0;
    const std::vector<Column>& columns = tableColumns(t);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      layout.columnOffsets[c] = static_cast<std::uint8_t>(columnOffset);
      layout.columnWidths[c] = static_cast<std::uint8_t>(widths_.width(columns[c]));
      columnOffset += layout.columnWidths[c];
    }
    layout.rowSize = columnOffset;
    const std::uint64_t tableSize = std::uint64_t{layout.rowSize} * rowCount(t);
    if (tableSize > stream.bytes.size() - offset)
      return located(Error(stream.offset + offset, "table " + std::to_string(t) + " runs past the end of the stream",
                           rules::kInvalidMetadata));
    offset += static_cast<std::size_t>(tableSize);
  }
  return Success{};
}

Expected<MetadataTables> MetadataTables::open(const Stream& stream) {
  MetadataTables out;
  const Expected<std::size_t> first = out.readHeader(stream);
  if (!first) return first.error();
  if (Status placed = out.layOut(stream, *first, kLastKnownTable); !placed) return placed.error();
  return out;
}

Expected<MetadataTables> MetadataTables::openPortablePdb(const Stream& stream, const PdbStream& pdb) {
  MetadataTables out;
  const Expected<std::size_t> first = out.readHeader(stream);
  if (!first) return first.error();
  for (std::uint8_t t = 0; t < kFirstDebugTable; ++t) {
    if (out.rows_[t] != 0)
      return located(Error(stream.offset + kValidOffset,
                           "holds table " + hex8(t) + ", a type-system table: a standalone PDB's has debug tables only",
                           rules::kInvalidMetadata));
    out.widths_.rowCounts[t] = pdb.rowCounts[t];
  }
  if (Status placed = out.layOut(stream, *first, kLastDebugTable); !placed) return placed.error();
  return out;
}

bool MetadataTables::hasCell(std::uint8_t table, std::uint32_t row, std::size_t column) const {
  return table <= lastLaidOut_ && row != 0 && row <= rowCount(table) && column < tableColumns(table).size();
}

std::uint32_t MetadataTables::cell(std::uint8_t table, std::uint32_t row, std::size_t column) const {
  if (!hasCell(table, row, column)) return 0;
  const TableLayout& layout = layouts_[table];
  const std::size_t start = layout.offset + (row - 1) * layout.rowSize + layout.columnOffsets[column];
  ByteCursor in(stream_.subspan(start));
  return static_cast<std::uint32_t>(in.uint(layout.columnWidths[column]));
}

std::size_t MetadataTables::cellOffset(std::uint8_t table, std::uint32_t row, std::size_t column) const {
  if (!hasCell(table, row, column)) return streamOffset_;
  const TableLayout& layout = layouts_[table];
  return streamOffset_ + layout.offset + (row - 1) * layout.rowSize + layout.columnOffsets[column];
}

}  // namespace gdmap::metadata
