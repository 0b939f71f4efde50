#pragma once
// The #Blob heap (ECMA-335 II.24.2.4): each blob is a compressed length
// followed by that many bytes; the #Strings heap (II.24.2.3): UTF-8
// strings each ended by a NUL; the #GUID heap (II.24.2.5): 16-byte GUIDs
// numbered from 1. Shared with gdmap's portable PDB reader (reader/pdb);
// never installed.
#include <gdmap/internal/metadata_streams.hpp>
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <cstdint>
#include <string>

namespace gdmap::metadata {

// The blob at heap offset `index`, without its length prefix; an
// invalid-metadata error at its file offset when the offset or the length
// lies outside the heap.
Expected<ByteSpan> blobAt(const Stream& heap, std::uint32_t index);

// The string at heap offset `index`; an invalid-metadata error when the
// offset is outside the heap or no NUL ends the string inside it.
Expected<std::string> stringAt(const Stream& heap, std::uint32_t index);

// The 16 bytes of GUID number `index` (1-based; 0, the nil GUID index,
// gives an empty span); an invalid-metadata error when the heap does not
// hold that many GUIDs.
Expected<ByteSpan> guidAt(const Stream& heap, std::uint32_t index);

}  // namespace gdmap::metadata
