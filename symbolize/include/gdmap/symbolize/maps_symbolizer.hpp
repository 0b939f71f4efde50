#pragma once
// Absolute addresses of a process, as a profiler records them, symbolized
// through the process's memory map (/proc/PID/maps): an address in a
// mapping of file F at file offset O is F's file offset O + (address -
// mapping start), which F's section table turns into an RVA of F. Each
// file is opened as an ImageSymbolizer the first time an address falls in
// it, then kept.
#include <gdmap/reader/pe_image.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/symbolize/image_symbolizer.hpp>
#include <gdmap/symbolize/source_lines.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gdmap::symbolize {

// One line of /proc/PID/maps that maps a file.
struct Mapping {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;     // past the last byte
  std::uint64_t offset = 0;  // the file offset mapped at `begin`
  std::string path;
};

// The file mappings of /proc/PID/maps text ("begin-end perms offset dev
// inode [path]", hex fields), ascending by begin; mappings of no file
// (anonymous, [heap], [stack]...) left out. A line that is not of that
// form, or a range that overlaps the previous one, is maps-invalid at its
// byte offset, the message naming the line.
Expected<std::vector<Mapping>> parseProcMaps(std::string_view text);

// The RVA at which a loader maps file offset `offset` of `image`: that of
// the section whose raw data holds it; nothing when none does.
std::optional<std::uint32_t> rvaOfFileOffset(const pe::PeImage& image, std::uint64_t offset);

// One address's answer.
struct MapsAnswer {
  std::uint64_t address = 0;
  const Mapping* mapping = nullptr;  // null: in no mapped file
  ImageSymbolizer* image = nullptr;  // null: the file is no ReadyToRun image (error says why)
  std::optional<std::uint32_t> rva;  // null: the offset is in no section of the image
  std::string error;
  Located located;
  std::optional<pdb::SourceLine> source;
  bool found() const { return located.method != nullptr; }
};

struct MapsSymbolizerOptions {
  bool lines = true;  // each image's PDB, found beside it
};

class MapsSymbolizer {
 public:
  explicit MapsSymbolizer(std::vector<Mapping> mappings, MapsSymbolizerOptions options = {});
  MapsSymbolizer(MapsSymbolizer&&) noexcept;
  MapsSymbolizer& operator=(MapsSymbolizer&&) noexcept;
  ~MapsSymbolizer();

  // The answer's pointers stay valid as long as the symbolizer.
  MapsAnswer locate(std::uint64_t address, AddressKind kind = AddressKind::Exact);
  const std::vector<Mapping>& mappings() const { return mappings_; }
  // Why images have no lines, each once.
  std::vector<PdbNote> takePdbNotes() { return std::exchange(notes_, {}); }

 private:
  struct Image {
    std::unique_ptr<ImageSymbolizer> symbolizer;  // null: not readable
    std::string error;
  };
  const Mapping* mappingAt(std::uint64_t address) const;
  Image& imageOf(const std::string& path);
  std::vector<Mapping> mappings_;
  MapsSymbolizerOptions options_;
  std::unordered_map<std::string, Image> images_;
  std::vector<PdbNote> notes_;
};

}  // namespace gdmap::symbolize
