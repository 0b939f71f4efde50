#pragma once
// The table stream (ECMA-335 II.24.2.6): header, row counts, and where each
// row of the known tables 0x00..0x2C lies. Rows are validated to lie inside
// the stream when the stream is opened, so reading a cell cannot overrun.
#include "metadata_streams.hpp"
#include "table_schema.hpp"

#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <array>
#include <cstdint>

namespace gdmap::metadata {

class MetadataTables {
 public:
  // The tables of `stream`; an invalid-metadata error at its file offset
  // when the header is malformed or the known tables do not fit in it.
  static Expected<MetadataTables> open(const Stream& stream);

  std::uint32_t rowCount(std::uint8_t table) const { return widths_.rowCounts[table]; }

  // Column `column` of 1-based row `row`, as an unsigned integer (a heap
  // offset, a table index, or a fixed value of at most 4 bytes). open()
  // proved every row of a known table inside the stream, so this cannot
  // fail for a row and column that exist; it gives 0 for any other (a
  // caller's bug, never the file's).
  std::uint32_t cell(std::uint8_t table, std::uint32_t row, std::size_t column) const;

 private:
  MetadataTables() = default;

  struct TableLayout {
    std::size_t offset = 0;  // from the start of the stream
    std::size_t rowSize = 0;
    std::array<std::uint8_t, 9> columnOffsets{};  // no table has more than 9 columns
    std::array<std::uint8_t, 9> columnWidths{};
  };

  ByteSpan stream_;
  ColumnWidths widths_;
  std::array<TableLayout, kLastKnownTable + 1> layouts_{};
};

}  // namespace gdmap::metadata
