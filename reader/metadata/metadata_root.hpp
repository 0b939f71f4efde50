#pragma once
// PE/COFF: from the whole file to the bytes of the CLI metadata root
// (ECMA-335 II.25: DOS stub -> PE signature -> COFF header -> optional
// header data directory 14 -> CLI header -> MetaData directory).
#include <gdmap/schema/bytes.hpp>

namespace gdmap::metadata {

// The metadata root (starting with "BSJB") inside `file`. Throws
// MetadataError when the file is not a PE image with CLI metadata.
ByteSpan findMetadataRoot(ByteSpan file);

}  // namespace gdmap::metadata
