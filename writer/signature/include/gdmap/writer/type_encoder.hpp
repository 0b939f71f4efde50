#pragma once
// Type model -> ECMA-335 signature bytes, every integer in its shortest form.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/type.hpp>

namespace gdmap {

// Appends the bytes of `type` to `out`. A model the grammar cannot express
// (a GENERICINST with no argument or over a TypeSpec, an unknown table, ARRAY
// rank 0, a value out of compressed range, a bad calling convention, a
// SENTINEL that would read back elsewhere, ...) or that breaks gdmap::Limits
// (nesting, rank, counts: the limits decodeType and parseType enforce too)
// is an error; `out` is then left as it was. The error's message starts with
// the field path inside the type (`arguments[1].shape.rank: ...`), its rule
// is one of rules.hpp's "Type signatures and type text", its offset is 0.
Status encodeType(const Type& type, Bytes& out);

// The same, into a fresh buffer.
Expected<Bytes> encodeType(const Type& type);

}  // namespace gdmap
