#pragma once
// PE/COFF: from the whole file to the bytes of the CLI metadata root
// (ECMA-335 II.25: DOS stub -> PE signature -> COFF header -> optional
// header data directory 14 -> CLI header -> MetaData directory).
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

namespace gdmap::metadata {

// The metadata root (starting with "BSJB") inside `file`; or the PE
// reader's error (r2r-not-pe, r2r-no-header, ...) at its file offset when
// the file is not a PE image with CLI metadata.
Expected<ByteSpan> findMetadataRoot(ByteSpan file);

}  // namespace gdmap::metadata
