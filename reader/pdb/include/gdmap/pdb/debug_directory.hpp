#pragma once
// A PE image's debug directory (data directory 6, PE/COFF "The .debug
// Section"): the CodeView entries that name the image's PDB and its id,
// and the portable PDB an image may carry inside itself (entry type 17,
// EmbeddedPortablePdb), as System.Reflection.Metadata's PEReader reads
// them (dotnet/runtime docs/design/specs/PE-COFF.md).
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gdmap::pdb {

// A portable PDB's id (its #Pdb stream's first 20 bytes): a GUID, then a
// 4-byte stamp. An image names it in a CodeView entry: the GUID in the
// entry's data, the stamp as the entry's TimeDateStamp.
struct PdbId {
  std::array<std::uint8_t, 20> bytes{};
  bool operator==(const PdbId&) const = default;
  // "a1a63090-8cda-4d77-9eeb-b5cb5c2eefb8:0x816db384": the GUID as .NET
  // writes it (Guid.ToString("D")), then the stamp in hex.
  std::string text() const;
};

// A CodeView entry (type 2) of the RSDS form.
struct CodeViewEntry {
  PdbId id;
  std::uint32_t age = 0;
  std::string path;          // the PDB's path as the compiler wrote it (UTF-8)
  bool portable = false;     // MinorVersion 0x504D: the PDB is a portable one
  std::uint64_t offset = 0;  // file offset of the entry's data
};

struct DebugDirectory {
  std::vector<CodeViewEntry> codeView;  // RSDS entries, in directory order
  bool hasEmbeddedPdb = false;          // an EmbeddedPortablePdb entry (type 17); the first one
  std::uint32_t embeddedSize = 0;       // its declared uncompressed size
  ByteSpan embeddedDeflate;             // its raw-deflate bytes (after "MPDB" and the size)
  std::uint64_t embeddedOffset = 0;     // file offset of the entry's data
};

// The debug directory of `image`, a PE file's bytes (the spans point into
// them). An image without a debug directory gives an empty result. Errors:
// the PE reader's (r2r-not-pe, r2r-truncated, r2r-section-outside-image) for the headers,
// a directory whose size is no multiple of 28 bytes or an entry whose data
// lies outside the file, or a CodeView entry cut short or without its
// path's NUL (r2r-not-pe); an EmbeddedPortablePdb entry without its "MPDB"
// signature and size (pdb-embedded-invalid). Each at its file offset.
Expected<DebugDirectory> readDebugDirectory(ByteSpan image);

// The embedded portable PDB, inflated: exactly `embeddedSize` bytes.
// pdb-not-found when the image has none; pdb-embedded-invalid when the
// declared size is over 256 MiB or more than raw deflate can make of the
// bytes given, when the bytes are no raw deflate stream, or when they
// inflate to another size than the declared one (located at the offset of
// the compressed byte where inflating stopped).
Expected<std::vector<std::uint8_t>> inflateEmbeddedPdb(const DebugDirectory& directory);

// pdb-id-mismatch unless one portable CodeView entry's id equals the PDB's
// id (the message names both).
Status checkPdbMatches(const DebugDirectory& directory, const PdbId& pdbId);

}  // namespace gdmap::pdb
