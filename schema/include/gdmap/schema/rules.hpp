#pragma once
// Every rule a gdmap diagnostic can name: the stable identifiers that tests,
// `--json` consumers and docs/errors.md use. A rule is emitted only through
// these constants; tests/cli/rules_documented.sh checks that each one is
// documented in docs/errors.md and triggered by some test, and that the
// document names no other.

namespace gdmap::rules {

// Maps: validity (checkMap, MapView, lookup)
inline constexpr char kDirectoryTruncated[] = "directory-truncated";
inline constexpr char kDuplicateRva[] = "duplicate-rva";
inline constexpr char kInvalidCompressedInt[] = "invalid-compressed-int";
inline constexpr char kItemLengthMismatch[] = "item-length-mismatch";
inline constexpr char kItemLengthOutsideHeap[] = "item-length-outside-heap";
inline constexpr char kNonMinimalInteger[] = "non-minimal-integer";
inline constexpr char kOffsetOutsideHeap[] = "offset-outside-heap";
inline constexpr char kOverlappingItems[] = "overlapping-items";
inline constexpr char kRvaNotAscending[] = "rva-not-ascending";
inline constexpr char kStreamTooShort[] = "stream-too-short";
inline constexpr char kTypeCountExceedsItem[] = "type-count-exceeds-item";
inline constexpr char kUnreachableHeapBytes[] = "unreachable-heap-bytes";
inline constexpr char kUnsharedDuplicateItems[] = "unshared-duplicate-items";
inline constexpr char kUnusableGenericArgument[] = "unusable-generic-argument";
inline constexpr char kZeroTypeCount[] = "zero-type-count";
// Maps: building (MapBuilder, buildMap) and matching (matchesDescription);
// a repeated RVA is duplicate-rva, an instantiation without types
// empty-types, as in a description.
inline constexpr char kDescriptionMismatch[] = "description-mismatch";
inline constexpr char kEmptyRawItem[] = "empty-raw-item";
inline constexpr char kHeapTooLarge[] = "heap-too-large";
inline constexpr char kItemTooLarge[] = "item-too-large";
inline constexpr char kTooManyDictionaries[] = "too-many-dictionaries";

// Maps: canonical form (checkCanonical)
inline constexpr char kCanonicalDuplicateItem[] = "canonical-duplicate-item";
inline constexpr char kCanonicalGap[] = "canonical-gap";
inline constexpr char kCanonicalItemOrder[] = "canonical-item-order";
inline constexpr char kCanonicalNonMinimalInteger[] = "canonical-non-minimal-integer";
inline constexpr char kCanonicalOverlap[] = "canonical-overlap";
inline constexpr char kInvalidMap[] = "invalid-map";

// Type signatures and type text (decodeType/skipType, encodeType,
// parseType). `invalid-type` is the umbrella: it names a type that is wrong
// in a way none of the specific rules below describes. The limits are
// gdmap::Limits (limits.hpp).
inline constexpr char kArrayRankTooLarge[] = "array-rank-too-large";
inline constexpr char kBytesAfterType[] = "bytes-after-type";
inline constexpr char kCountExceedsBytes[] = "count-exceeds-bytes";
inline constexpr char kCountTooLarge[] = "count-too-large";
inline constexpr char kInvalidArrayShape[] = "invalid-array-shape";
inline constexpr char kInvalidCallingConvention[] = "invalid-calling-convention";
inline constexpr char kInvalidGenericInstance[] = "invalid-generic-instance";
inline constexpr char kInvalidSentinel[] = "invalid-sentinel";
inline constexpr char kInvalidToken[] = "invalid-token";
inline constexpr char kInvalidType[] = "invalid-type";
inline constexpr char kTruncatedSignature[] = "truncated-signature";
inline constexpr char kTypeNestingTooDeep[] = "type-nesting-too-deep";
inline constexpr char kTypeTextSyntax[] = "type-text-syntax";
inline constexpr char kUnknownElementType[] = "unknown-element-type";
// Type names (`--names ASSEMBLY`, type_names.hpp)
inline constexpr char kUnknownTypeName[] = "unknown-type-name";
inline constexpr char kAmbiguousTypeName[] = "ambiguous-type-name";
inline constexpr char kValueOutOfRange[] = "value-out-of-range";

// Descriptions (JSON): parseDescription. A description also reports
// duplicate-rva and empty-raw-item (Maps) and, for a type, the rule of the
// type parser or decoder (invalid-type when it names none).
// too-many-diagnostics is the note that closes any capped list.
inline constexpr char kConflictingFields[] = "conflicting-fields";
inline constexpr char kDuplicateKey[] = "duplicate-key";
inline constexpr char kEmptyTypes[] = "empty-types";
inline constexpr char kInvalidHex[] = "invalid-hex";
inline constexpr char kInvalidJson[] = "invalid-json";
inline constexpr char kInvalidRva[] = "invalid-rva";
inline constexpr char kMissingField[] = "missing-field";
inline constexpr char kTooManyDiagnostics[] = "too-many-diagnostics";
inline constexpr char kUndefinedInstantiation[] = "undefined-instantiation";
inline constexpr char kUnknownKey[] = "unknown-key";
inline constexpr char kUnusedInstantiation[] = "unused-instantiation";
inline constexpr char kWrongType[] = "wrong-type";

// CLI: usage and I/O
inline constexpr char kUsage[] = "usage";
inline constexpr char kWrongInputKind[] = "wrong-input-kind";
inline constexpr char kInputUnreadable[] = "input-unreadable";
inline constexpr char kInputTooLarge[] = "input-too-large";
inline constexpr char kOutOfMemory[] = "out-of-memory";
inline constexpr char kNamesNotAssembly[] = "names-not-assembly";
// A note: a description whose type text names types (`class [System.Runtime]X`)
// did not build without --names ASSEMBLY, which resolves them.
inline constexpr char kNamesNeeded[] = "names-needed";
inline constexpr char kOutputUnwritable[] = "output-unwritable";
inline constexpr char kOutputIsInput[] = "output-is-input";
inline constexpr char kBinaryToTerminal[] = "binary-to-terminal";
inline constexpr char kRvaNotFound[] = "rva-not-found";
inline constexpr char kMapDiffers[] = "map-differs";
inline constexpr char kRebuildDiffers[] = "rebuild-differs";
// CLI: `gdmap il` (a method the command line names, a form it asks for)
inline constexpr char kIlMethodNotFound[] = "il-method-not-found";
inline constexpr char kIlMethodAmbiguous[] = "il-method-ambiguous";
inline constexpr char kIlMapNotCompressible[] = "il-map-not-compressible";
// `il lookup --native X` with X at or past the method's codeSize (a note:
// the answer is still S_OK, with no entries).
inline constexpr char kIlNativePastCode[] = "il-native-past-code";

// IL-to-native maps (FORMAT.md §3): the bounds encoders (encodeBounds), the
// strict decoders (openBounds, openApiMap, checkBounds), the canonical check
// (checkBoundsCanonical) and the method table behind the two-call protocol.
inline constexpr char kIlApiLength[] = "il-api-length";
inline constexpr char kIlBoundsNotAscending[] = "il-bounds-not-ascending";
inline constexpr char kIlCodeSizeRequired[] = "il-code-size-required";
inline constexpr char kIlCountExceedsBytes[] = "il-count-exceeds-bytes";
inline constexpr char kIlDuplicateToken[] = "il-duplicate-token";
inline constexpr char kIlEmptyBounds[] = "il-empty-bounds";
inline constexpr char kIlFlagNotStorable[] = "il-flag-not-storable";
inline constexpr char kIlInvalidSource[] = "il-invalid-source";
inline constexpr char kIlNativeOverflow[] = "il-native-overflow";
inline constexpr char kIlNonzeroPadding[] = "il-nonzero-padding";
inline constexpr char kIlTrailingBytes[] = "il-trailing-bytes";
inline constexpr char kIlTruncated[] = "il-truncated";
inline constexpr char kIlVarintOverflow[] = "il-varint-overflow";
inline constexpr char kIlVarintTooLong[] = "il-varint-too-long";
inline constexpr char kIlWidthTooLarge[] = "il-width-too-large";
// IL-to-native descriptions (JSON): il::parseIlDescription. They also report
// the description rules above (wrong-type, unknown-key, missing-field...),
// il-bounds-not-ascending and il-duplicate-token.
inline constexpr char kInvalidNumber[] = "invalid-number";
inline constexpr char kIlCodeSizeBelowBound[] = "il-code-size-below-bound";
inline constexpr char kIlRepeatedSourceFlag[] = "il-repeated-source-flag";
inline constexpr char kIlUnknownSourceFlag[] = "il-unknown-source-flag";
// A method of a process: its code ranges mix "rva" and "address"; its
// code version's kind or tier is no name the model knows.
inline constexpr char kIlMixedCodeRanges[] = "il-mixed-code-ranges";
inline constexpr char kIlUnknownCodeVersion[] = "il-unknown-code-version";
// IL-to-native maps: canonical form (warnings)
inline constexpr char kIlNonMinimalVarint[] = "il-non-minimal-varint";
inline constexpr char kIlWideField[] = "il-wide-field";

// ECMA-335 metadata (reader/metadata: the reader behind --names ASSEMBLY)
inline constexpr char kInvalidMetadata[] = "invalid-metadata";

// Portable PDBs (reader/pdb: sequence points, an image's debug directory and
// its embedded PDB) and finding an image's PDB (symbolize: pdb-not-found)
inline constexpr char kPdbNotPortable[] = "pdb-not-portable";
inline constexpr char kPdbInvalid[] = "pdb-invalid";
inline constexpr char kPdbIdMismatch[] = "pdb-id-mismatch";
inline constexpr char kPdbEmbeddedInvalid[] = "pdb-embedded-invalid";
inline constexpr char kPdbNotFound[] = "pdb-not-found";

// ReadyToRun images (reader/r2r: the R2R reader behind `gdmap il extract`)
inline constexpr char kR2rBadComposite[] = "r2r-bad-composite";
inline constexpr char kR2rBadDebugInfo[] = "r2r-bad-debug-info";
inline constexpr char kR2rBadHotColdMap[] = "r2r-bad-hot-cold-map";
inline constexpr char kR2rBadEntryPoint[] = "r2r-bad-entry-point";
inline constexpr char kR2rBadHashtable[] = "r2r-bad-hashtable";
inline constexpr char kR2rBadInstanceSignature[] = "r2r-bad-instance-signature";
inline constexpr char kR2rBadNativeArray[] = "r2r-bad-native-array";
inline constexpr char kR2rBadRuntimeFunction[] = "r2r-bad-runtime-function";
inline constexpr char kR2rBadSignature[] = "r2r-bad-signature";
inline constexpr char kR2rBadVarint[] = "r2r-bad-varint";
inline constexpr char kR2rBoundPastCode[] = "r2r-bound-past-code";
inline constexpr char kR2rIlOffsetPastBody[] = "r2r-il-offset-past-body";
inline constexpr char kR2rIndexOutOfRange[] = "r2r-index-out-of-range";
inline constexpr char kR2rLookbackChain[] = "r2r-lookback-chain";
inline constexpr char kR2rLookbackOutside[] = "r2r-lookback-outside";
inline constexpr char kR2rNewerVersion[] = "r2r-newer-version";  // a warning
inline constexpr char kR2rNoHeader[] = "r2r-no-header";
inline constexpr char kR2rNotPe[] = "r2r-not-pe";
inline constexpr char kR2rSectionOutsideImage[] = "r2r-section-outside-image";
inline constexpr char kR2rTruncated[] = "r2r-truncated";
inline constexpr char kR2rUnsupportedMachine[] = "r2r-unsupported-machine";
inline constexpr char kR2rUnsupportedVersion[] = "r2r-unsupported-version";

// Target memory (schema/target_memory.hpp and its sources: a live process,
// a core dump, a caller's reader)
inline constexpr char kTargetUnreadable[] = "target-unreadable";
inline constexpr char kTargetNotInDump[] = "target-not-in-dump";
inline constexpr char kTargetNoAccess[] = "target-no-access";
inline constexpr char kCoreDumpInvalid[] = "core-dump-invalid";
inline constexpr char kElfInvalid[] = "elf-invalid";
inline constexpr char kRuntimeNotFound[] = "runtime-not-found";
inline constexpr char kRuntimeDescriptorInvalid[] = "runtime-descriptor-invalid";
inline constexpr char kRuntimeContractUnsupported[] = "runtime-contract-unsupported";
inline constexpr char kRuntimeDataInvalid[] = "runtime-data-invalid";
inline constexpr char kRuntimeDebugInfoInvalid[] = "runtime-debug-info-invalid";

// Symbolization (symbolize/): a process's memory map (/proc/PID/maps) as a
// profiler saved it.
inline constexpr char kMapsInvalid[] = "maps-invalid";

// Description overrides (fields a canonical build would not write)
// layout-override is the note for each; the errors are contradictions or
// limits of an explicit layout (MapBuilder, buildMap, build).
inline constexpr char kLayoutOverride[] = "layout-override";
inline constexpr char kPlacementConflict[] = "placement-conflict";
inline constexpr char kTruncatePastEnd[] = "truncate-past-end";
inline constexpr char kGapTooLarge[] = "gap-too-large";
inline constexpr char kPlacementsTooLarge[] = "placements-too-large";

// IL-map description overrides (a method's `layout`, writer/bounds_layout.hpp);
// each override that makes non-canonical bytes is a layout-override note,
// as for dictionary maps, and a truncation past the end truncate-past-end.
inline constexpr char kIlOverrideNotApplicable[] = "il-override-not-applicable";
inline constexpr char kIlOverrideOutOfRange[] = "il-override-out-of-range";
// A method given as a verbatim blob (`raw`) where bounds or a map are
// needed (the method table of `il lookup` and the C protocol).
inline constexpr char kIlRawMethod[] = "il-raw-method";

// diff (`gdmap diff`, and `verify` reporting every difference)
inline constexpr char kDiffByteLevel[] = "diff-byte-level";

}  // namespace gdmap::rules
