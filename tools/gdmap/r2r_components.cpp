#include "r2r_components.hpp"

#include <gdmap/metadata/assembly_refs.hpp>

namespace gdmap::cli {

std::vector<std::string> componentNames(const r2r::R2RImage& image, ByteSpan file) {
  std::vector<std::string> names(image.components.size());
  const r2r::Section* manifest = image.findSection(r2r::section::kManifestMetadata);
  if (manifest != nullptr) {
    const ByteSpan root = file.subspan(static_cast<std::size_t>(manifest->fileOffset), manifest->size);
    if (Expected<std::vector<std::string>> refs = metadata::assemblyRefNames(root, manifest->fileOffset)) {
      for (std::size_t i = 0; i < names.size() && i < refs->size(); ++i) names[i] = (*refs)[i];
    }
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) names[i] = std::to_string(i);
  }
  return names;
}

}  // namespace gdmap::cli
