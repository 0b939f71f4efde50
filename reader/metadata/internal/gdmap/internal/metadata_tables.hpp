#pragma once
// The table stream (ECMA-335 II.24.2.6): header, row counts, and where each
// row of the known tables lies: the type-system tables 0x00..0x2C of an
// assembly, or the debug tables 0x30..0x37 of a standalone portable PDB.
// Rows are validated to lie inside the stream when the stream is opened,
// so reading a cell cannot overrun. Shared with gdmap's portable PDB
// reader (reader/pdb); never installed.
#include <gdmap/internal/metadata_streams.hpp>
#include <gdmap/internal/metadata_table_schema.hpp>
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <array>
#include <cstdint>

namespace gdmap::metadata {

struct PdbStream;

class MetadataTables {
 public:
  // The tables of an assembly's `stream`; an invalid-metadata error at its
  // file offset when the header is malformed or the known tables do not fit
  // in it.
  static Expected<MetadataTables> open(const Stream& stream);
  // The tables of a standalone portable PDB's `stream`, whose indexes into
  // the type-system tables are as wide as `pdb`'s row counts make them
  // (Portable PDB v1.0, "#~ stream"). Errors as open(), and when the stream
  // holds a type-system table (only debug tables belong there).
  static Expected<MetadataTables> openPortablePdb(const Stream& stream, const PdbStream& pdb);

  // The rows of `table` in this stream.
  std::uint32_t rowCount(std::uint8_t table) const { return table < kTableCount ? rows_[table] : 0; }

  // Column `column` of 1-based row `row`, as an unsigned integer (a heap
  // offset, a table index, or a fixed value of at most 4 bytes). open()
  // proved every row of a known table inside the stream, so this cannot
  // fail for a row and column that exist; it gives 0 for any other (a
  // caller's bug, never the file's).
  std::uint32_t cell(std::uint8_t table, std::uint32_t row, std::size_t column) const;
  // The file offset of that cell (to locate what is wrong with its value);
  // the stream's own offset for a cell that does not exist.
  std::size_t cellOffset(std::uint8_t table, std::uint32_t row, std::size_t column) const;

 private:
  MetadataTables() = default;
  // Reads the header and row counts; the offset of the first table.
  Expected<std::size_t> readHeader(const Stream& stream);
  // Places tables 0..`last` one after the other from `offset`.
  Status layOut(const Stream& stream, std::size_t offset, std::uint8_t last);
  bool hasCell(std::uint8_t table, std::uint32_t row, std::size_t column) const;

  struct TableLayout {
    std::size_t offset = 0;  // from the start of the stream
    std::size_t rowSize = 0;
    std::array<std::uint8_t, 9> columnOffsets{};  // no table has more than 9 columns
    std::array<std::uint8_t, 9> columnWidths{};
  };

  ByteSpan stream_;
  std::size_t streamOffset_ = 0;
  std::array<std::uint32_t, kTableCount> rows_{};  // the Valid mask's tables
  ColumnWidths widths_;                            // their counts, and a PDB's type-system counts
  std::uint8_t lastLaidOut_ = kLastKnownTable;
  std::array<TableLayout, kLastDebugTable + 1> layouts_{};
};

}  // namespace gdmap::metadata
