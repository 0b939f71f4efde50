#pragma once
// The IL-to-native map model (FORMAT.md §3): the runtime's *bounds* (what a
// code generator reports), the API entries a profiler receives
// (COR_DEBUG_IL_TO_NATIVE_MAP), and a method that holds one or the other.
// Writers (writer/bounds_encoder.hpp), readers (reader/bounds_decoder.hpp)
// and the bounds -> API conversion (bounds_to_api.hpp) share these types.
#include <gdmap/schema/bytes.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::il {

// Special IL offsets (ICorDebugInfo::MappingTypes, as u32).
inline constexpr std::uint32_t kNoMapping = 0xFFFFFFFF;
inline constexpr std::uint32_t kProlog = 0xFFFFFFFE;
inline constexpr std::uint32_t kEpilog = 0xFFFFFFFD;

// "prolog", "epilog", "no_mapping" for a special offset, empty otherwise.
std::string_view specialIlName(std::uint32_t ilOffset);
// The offset a special name stands for; nullopt for any other text.
std::optional<std::uint32_t> parseSpecialIl(std::string_view name);
// "0x5", "prolog": an IL offset as messages print it.
std::string ilText(std::uint32_t ilOffset);

// Source flags (ICorDebugInfo::SourceTypes). kAsync is 0x20 in the
// runtime's cordebuginfo.h, the bit after call_instruction.
namespace source {
inline constexpr std::uint32_t kSequencePoint = 0x01;
inline constexpr std::uint32_t kStackEmpty = 0x02;
inline constexpr std::uint32_t kCallSite = 0x04;
inline constexpr std::uint32_t kNativeEndOffsetUnknown = 0x08;
inline constexpr std::uint32_t kCallInstruction = 0x10;
inline constexpr std::uint32_t kAsync = 0x20;
// Every flag gdmap knows a name for; other bits are stored by no form.
inline constexpr std::uint32_t kKnown = 0x3F;
}  // namespace source

// The name of one flag bit ("stack_empty"), or "0x40" for a bit without one.
std::string sourceFlagName(std::uint32_t bit);
// The bit a flag name stands for; nullopt for an unknown name.
std::optional<std::uint32_t> parseSourceFlag(std::string_view name);
// "stack_empty|call_instruction", or "none".
std::string sourceText(std::uint32_t source);

// At `nativeOffset` begins the code for `ilOffset`. A method's bounds come in
// ascending native order (equal offsets allowed).
struct Bound {
  std::uint32_t nativeOffset = 0;
  std::uint32_t ilOffset = 0;
  std::uint32_t source = 0;
  friend bool operator==(const Bound&, const Bound&) = default;
};

// One COR_DEBUG_IL_TO_NATIVE_MAP: three u32, 12 bytes, end exclusive. The
// order of the fields is the API's and the binary form's.
struct ApiEntry {
  std::uint32_t ilOffset = 0;
  std::uint32_t nativeStartOffset = 0;
  std::uint32_t nativeEndOffset = 0;
  friend bool operator==(const ApiEntry&, const ApiEntry&) = default;
};
static_assert(sizeof(ApiEntry) == 12, "ApiEntry mirrors COR_DEBUG_IL_TO_NATIVE_MAP");
inline constexpr std::size_t kApiEntrySize = 12;

// The four binary forms (FORMAT.md §3.1, §3.3).
enum class BoundsForm {
  Api,      // the API array, 12 bytes an entry
  Nibble,   // classic nibble-stream bounds
  Packed2,  // bit-packed bounds, 2 source bits
  Packed3,  // bit-packed bounds, 3 source bits (async)
};
// "api", "nibble", "packed2", "packed3".
std::string_view formName(BoundsForm form);
std::optional<BoundsForm> parseFormName(std::string_view name);
// The flags a compressed form can store (none for Api, which stores entries,
// not bounds).
std::uint32_t storableSource(BoundsForm form);

// The generic instantiation a precompiled body was compiled for (a
// ReadyToRun image's instance entry point): its owner type's arguments and
// its own, as ILAsm type text (docs/type-text.md, plus the runtime's
// `__Canon` and `[module N] T`). One method token has one body per
// instantiation, so a method's identity is its token and its instantiation.
struct Instantiation {
  std::vector<std::string> typeArguments;
  std::vector<std::string> methodArguments;
  bool unboxingStub = false;  // the body unboxes `this`, then runs the method
  // Runtime async (.NET 11, R2R 26): the method's async variant, and the
  // resumption stub compiled for a body (its own code and bounds, over the
  // stub's IL, not the method's).
  bool asyncVariant = false;
  bool resumptionStub = false;
  friend bool operator==(const Instantiation&, const Instantiation&) = default;
};

// One line that names an instantiation, as the CLI shows it and takes it
// back (`--instantiation`): `<int32, string>` for the type's arguments,
// `::<!!0>` for the method's, both in that order, then ` unboxing` for an
// unboxing stub, ` async` for an async variant and ` resumption` for a
// resumption stub; "(none)" for a body that is no instantiation.
std::string instantiationText(const std::optional<Instantiation>& instantiation);

// Whether `given` names the same instantiation as `text` (an
// instantiationText): white space is ignored.
bool sameInstantiationText(std::string_view given, std::string_view text);

// Where a nibble varint sits in a compressed blob, by the field path the
// strict reader names it with: "header.count", "header.nativeBits",
// "header.ilBits" (packed forms), "bounds[3].native", "bounds[3].il",
// "bounds[3].source" (nibble form).
enum class VarintField : std::uint8_t { Count, NativeBits, IlBits, Native, Il, Source };
struct VarintLength {
  VarintField field = VarintField::Count;
  std::uint32_t bound = 0;  // the bound's index, for Native, Il and Source
  std::uint32_t nibbles = 0;
  friend bool operator==(const VarintLength&, const VarintLength&) = default;
};
std::string varintPath(VarintField field, std::uint32_t bound);
// The field a path names; nullopt for any other text.
std::optional<VarintLength> parseVarintPath(std::string_view path);

// Explicit bytes for a method in one binary form (docs/il-map.md,
// "Overrides"): every field a canonical build derives can be given instead,
// so that any blob, valid or not, can be described readably. An absent
// field keeps the writer's canonical choice; writer/bounds_layout.hpp
// applies a layout.
struct BoundsLayout {
  std::optional<std::uint32_t> count;       // the header's count, verbatim
  std::optional<std::uint32_t> nativeBits;  // packed widths, in bits (stored minus 1)
  std::optional<std::uint32_t> ilBits;
  std::vector<VarintLength> nibbles;           // varints longer than minimal
  std::optional<std::uint32_t> padding;        // the final padding nibble (nibble) or bits (packed)
  std::optional<std::uint32_t> headerPadding;  // the packed header's padding nibble
  bool verbatimSource = false;                 // nibble form: write any source bits, even those no runtime defines
  Bytes trailing;                              // appended after the blob
  std::optional<std::uint32_t> truncate;       // then cut to this many bytes
  std::optional<Bytes> raw;                    // the whole blob verbatim (a method without bounds or map)
  friend bool operator==(const BoundsLayout&, const BoundsLayout&) = default;
};

// What produced a body's code in a process (`il extract` of a live process
// or a core dump): the JIT, or a ReadyToRun image's precompiled code.
enum class CodeKind : std::uint8_t { Jit, ReadyToRun };
// "jit", "r2r".
const char* codeKindName(CodeKind kind);
std::optional<CodeKind> parseCodeKind(std::string_view name);

// The runtime's optimization tiers (its OptimizationTier enum, codeversion.h).
// The values are the runtime's own (what a NativeCodeVersionNode holds).
enum class OptimizationTier : std::uint8_t {
  Tier0 = 0,
  Tier1 = 1,
  Tier1Osr = 2,
  Optimized = 3,
  Tier0Instrumented = 4,
  Tier1Instrumented = 5,
};
// "tier0", "tier1", "tier1-osr", "optimized", "tier0-instrumented",
// "tier1-instrumented".
const char* tierName(OptimizationTier tier);
std::optional<OptimizationTier> parseTier(std::string_view name);

// Which of a method's native code versions a body is, in a process: tiered
// compilation and ReJIT give one method several, each with its own code and
// bounds. Part of a method's identity.
struct CodeVersion {
  CodeKind kind = CodeKind::Jit;
  std::optional<OptimizationTier> tier;  // absent: the runtime does not say
  std::uint64_t ilVersion = 0;           // 0: the method's original IL; ReJIT makes others
  bool active = false;                   // the version the runtime calls now
  friend bool operator==(const CodeVersion&, const CodeVersion&) = default;
};

// Where a part of a method's native code lies: in its image, a ReadyToRun
// runtime function (the body, a funclet, a cold part) at an RVA, as `il
// extract` of an image records it; in a process, at an absolute address.
// For address lookups (`il lookup --address`).
struct CodeRange {
  std::uint64_t start = 0;  // the RVA (below 2^32) when !absolute, the address when absolute
  std::uint32_t size = 0;
  bool absolute = false;
  friend bool operator==(const CodeRange&, const CodeRange&) = default;
};

// The source line a bound's IL offset has in the method's PDB (`il extract
// --lines`): for people, read back and written as it is, never built.
struct BoundLine {
  std::string document;  // empty: the method's `document`
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  friend bool operator==(const BoundLine&, const BoundLine&) = default;
};

// A method: `bounds` (the runtime's view, from which the API array is
// derived with codeSize) or, when `verbatimMap`, `map` (an API array taken
// as is: any order, overlaps and specials allowed). Its identity (what
// tells two methods of one description apart) is its module, component,
// token, methodDesc, instantiation, code version and first code range.
struct Method {
  std::uint32_t token = 0;  // 0x06000000 (RID 0) for a dynamic method
  std::optional<std::uint32_t> codeSize;
  bool verbatimMap = false;
  std::vector<Bound> bounds;                   // when !verbatimMap
  std::vector<ApiEntry> map;                   // when verbatimMap
  std::optional<Instantiation> instantiation;  // absent: not a generic instantiation
  std::string name;  // for people only (`Ns.Type::Method`, from `il extract --names`); empty: none
  // For people too: the method as SOS names it (`Ns.Type.Method(Int32, System.String)`, with the
  // instantiation's arguments; gdmap/metadata/method_signature.hpp), from `il extract --names`.
  std::string signature;
  // For people too (`il extract --lines`): the source line of each bound, as far as any is known
  // (`line` 0: none), and the document of the lines that name none.
  std::vector<BoundLine> lines;
  std::string document;
  // A composite image's component assembly whose method this is (its simple
  // name; `il extract` of a whole composite image): tokens repeat across
  // components, so it is part of the identity. Empty: none.
  std::string component;
  std::optional<BoundsLayout> layout;  // absent: the canonical bytes
  std::vector<CodeRange> code;         // the native code's ranges (`il extract`), all of one kind; empty: unknown
  // In a process (`il extract --pid`, a core dump): the file path of the
  // method's module (empty: none), the runtime's MethodDesc address (one per
  // instantiation of a token), which code version the body is, and whether
  // it is a dynamic method (LightweightCodeGen: no metadata, token RID 0).
  std::string module;
  std::optional<std::uint64_t> methodDesc;
  std::optional<CodeVersion> codeVersion;
  bool dynamicMethod = false;
  friend bool operator==(const Method&, const Method&) = default;
};

// The index of the first bound whose native offset is below the previous
// bound's, or nullopt when they ascend (equal offsets allowed).
std::optional<std::size_t> firstDescendingBound(std::span<const Bound> bounds);

}  // namespace gdmap::il
