#pragma once
// What the commands that read ReadyToRun images (il extract, il locate)
// share: a composite image's component assemblies by name and their own
// metadata, and the reader's warnings as diagnostics.
#include "common/file_io.hpp"
#include "common/report.hpp"

#include <gdmap/metadata/assembly_type_names.hpp>
#include <gdmap/metadata/method_bodies.hpp>
#include <gdmap/metadata/method_signature.hpp>
#include <gdmap/reader/r2r_image.hpp>
#include <gdmap/schema/bytes.hpp>

#include <gdmap/schema/il_map.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gdmap::cli {

// The components' simple names: the first AssemblyRef rows of the image's
// manifest metadata (section 112), one per component in order; a
// component whose name cannot be read is named by its index ("1").
std::vector<std::string> componentNames(const r2r::R2RImage& image, ByteSpan file);

// A file beside `path` (same folder): a composite image's component files,
// a component's composite image.
std::string besides(const std::string& path, const std::string& name);

// An assembly's simple name from its file: "Sample.A" of ".../Sample.A.dll".
std::string simpleName(const std::string& path);

// An assembly's own metadata: the names of its types and methods, and its
// methods' IL sizes (empty when they cannot be read: nothing is checked).
struct AssemblyMetadata {
  std::unique_ptr<metadata::AssemblyTypeNames> names;
  std::unique_ptr<metadata::MethodSignatures> signatures;  // with `names`: each method as SOS names it
  std::vector<metadata::MethodIl> ilBodies;
  ByteSpan bytes;                    // the assembly's file
  std::optional<InputBytes> opened;  // holding `bytes` when the file was opened here
};

// The metadata of the assembly `bytes` (the file `file`); on failure the
// error (names-not-assembly) is in `report` and `names` is null.
AssemblyMetadata assemblyMetadata(ByteSpan bytes, const std::string& file, Report& report);

// Each component's own metadata, read from the component file `NAME.dll`
// beside the composite image `compositePath` (a composite image keeps its
// components' metadata in their own files), for the components whose name
// in `names` is not empty. On failure the error is in `report`, `status`
// says which (kUsageOrIo: a file cannot be read; kInvalid: not an
// assembly) and the result is empty.
std::vector<AssemblyMetadata> componentMetadata(const std::vector<std::string>& names, const std::string& compositePath,
                                                Report& report, int& status);

// Whether the image is an assembly with metadata of its own (a CLI
// header): a composite image is not; its components' files are.
bool hasOwnMetadata(ByteSpan file);

// Which body of its token a body is, as a description and --instantiation
// name it: an instance entry point's arguments and unboxing stub, runtime
// async's variant and resumption stub; nothing for a method's plain body.
std::optional<il::Instantiation> bodyInstantiation(const r2r::MethodBody& body);

// A body's code: its entry, its funclets, then its cold part; as RVAs, or
// (an image mapped at `base` in a process) as absolute addresses.
std::vector<il::CodeRange> bodyCodeRanges(const r2r::MethodBody& body, const r2r::R2RImage& image,
                                          std::optional<std::uint64_t> base = std::nullopt);

// The reader's warnings (a ReadyToRun version newer than the newest known)
// into `report`, at `file`; with `strict` they are errors and false is
// returned: the image is refused.
bool reportImageWarnings(const r2r::R2RImage& image, const std::string& file, bool strict, Report& report);

// The self-check the metadata allows: every IL offset a body's bounds name
// lies inside its method's IL (metadata::methodIlBodies of the assembly
// whose MethodDefs they are: `bodies`, by MethodDef row - 1). Not checked:
// resumption stubs and the Task-returning thunk of a runtime-async method
// (their bounds name IL the runtime makes), [Intrinsic] methods (the
// compiler may compile IL of its own: CoreLib's Unsafe.CopyBlockUnaligned),
// another module's methods, a body whose IL size is unknown. `component`: only that component's
// bodies (a composite image); none: every body. An IL offset past the
// body is an r2r-il-offset-past-body error at the bounds: the image is
// misread (or hostile); false then.
// `assembly` is the file whose metadata `bodies` come from (for the
// [Intrinsic] methods, read only when a body fails).
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
