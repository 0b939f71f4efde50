#pragma once
// A method's sequence points blob (Portable PDB v1.0, "Sequence Points
// Blob"): the header (LocalSignature, InitialDocument when the method's
// Document column is nil), then sequence-point, hidden-sequence-point and
// document records, each value checked against the specification's rules.
#include <gdmap/pdb/portable_pdb.hpp>
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gdmap::pdb {

struct SequencePointsBlob {
  ByteSpan bytes;                   // the blob, without its length
  std::size_t offset = 0;           // file offset of bytes[0]
  std::uint32_t methodRow = 0;      // the MethodDebugInformation row (for paths)
  std::uint32_t document = 0;       // its Document column: 0 when the blob names the first document
  std::uint32_t documentCount = 0;  // Document rows: every document record must name one
};

// The points, in IL order; pdb-invalid at the first byte that breaks a rule,
// with a path such as "MethodDebugInformation[12].SequencePoints[3].deltaLines"
// (the point's 0-based index, document records not counted). Linear in the
// blob; at most one point per 3 bytes of it.
Expected<std::vector<SequencePoint>> decodeSequencePoints(const SequencePointsBlob& blob);

}  // namespace gdmap::pdb
