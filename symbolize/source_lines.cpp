#include <gdmap/io/mapped_file.hpp>
#include <gdmap/symbolize/source_lines.hpp>

#include <utility>

namespace gdmap::symbolize {

namespace {
constexpr std::uint32_t kMethodDefTable = 0x06;
}

Expected<std::optional<pdb::SourceLine>> sourceLineOf(const ImagePdb& pdb, std::uint32_t token,
                                                      std::uint32_t ilOffset) {
  const std::uint32_t row = token & 0x00FFFFFF;
  if ((token >> 24) != kMethodDefTable || row == 0 || row > pdb.pdb().methodCount())
    return std::optional<pdb::SourceLine>();
  return pdb.pdb().lineAt(row, ilOffset);
}

const ImagePdb* PdbCache::of(const std::string& imagePath, ByteSpan image) {
  auto found = byPath_.find(imagePath);
  if (found != byPath_.end()) return found->second ? &*found->second : nullptr;
  std::optional<MappedFile> file;
  if (image.empty()) {
    Expected<MappedFile> mapped = MappedFile::open(imagePath, FileAccess::Sparse);
    if (!mapped) {
      notes_.push_back(PdbNote{imagePath, mapped.error()});
      byPath_.emplace(imagePath, std::nullopt);
      return nullptr;
    }
    file.emplace(std::move(*mapped));
    image = file->bytes();
  }
  Expected<ImagePdb> pdb = ImagePdb::open(image, imagePath, "");
  if (!pdb) {
    notes_.push_back(PdbNote{imagePath, pdb.error()});
    byPath_.emplace(imagePath, std::nullopt);
    return nullptr;
  }
  auto& slot = byPath_.emplace(imagePath, std::move(*pdb)).first->second;
  return &*slot;
}

std::vector<PdbNote> PdbCache::takeNotes() { return std::exchange(notes_, {}); }

}  // namespace gdmap::symbolize
