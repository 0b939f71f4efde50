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
// Supported: R2R major version 2 (.NET Core 2.0 and 2.1; minor 0..2 and any
// later minor of major 2, which only adds sections), on AMD64 (Windows, or
// Linux/macOS/FreeBSD/NetBSD Machine values: the architecture XOR an OS
// value) and on x86 (0x14C, whose runtime functions have no end address:
// the length comes from the GC info the unwind RVA points at). Any other
// major version or machine is an error naming it, never a guess.
//
// Strict where the runtime merely trusts: every RVA range is checked against
// the PE sections without overflow, every count against the bytes left
// before anything is allocated, a lookback must land inside the debug-info
// section on a blob (not on another lookback: the runtime follows one hop
// and reads a blob there), blobs must not overlap, every bounds blob must
// decode (FORMAT.md §3.3, strict) and stay inside its method's code, entry
// points must name existing runtime functions, one method each. The work is
// linear in the image size.
//
// The bytes must outlive the image: every span points into them.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/type_names.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gdmap::r2r {

inline constexpr std::uint32_t kSignature = 0x00525452;  // "RTR\0"
inline constexpr std::uint16_t kSupportedMajorVersion = 2;

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
}  // namespace section

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
  std::uint32_t end = 0;        // RVA past the last (x86: begin + the GC info's code length)
  std::uint32_t unwindRva = 0;  // x86: the GC info
  std::uint32_t size() const { return end - begin; }
};

// One precompiled method body.
struct MethodBody {
  // 0x06xxxxxx: the MethodDef row of section 103's element, or the MethodDef
  // the instance signature names.
  std::uint32_t token = 0;
  std::uint32_t firstRuntimeFunction = 0;  // index into R2RImage::runtimeFunctions
  std::uint32_t runtimeFunctionCount = 0;  // body + funclets (>= 1)
  std::uint32_t codeSize = 0;              // sum of those runtime functions' sizes
  std::uint32_t entryRva = 0;              // = runtimeFunctions[firstRuntimeFunction].begin
  std::uint64_t entryPointOffset = 0;      // file offset of the entry point (section 103 element or 109 entry data)

  // Instance entry points (section 109) only.
  bool instantiated = false;
  std::uint32_t signatureFlags = 0;   // method_sig::* bits (kUnboxingStub marks an unboxing stub)
  std::uint64_t signatureOffset = 0;  // file offset of the instance signature
  // ILAsm type text (gdmap::formatType, tokens in hex as `class 0x01000012`).
  // The owner type when the signature has one (e.g. `class 0x0200001B<__Canon>`),
  // its generic arguments, and the method's own generic arguments.
  // Extensions of the runtime's signatures print as: `__Canon`
  // (ELEMENT_TYPE_CANON_ZAPSIG, the shared-code placeholder) and
  // `[module N] T` (ELEMENT_TYPE_MODULE_ZAPSIG: T's tokens are module N's).
  std::string ownerType;
  std::vector<std::string> typeArguments;
  std::vector<std::string> methodArguments;

  // Whether the method has a fixup list (the entry point's low bit): the
  // runtime resolves it before first use; the bounds do not depend on it.
  bool hasFixups = false;

  // Debug info (section 105), indexed by firstRuntimeFunction.
  bool hasDebugInfo = false;
  ByteSpan debugInfo;                 // the whole blob: nibble header (cbBounds, cbVars), bounds, vars
  ByteSpan bounds;                    // the cbBounds bytes: classic nibble bounds (FORMAT.md §3.3); may be empty
  ByteSpan vars;                      // the cbVars bytes (variable locations; not decoded here)
  std::uint64_t debugInfoOffset = 0;  // file offset of the blob: equal for methods sharing one
  bool sharedDebugInfo = false;       // reached by a non-zero lookback
  std::uint64_t debugInfoElementOffset = 0;  // file offset of the method's element (the lookback) in section 105
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
  std::uint32_t flags = 0;
  std::vector<Section> sections;  // in file order
  const Section* findSection(std::uint32_t type) const;

  std::vector<RuntimeFunction> runtimeFunctions;
  // Every method body, ordered by firstRuntimeFunction (then as found:
  // section 103 by row, then section 109 by bucket).
  std::vector<MethodBody> methods;
  R2RSummary summary;
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
