#pragma once
// `il locate IMAGE`: the image read once (its names with --names, its
// components' metadata, the reader's self-checks, its portable PDB), and
// how each address given becomes one of its RVAs (as given, - --base, or
// through --maps), then answered by symbolize's R2RLocator.
#include "app/il_commands.hpp"
#include "common/file_io.hpp"
#include "common/report.hpp"
#include "image/r2r_components.hpp"
#include "locate/r2r_locate.hpp"

#include <gdmap/reader/pe_image.hpp>
#include <gdmap/symbolize/image_pdb.hpp>
#include <gdmap/symbolize/maps_symbolizer.hpp>
#include <gdmap/symbolize/r2r_locator.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gdmap::cli {

// The mappings of --maps FILE; on failure the error is in `report` and
// `status` says which exit status.
std::optional<std::vector<symbolize::Mapping>> readMapsFile(const std::string& path, Report& report, int& status);

// A ReadyToRun image's PDB note (no lines: why), for --maps and a process.
// `what`: how the diagnostic begins ("no source lines", "--lines: no lines for its methods").
void addPdbNote(Report& report, const symbolize::PdbNote& note, Severity severity = Severity::Note,
                const std::string& what = "no source lines");

// The image and what answering its addresses needs (filled by
// openLocatedImage).
struct LocatedImage {
  enum class Mode { Rva, Base, Maps } mode = Mode::Rva;
  std::uint64_t base = 0;
  std::vector<symbolize::Mapping> mappings;  // --maps: IMAGE's own
  std::optional<pe::PeImage> pe;             // --maps: its section table
  std::unique_ptr<metadata::AssemblyTypeNames> ownNames;
  std::unique_ptr<metadata::MethodSignatures> ownSignatures;  // with ownNames
  std::optional<r2r::R2RImage> image;
  std::vector<std::string> components;
  std::vector<AssemblyMetadata> componentsMetadata;
  MethodNames names;
  std::optional<symbolize::R2RLocator> locator;
  std::optional<symbolize::ImagePdb> pdb;
  symbolize::AddressKind kind = symbolize::AddressKind::Exact;

  // The RVA of `value`, or why it has none.
  ImageAnswer translate(std::uint64_t value) const;
  ImageAnswer answer(std::uint64_t value);
};

// IMAGE (`input`) read for `il locate`, the addresses of the command line
// (`values`) telling which components' metadata --names needs. Null on
// failure (in `report`, `status` the exit status).
std::unique_ptr<LocatedImage> openLocatedImage(const IlLocateOptions& options, const InputBytes& input,
                                               const std::vector<std::uint64_t>& values, Report& report, int& status);

}  // namespace gdmap::cli
