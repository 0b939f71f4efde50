#pragma once
// The #Pdb stream of a standalone portable PDB (Portable PDB v1.0,
// "Standalone debugging metadata"): the PDB id, the entry point, and the
// row counts of the type-system tables the debug tables refer to, which
// size the indexes into them. Shared with gdmap's portable PDB reader
// (reader/pdb); never installed.
#include <gdmap/internal/metadata_streams.hpp>
#include <gdmap/internal/metadata_table_schema.hpp>
#include <gdmap/schema/expected.hpp>

#include <array>
#include <cstdint>

namespace gdmap::metadata {

struct PdbStream {
  std::array<std::uint8_t, 20> id{};   // GUID, then the 4-byte stamp
  std::uint32_t entryPoint = 0;        // a MethodDef token, or 0
  std::uint64_t referencedTables = 0;  // ReferencedTypeSystemTables
  // TypeSystemTableRows, by table number (0 for a table not referenced).
  std::array<std::uint32_t, kTableCount> rowCounts{};
};

// An invalid-metadata error at its file offset when the stream is cut
// short, refers to a table that is no type-system table (0x2D and up),
// claims more than 2^24-1 rows for one, or names an entry point that is
// no MethodDef token.
Expected<PdbStream> readPdbStream(const Stream& stream);

}  // namespace gdmap::metadata
