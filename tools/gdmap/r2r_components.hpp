#pragma once
// A composite ReadyToRun image's component assemblies by name, for the
// commands that read such images (il extract, il locate).
#include <gdmap/reader/r2r_image.hpp>
#include <gdmap/schema/bytes.hpp>

#include <string>
#include <vector>

namespace gdmap::cli {

// The components' simple names: the first AssemblyRef rows of the image's
// manifest metadata (section 112), one per component in order; a
// component whose name cannot be read is named by its index ("1").
std::vector<std::string> componentNames(const r2r::R2RImage& image, ByteSpan file);

}  // namespace gdmap::cli
