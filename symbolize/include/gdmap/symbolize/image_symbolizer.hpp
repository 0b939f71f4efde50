#pragma once
// A ReadyToRun image file symbolized: opened once (mapped, its ReadyToRun
// header read, its PDB found), then each RVA answered with its method, the
// IL offset the runtime reports and the source line.
#include <gdmap/pdb/portable_pdb.hpp>
#include <gdmap/reader/pe_image.hpp>
#include <gdmap/reader/r2r_image.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/symbolize/il_offset.hpp>
#include <gdmap/symbolize/image_pdb.hpp>
#include <gdmap/symbolize/r2r_locator.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace gdmap::symbolize {

// The line a stack trace prints for `located`, from the PDB of the image it
// was located in: nothing when it is in no method, the method is another
// module's (MethodBody::hasModule), no IL offset was mapped, or the PDB has
// no line there.
std::optional<pdb::SourceLine> sourceLineOf(const ImagePdb& pdb, const Located& located);

struct ImageSymbolizerOptions {
  std::string pdbPath;  // the PDB to use; empty: found as ImagePdb finds it
  bool lines = true;    // false: no PDB is looked for
};

class ImageSymbolizer {
 public:
  // The ReadyToRun image file `path`. With lines: the PDB `pdbPath` (its
  // failure is the error), else one found as ImagePdb finds it (none: no
  // lines, and pdbNote() says why). A composite image is answered without
  // lines (its components' PDBs are not looked for).
  static Expected<ImageSymbolizer> open(const std::string& path, const ImageSymbolizerOptions& options = {});

  ImageSymbolizer(ImageSymbolizer&&) noexcept;
  ImageSymbolizer& operator=(ImageSymbolizer&&) noexcept;
  ~ImageSymbolizer();

  const std::string& path() const;
  const pe::PeImage& pe() const;
  const r2r::R2RImage& image() const;
  const ImagePdb* pdb() const;                  // null: no lines
  const std::optional<Error>& pdbNote() const;  // why there are no lines, when a PDB was looked for

  // The RVA the file offset `offset` is mapped at (the section whose raw
  // data holds it), as a loader maps the file's sections.
  std::optional<std::uint32_t> rvaOfFileOffset(std::uint64_t offset) const;

  Located locate(std::uint32_t rva, AddressKind kind = AddressKind::Exact);
  std::optional<pdb::SourceLine> sourceLine(const Located& located) const;

 private:
  struct State;
  explicit ImageSymbolizer(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace gdmap::symbolize
