#pragma once
// What the commands that read ReadyToRun images (il extract, il locate)
// share on top of symbolize's r2r_assemblies.hpp: its files opened as the
// CLI opens inputs, its failures and the reader's warnings as diagnostics,
// and a composite image's components listed.
#include "common/file_io.hpp"
#include "common/report.hpp"

#include <gdmap/reader/r2r_image.hpp>
#include <gdmap/schema/bytes.hpp>
#include <gdmap/symbolize/r2r_assemblies.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gdmap::cli {

using symbolize::AssemblyMetadata;
using symbolize::bodyCodeRanges;
using symbolize::bodyInstantiation;
using symbolize::componentNames;
using symbolize::hasOwnMetadata;

// symbolize's default resolver (the files beside the image), its files
// opened as InputBytes: a pipe or FIFO read up to the input cap, errors
// worded as the CLI's input errors.
class InputResolver : public symbolize::AssemblyResolver {
 public:
  Expected<symbolize::AssemblyFile> open(const std::string& path) const override;
};

// The metadata of the assembly `bytes` (the file `file`); on failure the
// error (names-not-assembly) is in `report` and `names` is null.
AssemblyMetadata assemblyMetadata(ByteSpan bytes, const std::string& file, Report& report);

// Each component's own metadata, read from the component file `NAME.dll`
// beside the composite image `compositePath` (symbolize's
// readComponentMetadata), for the components whose name in `names` is not
// empty. On failure the error is in `report`, `status` says which
// (kUsageOrIo: a file cannot be read; kInvalid: not an assembly) and the
// result is empty.
std::vector<AssemblyMetadata> componentMetadata(const std::vector<std::string>& names, const std::string& compositePath,
                                                Report& report, int& status);

// The reader's warnings (a ReadyToRun version newer than the newest known)
// into `report`, at `file`; with `strict` they are errors and false is
// returned: the image is refused.
bool reportImageWarnings(const r2r::R2RImage& image, const std::string& file, bool strict, Report& report);

// symbolize::ilOffsetsPastBodies's errors into `report`, at `fileName`;
// false when there is one.
bool checkIlOffsets(const r2r::R2RImage& image, ByteSpan file, ByteSpan assembly,
                    const std::vector<metadata::MethodIl>& bodies, std::optional<std::uint32_t> component,
                    const std::string& fileName, Report& report);

// Each component's simple name and how many bodies it has, after a
// composite image's error that lets the user choose (--component): one
// note each in text, the whole list as `components` in JSON (a message is
// cut at 512 bytes; the list must not be).
void listComponents(const r2r::R2RImage& image, const std::vector<std::string>& names, const std::string& file,
                    Report& report);

}  // namespace gdmap::cli
