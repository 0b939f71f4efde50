#include <gdmap/metadata/assembly_refs.hpp>

#include <gdmap/internal/metadata_heaps.hpp>
#include <gdmap/internal/metadata_streams.hpp>
#include <gdmap/internal/metadata_tables.hpp>

namespace gdmap::metadata {

Expected<std::vector<std::string>> assemblyRefNames(ByteSpan root, std::size_t fileOffset) {
  using table::kAssemblyRef;
  constexpr unsigned kNameColumn = 6;  // MajorVersion..Flags, PublicKeyOrToken, then Name (ECMA-335 II.22.5)
  const Expected<MetadataStreams> streams = readStreams(root, fileOffset);
  if (!streams) return streams.error();
  const Expected<MetadataTables> tables = MetadataTables::open(streams->tables);
  if (!tables) return tables.error();
  std::vector<std::string> names;
  names.reserve(tables->rowCount(kAssemblyRef));
  for (std::uint32_t r = 1; r <= tables->rowCount(kAssemblyRef); ++r) {
    Expected<std::string> name = stringAt(streams->strings, tables->cell(kAssemblyRef, r, kNameColumn));
    if (!name) return name.error();
    names.push_back(std::move(name).value());
  }
  return names;
}

}  // namespace gdmap::metadata
