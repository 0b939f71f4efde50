#pragma once
// A strict, zero-copy reader of ReadyToRun (R2R) images (FORMAT.md §3.5):
// from the bytes of a precompiled assembly to every method body it carries,
// with that body's native code ranges and its IL-to-native bounds blob.
//
// What it reads: the PE and CLI headers (gdmap/reader/pe_image.hpp), the
// READYTORUN_HEADER and its section table, the runtime functions (102), the
// MethodDef entry points (103, a NativeArray by MethodDef row), the instance
// entry points (109, a NativeHashtable of instantiation signatures) and the
// debug info (105, a NativeArray by runtime-function index whose elements
// may share a blob by lookback).
//
// Supported: every R2R major version from 2 (.NET Core 2.0, 2017) to 26
// (.NET 11) (formatProfile says what each changes: the bounds' encoding,
// the debug-info header, x86 funclets, composite images, the hot/cold
// map); on x64, x86, ARM64 and ARM (Thumb-2), on Windows or (the
// architecture XOR an OS value in Machine) Linux, macOS, FreeBSD and
// NetBSD. A runtime function's code length comes from its end address
// (x64) or from its unwind data (x86: a length varint; ARM64 and ARM: the
// packed word or the .xdata header). A major version newer than the
// newest known is read with the newest rules and a warning
// (r2r-newer-version, in R2RImage::warnings): no ceiling, and the
// self-checks (every bound inside its method's code, runtime functions
// sorted and disjoint, every body's code its own) turn a misreading into
// a located error. Major version 1, or a machine not listed, is an error
// naming it, never a guess.
//
// Runtime async (.NET 11): an instance entry point with
// method_sig::kAsyncVariant is a method's async variant; its resumption
// stub is a body no entry point lists, compiled separately after the
// variant's funclets with debug info of its own: a runtime function with
// its own debug-info element starts a body (MethodBody::resumptionStub)
// and ends the one before it.
//
// Composite images (R2R 4.1+): a composite image holds the code of several
// component assemblies, each with its own core header and MethodDef entry
// points; readR2RImage lists every component's methods (MethodBody::
// component). A component assembly's own image holds no code: it names its
// composite image (R2RImage::ownerComposite).
//
// Strict where the runtime merely trusts: every RVA range is checked against
// the PE sections without overflow, every count against the bytes left
// before anything is allocated, a lookback must land inside the debug-info
// section on a blob (not on another lookback: the runtime follows one hop
// and reads a blob there), blobs must not overlap, every bounds blob must
// decode (FORMAT.md §3.3, strict) and stay inside its method's code, entry
// points must name existing runtime functions (several may name one: they
// share its body), and debug info may stand only where a body starts. The
// work is linear in the image size.
//
// The bytes must outlive the image: every span points into them.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/il_map.hpp>
#include <gdmap/schema/type_names.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gdmap::r2r {

inline constexpr std::uint32_t kSignature = 0x00525452;  // "RTR\0"
inline constexpr std::uint16_t kOldestMajorVersion = 2;
inline constexpr std::uint16_t kNewestMajorVersion = 26;

// What a major version changes in how a method's code and bounds are found
// (readytorun.h's history; the cDAC's DebugInfo contract for 16 and 17;
// 18 to 26 change helpers, the variable-location encoding, x86 GC info
// and add runtime async's method flag, none of which changes how bounds
// are found: they read as 17; docs/r2r.md has the table).
struct FormatProfile {
  il::BoundsForm bounds = il::BoundsForm::Nibble;  // 16: Packed2; 17: Packed3
  bool fatDebugInfo = false;                       // 17: a blob may start with the fat header
  bool x86Funclets = false;                        // 14: x86 handlers are funclets
  bool composite = false;                          // 4.1 (major 5 on): component assemblies
  bool hotColdMap = false;                         // 8.0: cold parts of split methods
  // 26 (.NET 11): runtime async's resumption stubs, bodies no entry point
  // lists. Before, debug info on a function no entry starts is an error.
  bool resumptionStubs = false;
};
FormatProfile formatProfile(std::uint16_t majorVersion);

// READYTORUN_SECTION_* (readytorun.h).
namespace section {
inline constexpr std::uint32_t kCompilerIdentifier = 100;
inline constexpr std::uint32_t kImportSections = 101;
inline constexpr std::uint32_t kRuntimeFunctions = 102;
inline constexpr std::uint32_t kMethodDefEntryPoints = 103;
inline constexpr std::uint32_t kExceptionInfo = 104;
inline constexpr std::uint32_t kDebugInfo = 105;
inline constexpr std::uint32_t kDelayLoadMethodCallThunks = 106;
inline constexpr std::uint32_t kAvailableTypes = 108;
inline constexpr std::uint32_t kInstanceMethodEntryPoints = 109;
inline constexpr std::uint32_t kInliningInfo = 110;
inline constexpr std::uint32_t kProfileDataInfo = 111;
inline constexpr std::uint32_t kManifestMetadata = 112;
inline constexpr std::uint32_t kComponentAssemblies = 115;
inline constexpr std::uint32_t kOwnerCompositeExecutable = 116;
inline constexpr std::uint32_t kHotColdMap = 120;
}  // namespace section

// READYTORUN_FLAG_* (readytorun.h) that change how an image is read.
namespace header_flag {
inline constexpr std::uint32_t kComponent = 0x20;  // a component assembly of a composite image
}  // namespace header_flag

// READYTORUN_METHOD_SIG_* (readytorun.h): the first item of an instance
// entry point's signature.
namespace method_sig {
inline constexpr std::uint32_t kUnboxingStub = 0x01;
inline constexpr std::uint32_t kInstantiatingStub = 0x02;
inline constexpr std::uint32_t kMethodInstantiation = 0x04;
inline constexpr std::uint32_t kSlotInsteadOfToken = 0x08;
inline constexpr std::uint32_t kMemberRefToken = 0x10;
inline constexpr std::uint32_t kConstrained = 0x20;
inline constexpr std::uint32_t kOwnerType = 0x40;
inline constexpr std::uint32_t kUpdateContext = 0x80;  // a module index follows the flags
inline constexpr std::uint32_t kAsyncVariant = 0x100;  // R2R 26 (.NET 11): the runtime-async variant of the method
}  // namespace method_sig

// PE Machine values of the architectures this reader knows.
namespace machine {
inline constexpr std::uint16_t kI386 = 0x014C;
inline constexpr std::uint16_t kAmd64 = 0x8664;
inline constexpr std::uint16_t kArmThumb2 = 0x01C4;
inline constexpr std::uint16_t kArm64 = 0xAA64;
}  // namespace machine

// The OS values an R2R image's Machine is XORed with (none for Windows).
enum class TargetOs : std::uint8_t { Windows, Linux, Apple, FreeBsd, NetBsd };

struct Section {
  std::uint32_t type = 0;
  std::uint32_t rva = 0;
  std::uint32_t size = 0;
  std::uint64_t fileOffset = 0;  // of its first byte (size 0: of where it would be)
};

// One RUNTIME_FUNCTION: a method body or one of its funclets.
struct RuntimeFunction {
  std::uint32_t begin = 0;      // RVA of the first code byte
  std::uint32_t end = 0;        // RVA past the last (from the unwind data but on x64)
  std::uint32_t unwindRva = 0;  // the UnwindData word (ARM, ARM64: packed unwind data when its low bits are set)
  bool cold = false;            // the cold part of a split method (hot/cold map)
  std::uint32_t size() const { return end - begin; }
};

// One precompiled method body.
struct MethodBody {
  // 0x06xxxxxx: the MethodDef row of section 103's element, or the MethodDef
  // the instance signature names.
  std::uint32_t token = 0;
  std::uint32_t firstRuntimeFunction = 0;  // index into R2RImage::runtimeFunctions
  std::uint32_t runtimeFunctionCount = 0;  // body + funclets (>= 1)
  // The cold part of a split method (hot/cold map): its runtime functions.
  std::uint32_t firstColdRuntimeFunction = 0;
  std::uint32_t coldRuntimeFunctionCount = 0;
  std::uint32_t codeSize = 0;  // sum of all those runtime functions' sizes
  // Composite images: the component assembly (index into R2RImage::
  // components) whose MethodDef this is; 0 in a single-assembly image.
  std::uint32_t component = 0;
  std::uint32_t entryRva = 0;  // = runtimeFunctions[firstRuntimeFunction].begin
  // file offset of the entry point (section 103 element or 109 entry
  // data); a resumption stub's: of its debug-info element
  std::uint64_t entryPointOffset = 0;
  // Another method starts at the same runtime function (one body run for
  // two methods, as .NET Core 3.1's CoreLib has): every such method is
  // listed, each with the whole body.
  bool sharedBody = false;

  // Instance entry points (section 109) only.
  bool instantiated = false;
  std::uint32_t signatureFlags = 0;   // method_sig::* bits (kUnboxingStub marks an unboxing stub)
  std::uint64_t signatureOffset = 0;  // file offset of the instance signature
  // The token is module `module`'s (kUpdateContext's index, or the owner
  // type's module override), not this image's: in a composite image, the
  // component is module - componentModuleBase.
  bool hasModule = false;
  std::uint32_t module = 0;
  // ILAsm type text (gdmap::formatType, tokens in hex as `class 0x01000012`).
  // The owner type when the signature has one (e.g. `class 0x0200001B<__Canon>`),
  // its generic arguments, and the method's own generic arguments.
  // Extensions of the runtime's signatures print as: `__Canon`
  // (ELEMENT_TYPE_CANON_ZAPSIG, the shared-code placeholder) and
  // `[module N] T` (ELEMENT_TYPE_MODULE_ZAPSIG: T's tokens are module N's).
  std::string ownerType;
  std::vector<std::string> typeArguments;
  std::vector<std::string> methodArguments;

  // Runtime async (R2R 26): the body is the method's async variant
  // (method_sig::kAsyncVariant), or the resumption stub of the body
  // before it: a body no entry point lists, found by its own debug-info
  // element; it takes that body's token, instantiation and component.
  bool asyncVariant = false;
  bool resumptionStub = false;

  // Whether the method has a fixup list (the entry point's low bit): the
  // runtime resolves it before first use; the bounds do not depend on it.
  bool hasFixups = false;

  // Debug info (section 105), indexed by firstRuntimeFunction.
  bool hasDebugInfo = false;
  ByteSpan debugInfo;  // the whole blob: nibble header (cbBounds, cbVars, or the fat one), bounds, vars, ...
  ByteSpan bounds;     // the cbBounds bytes, in R2RImage::profile.bounds form (FORMAT.md §3.3); may be empty
  ByteSpan vars;       // the cbVars bytes (variable locations; not decoded here)
  std::uint64_t debugInfoOffset = 0;         // file offset of the blob: equal for methods sharing one
  bool sharedDebugInfo = false;              // reached by a non-zero lookback
  std::uint64_t debugInfoElementOffset = 0;  // file offset of the method's element (the lookback) in section 105
  bool fatDebugInfo = false;                 // the blob has the fat header (R2R 17)
  std::uint32_t boundsTrailing = 0;  // bytes at the end of `bounds` after the last bound (ignored by the runtime)
  // The largest IL offset its bounds name (PROLOG, EPILOG and NO_MAPPING
  // aside), for checks against the method's IL; none without such a bound.
  std::optional<std::uint32_t> largestIlOffset;
};

// A component assembly of a composite image (section 115).
struct Component {
  std::string name;                // its simple name, from the manifest metadata ("" when unknown)
  std::uint32_t corHeaderRva = 0;  // its CLI header inside the composite image (0 when not embedded)
  std::uint32_t coreHeaderRva = 0;
  std::uint64_t coreHeaderOffset = 0;  // file offset of its READYTORUN_CORE_HEADER
  std::uint32_t flags = 0;
  std::vector<Section> sections;
  std::size_t methodDefEntryPoints = 0;
  const Section* findSection(std::uint32_t type) const;
};

struct R2RSummary {
  std::size_t methodDefEntryPoints = 0;  // methods from section 103
  std::size_t instanceEntryPoints = 0;   // methods from section 109
  std::size_t unboxingStubs = 0;         // of those, with method_sig::kUnboxingStub
  std::size_t withDebugInfo = 0;
  std::size_t withoutDebugInfo = 0;  // no element in section 105 (or no section)
  std::size_t withoutBounds = 0;     // a blob whose cbBounds is 0
  std::size_t sharedDebugInfo = 0;   // methods whose element is a lookback
  std::size_t distinctDebugInfoBlobs = 0;
  std::size_t unclaimedRuntimeFunctions = 0;  // before the first entry point (none in real images)
  std::size_t splitMethods = 0;               // with a cold part (hot/cold map)
  std::size_t fatDebugInfo = 0;               // blobs with the fat header
  std::size_t boundsWithTrailingBytes = 0;    // blobs whose bounds have bytes after the last bound
  std::size_t asyncVariants = 0;              // bodies with method_sig::kAsyncVariant
  std::size_t resumptionStubs = 0;            // bodies found by their own debug info (runtime async)
  std::size_t sharedBodies = 0;               // methods starting where another one starts
};

struct R2RImage {
  // PE
  std::uint16_t peMachine = 0;  // as written in the COFF header
  std::uint16_t machine = 0;    // the architecture (machine::*), OS value removed
  TargetOs os = TargetOs::Windows;
  bool pe32Plus = false;
  std::uint64_t headerOffset = 0;  // file offset of the READYTORUN_HEADER
  std::uint32_t headerRva = 0;

  // READYTORUN_HEADER
  std::uint16_t majorVersion = 0;
  std::uint16_t minorVersion = 0;
  FormatProfile profile;
  // The major version whose rules read the image: majorVersion, or
  // kNewestMajorVersion for a newer image (then `warnings` says so).
  std::uint16_t readAsMajorVersion = 0;
  std::uint32_t flags = 0;
  std::vector<Section> sections;  // in file order
  const Section* findSection(std::uint32_t type) const;

  // A composite image's component assemblies (empty otherwise).
  std::vector<Component> components;
  // The module index of component 0 in signatures' module overrides: 2 from
  // R2R 6.3, 1 before (index 0 is the image itself).
  std::uint32_t componentModuleBase = 1;
  // A component assembly's own image: the file name of the composite image
  // that holds its code (section 116); its methods are found there.
  std::string ownerComposite;

  std::vector<RuntimeFunction> runtimeFunctions;
  // Every method body, ordered by firstRuntimeFunction (then as found:
  // section 103 by row, then section 109 by bucket).
  std::vector<MethodBody> methods;
  R2RSummary summary;
  // What was read but deserves a word: a major version newer than the
  // newest known (r2r-newer-version). `--strict` refuses an image with any.
  std::vector<Error> warnings;
};

// "Linux x64", "Windows x86", ... for summaries.
std::string describeMachine(const R2RImage& image);

// Reads and validates the whole image: every method's entry, code ranges
// and debug-info blob, and every bounds blob decoded once. Linear in the
// image size; no exception escapes. The error's offset is a file offset;
// its message names the section and, where there is one, the method
// ("debugInfo[0] (method 0x06000001): lookback 0x3f points 0x36 bytes
// before the section"); its rule is one of the r2r-* rules (docs/errors.md,
// "ReadyToRun images"), or the il-* rule of a bounds blob that does not
// decode.
// With `names` (e.g. the image's own, gdmap::metadata::AssemblyTypeNames),
// the instantiations' types name this module's TypeDefs and TypeRefs.
Expected<R2RImage> readR2RImage(ByteSpan file, const TypeNames* names = nullptr);

}  // namespace gdmap::r2r
