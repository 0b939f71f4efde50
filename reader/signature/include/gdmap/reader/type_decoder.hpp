#pragma once
// ECMA-335 signature bytes -> Type model, for untrusted input: every count is
// checked against gdmap::Limits (limits.hpp) and the bytes left before it is
// used, nesting is bounded by Limits::maxTypeDepth, and every error carries
// the absolute byte offset of the offending byte, a message, and the rule id
// it breaks (rules.hpp, "Type signatures and type text"; docs/errors.md).
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/type.hpp>

#include <cstddef>
#include <string>

namespace gdmap {

// What a decode noticed that is legal but not canonical.
struct TypeDecodeNotes {
  std::size_t nonMinimalIntegers = 0;
  std::size_t firstNonMinimalOffset = 0;  // meaningful when the count is > 0
};

// Decodes the one Type that starts at bytes[offset] and advances `offset`
// past it. On error `offset` is unspecified.
Expected<Type> decodeType(ByteSpan bytes, std::size_t& offset, TypeDecodeNotes* notes = nullptr);

// The same checks as decodeType without building the model (no allocation):
// what a validator calls on every type of a large map.
Status skipType(ByteSpan bytes, std::size_t& offset, TypeDecodeNotes* notes = nullptr);

// `bytes` must hold exactly one Type, nothing after it.
Expected<Type> decodeTypeBlob(ByteSpan bytes, TypeDecodeNotes* notes = nullptr);

// For diagnostics: the field inside the well-formed type starting at
// bytes[start] that contains byte `target`, as a path like
// ".arguments[1].shape.lowerBounds[0]" or ".token" ("" for the element type
// byte of the outermost type). Stops at the first malformed byte.
std::string typeFieldPath(ByteSpan bytes, std::size_t start, std::size_t target);

}  // namespace gdmap
