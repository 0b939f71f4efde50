#pragma once
// A Document's name blob (Portable PDB v1.0, "Document Name Blob"): a
// separator (a UTF-8 character, or 0 for none), then one or more parts,
// each a #Blob heap index of UTF-8 text (0: empty), joined by the
// separator.
#include <gdmap/internal/metadata_streams.hpp>
#include <gdmap/schema/expected.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace gdmap::pdb {

// Longer names are taken for a hostile PDB: parts are indexes, so a small
// blob could otherwise name gigabytes (a path is at most 32767 UTF-16
// characters on Windows, 4096 bytes on Linux).
inline constexpr std::size_t kMaxDocumentName = 65536;

// The name of Document row `row` whose Name column is `nameIndex`;
// pdb-invalid (path "Document[row].Name", or ".parts[i]" for a part) at
// the byte that breaks a rule. The bytes of the parts are kept as they are.
Expected<std::string> decodeDocumentName(const metadata::Stream& blobs, std::uint32_t nameIndex, std::uint32_t row,
                                         std::size_t nameAt);

}  // namespace gdmap::pdb
