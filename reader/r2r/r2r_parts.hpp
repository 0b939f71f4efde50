#pragma once
// The steps of readR2RImage, one file each: the header and sections
// (r2r_image.cpp), runtime functions (r2r_runtime_functions.cpp), entry
// points (r2r_entry_points.cpp) and debug info (r2r_debug_info.cpp). Each
// returns the first Error of a malformed image (r2r_errors.hpp).
#include "native_format.hpp"

#include <gdmap/reader/pe_image.hpp>
#include <gdmap/reader/r2r_image.hpp>

#include <string>

namespace gdmap::r2r {

// The region of a section of `image`, or an empty region at RVA 0 when the
// image has no such section.
NativeRegion regionOf(const pe::PeImage& pe, const R2RImage& image, std::uint32_t type);
NativeRegion regionOf(const pe::PeImage& pe, const Section* section);

Status readRuntimeFunctions(const pe::PeImage& pe, R2RImage& image);
// Fills image.methods (sorted by first runtime function, counts and code
// sizes set) from sections 103 and 109.
Status readEntryPoints(const pe::PeImage& pe, R2RImage& image, const TypeNames* names);
Status readDebugInfo(const pe::PeImage& pe, R2RImage& image);

// "method 0x06000034" and friends, for error paths.
std::string methodLabel(const MethodBody& m);

}  // namespace gdmap::r2r
