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

// Maps: canonical form (checkCanonical)
inline constexpr char kCanonicalDuplicateItem[] = "canonical-duplicate-item";
inline constexpr char kCanonicalGap[] = "canonical-gap";
inline constexpr char kCanonicalItemOrder[] = "canonical-item-order";
inline constexpr char kCanonicalNonMinimalInteger[] = "canonical-non-minimal-integer";
inline constexpr char kCanonicalOverlap[] = "canonical-overlap";
inline constexpr char kInvalidMap[] = "invalid-map";

// Type signatures and type text
inline constexpr char kInvalidType[] = "invalid-type";

// Descriptions (JSON)
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

}  // namespace gdmap::rules
