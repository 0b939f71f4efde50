#pragma once
// The AssemblyRef names of a bare metadata root ("BSJB"), such as a
// composite ReadyToRun image's manifest metadata (section 112), whose first
// rows name the image's component assemblies in order.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <string>
#include <vector>

namespace gdmap::metadata {

// `root` starts at the metadata root; `fileOffset` is where it lies in its
// file (for the errors' offsets). Errors as AssemblyTypeNames::open gives
// them (invalid-metadata, located).
Expected<std::vector<std::string>> assemblyRefNames(ByteSpan root, std::size_t fileOffset);

}  // namespace gdmap::metadata
