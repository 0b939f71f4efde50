#pragma once
// A ReadyToRun image's assemblies: a composite image's component names,
// the files a component and a composite image name each other by, each
// assembly's own metadata (the names of its methods, their signatures and
// IL sizes) and the self-check that metadata allows. Files are found by an
// AssemblyResolver, as R2RDump's IAssemblyResolver finds them: by default
// beside the image that names them; a caller's own resolver can look
// elsewhere (a NuGet cache, files held in memory).
#include <gdmap/metadata/assembly_type_names.hpp>
#include <gdmap/metadata/method_bodies.hpp>
#include <gdmap/metadata/method_signature.hpp>
#include <gdmap/reader/r2r_image.hpp>
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gdmap::symbolize {

// An assembly's file as a resolver gives it: its bytes and what keeps them
// (a mapping, a buffer; null when the caller keeps them alive itself).
struct AssemblyFile {
  std::string path;  // as messages name it
  ByteSpan bytes;
  std::shared_ptr<const void> holder;
};

// Finds the files an image names: a component's composite image
// (R2RImage::ownerComposite, "framework-r2r.dll") and a composite image's
// components ("System.Runtime.dll"). The default looks beside the image
// and memory-maps the file; override either step.
class AssemblyResolver {
 public:
  virtual ~AssemblyResolver() = default;
  // Where the file `fileName`, named by the image at `imagePath`, is: by
  // default in the image's folder (pathBeside).
  virtual std::string find(const std::string& fileName, const std::string& imagePath) const;
  // The file at `path` (what find() gave); by default memory-mapped,
  // input-unreadable naming the path when it cannot be.
  virtual Expected<AssemblyFile> open(const std::string& path) const;
};

// `fileName` in the folder of `imagePath` ("dir/Sample.r2r.dll" and
// "Sample.A.dll": "dir/Sample.A.dll"; no folder: `fileName` itself).
std::string pathBeside(const std::string& imagePath, const std::string& fileName);

// An assembly's simple name from its file: "Sample.A" of ".../Sample.A.dll".
std::string assemblySimpleName(const std::string& path);

// A composite image's components' simple names, by component index: the
// first AssemblyRef rows of its manifest metadata; a component whose name
// cannot be read is named by its index ("1"). Empty for another image.
std::vector<std::string> componentNames(const r2r::R2RImage& image, ByteSpan file);

// Whether the image is an assembly with metadata of its own (a CLI
// header): a composite image is not; its components' files are.
bool hasOwnMetadata(ByteSpan file);

// An assembly's own metadata: the names of its types and methods, each
// method as SOS names it, and its methods' IL sizes (empty when they
// cannot be read: nothing is checked against them).
struct AssemblyMetadata {
  std::unique_ptr<metadata::AssemblyTypeNames> names;
  std::unique_ptr<metadata::MethodSignatures> signatures;  // null when the signatures cannot be read
  std::vector<metadata::MethodIl> ilBodies;
  ByteSpan bytes;                      // the assembly's file
  std::shared_ptr<const void> holder;  // keeps `bytes` (a file the resolver opened)
};

// The metadata of the assembly `bytes` (kept by the caller); the error is
// AssemblyTypeNames::open's (where it stops being an assembly).
Expected<AssemblyMetadata> readAssemblyMetadata(ByteSpan bytes);

// Each component's own metadata, read from the file NAME.dll the resolver
// finds for the composite image at `compositePath` (a composite image keeps
// its components' metadata in their own files), for the components whose
// name in `names` is not empty; reading stops at the first failure.
struct ComponentMetadata {
  std::vector<AssemblyMetadata> components;  // by component index; empty on failure
  std::optional<Error> error;                // the failure: the resolver's, or readAssemblyMetadata's
  std::string failedPath;                    // the file it is about
  bool unreadable = false;                   // the file could not be opened (else: not an assembly)
};
ComponentMetadata readComponentMetadata(const std::vector<std::string>& names, const std::string& compositePath,
                                        const AssemblyResolver& resolver);

// The self-check the metadata allows: every IL offset a body's bounds name
// lies inside its method's IL (`bodies`: metadata::methodIlBodies of the
// assembly `assembly` whose MethodDefs they are, by MethodDef row - 1). Not
// checked: resumption stubs and the Task-returning thunk of a runtime-async
// method (their bounds name IL the runtime makes), [Intrinsic] methods (the
// compiler may compile IL of its own), another module's methods, a body
// whose IL size is unknown. `component`: only that component's bodies (a
// composite image); none: every body. Each body past its IL is one
// r2r-il-offset-past-body error at its bounds' offset in `file`: the image
// is misread (or hostile).
std::vector<Error> ilOffsetsPastBodies(const r2r::R2RImage& image, ByteSpan file, ByteSpan assembly,
                                       const std::vector<metadata::MethodIl>& bodies,
                                       std::optional<std::uint32_t> component);

// Which body of its token a body is, as descriptions name it: an instance
// entry point's arguments and unboxing stub, runtime async's variant and
// resumption stub; nothing for a method's plain body.
std::optional<il::Instantiation> bodyInstantiation(const r2r::MethodBody& body);

// A body's code: its entry, its funclets, then its cold part; as RVAs, or
// (an image mapped at `base` in a process) as absolute addresses.
std::vector<il::CodeRange> bodyCodeRanges(const r2r::MethodBody& body, const r2r::R2RImage& image,
                                          std::optional<std::uint64_t> base = std::nullopt);

}  // namespace gdmap::symbolize
