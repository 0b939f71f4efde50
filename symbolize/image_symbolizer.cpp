#include <gdmap/io/mapped_file.hpp>
#include <gdmap/symbolize/image_symbolizer.hpp>
#include <gdmap/symbolize/maps_symbolizer.hpp>
#include <gdmap/symbolize/source_lines.hpp>

#include <utility>

namespace gdmap::symbolize {

struct ImageSymbolizer::State {
  State(std::string p, MappedFile f, pe::PeImage pe, r2r::R2RImage i)
      : path(std::move(p)), file(std::move(f)), peImage(std::move(pe)), image(std::move(i)), locator(image) {}
  std::string path;
  MappedFile file;
  pe::PeImage peImage;
  r2r::R2RImage image;
  R2RLocator locator;  // over `image`, which never moves (the state is on the heap)
  std::optional<ImagePdb> pdb;
  std::optional<Error> pdbNote;
};

std::optional<pdb::SourceLine> sourceLineOf(const ImagePdb& pdb, const Located& located) {
  if (located.method == nullptr || located.method->hasModule || !located.il.entry) return std::nullopt;
  Expected<std::optional<pdb::SourceLine>> line = sourceLineOf(pdb, located.method->token, located.il.ilOffset);
  return line ? *line : std::nullopt;
}

namespace {

Error inFile(Error error, const std::string& path) {
  error.message = path + ": " + error.message;
  return error;
}

}  // namespace

Expected<ImageSymbolizer> ImageSymbolizer::open(const std::string& path, const ImageSymbolizerOptions& options) {
  Expected<MappedFile> file = MappedFile::open(path, FileAccess::Sparse);
  if (!file) return file.error();
  Expected<pe::PeImage> pe = pe::PeImage::open(file->bytes());
  if (!pe) return inFile(pe.error(), path);
  Expected<r2r::R2RImage> image = r2r::readR2RImage(file->bytes());
  if (!image) return inFile(image.error(), path);
  const bool composite = !image->components.empty();
  auto state = std::make_unique<State>(path, std::move(*file), std::move(*pe), std::move(*image));
  if (options.lines && !composite) {
    Expected<ImagePdb> pdb = ImagePdb::open(state->file.bytes(), path, options.pdbPath);
    if (pdb) {
      state->pdb = std::move(*pdb);
    } else if (!options.pdbPath.empty()) {
      return pdb.error();
    } else {
      state->pdbNote = pdb.error();
    }
  }
  return ImageSymbolizer(std::move(state));
}

ImageSymbolizer::ImageSymbolizer(std::unique_ptr<State> state) : state_(std::move(state)) {}
ImageSymbolizer::ImageSymbolizer(ImageSymbolizer&&) noexcept = default;
ImageSymbolizer& ImageSymbolizer::operator=(ImageSymbolizer&&) noexcept = default;
ImageSymbolizer::~ImageSymbolizer() = default;

const std::string& ImageSymbolizer::path() const { return state_->path; }
const pe::PeImage& ImageSymbolizer::pe() const { return state_->peImage; }
const r2r::R2RImage& ImageSymbolizer::image() const { return state_->image; }
const ImagePdb* ImageSymbolizer::pdb() const { return state_->pdb ? &*state_->pdb : nullptr; }
const std::optional<Error>& ImageSymbolizer::pdbNote() const { return state_->pdbNote; }

std::optional<std::uint32_t> ImageSymbolizer::rvaOfFileOffset(std::uint64_t offset) const {
  return symbolize::rvaOfFileOffset(state_->peImage, offset);
}

Located ImageSymbolizer::locate(std::uint32_t rva, AddressKind kind) { return state_->locator.locate(rva, kind); }

std::optional<pdb::SourceLine> ImageSymbolizer::sourceLine(const Located& located) const {
  return state_->pdb ? sourceLineOf(*state_->pdb, located) : std::nullopt;
}

}  // namespace gdmap::symbolize
