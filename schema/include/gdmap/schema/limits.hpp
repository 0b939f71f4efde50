#pragma once
// The bounds every reader and writer of types enforces: the type-text parser
// (parseType), the signature decoder (decodeType, skipType, typeFieldPath)
// and the encoder (encodeType) check the same values, so a type passes all
// three or none. Each bound is checked *before* the work it limits: a count
// before its items are read or allocated, a nesting level before the walker
// recurses into it, a rank before another dimension is taken.
//
// The values are far above anything a compiler emits and at or above what
// the .NET runtime will load; they exist so that hostile input (a map from
// the wild, a description from a stranger) cannot make gdmap recurse, loop or
// allocate out of proportion. Anything beyond them can still be written
// byte for byte with a description's `raw` item (docs/description.md), which
// gdmap copies without reading it as a type.
//
// docs/type-text.md ("Limits") explains each value; docs/errors.md gives the
// rule each one breaks.

namespace gdmap {

struct Limits {
  // Nodes from the outermost type down to the deepest one, counting the
  // outermost as 1: `int32` and 255 `*` is the deepest pointer chain. Real
  // signatures nest a handful of levels; 256 keeps the recursive walkers
  // (parse, decode, encode, print, destroy) far inside a default thread
  // stack, sanitizers included. Custom modifiers and `pinned` are nodes too,
  // so this also bounds a chain of modifiers. Rule `type-nesting-too-deep`.
  static constexpr unsigned maxTypeDepth = 256;

  // The CLR loads no array of rank above 32 (MAX_RANK in the runtime; dnlib
  // stops at 64), so a larger rank is never a type a program can use. 32
  // also keeps the rank byte below 0x41 (SENTINEL), so an ARRAY's rank can
  // never be mistaken for the SENTINEL of a function pointer it follows, and
  // every rank prints as plain ILAsm commas. Rule `array-rank-too-large`.
  static constexpr unsigned maxArrayRank = 32;

  // An ArrayShape gives sizes and lower bounds for a prefix of the
  // dimensions (II.23.2.13), so at most one of each per dimension.
  // Rule `array-rank-too-large` (too many for the limit) or
  // `value-out-of-range` (more than the array's own rank).
  static constexpr unsigned maxArraySizes = maxArrayRank;
  static constexpr unsigned maxArrayLowerBounds = maxArrayRank;

  // GENERICINST type arguments. GenericParam.Number is a 2-byte column
  // (II.22.20), so no generic definition has more than 65536 parameters; one
  // 16-bit bound for arguments and parameters alike. Rule `count-too-large`.
  static constexpr unsigned maxGenericArguments = 0xFFFF;

  // FNPTR parameters (the return type not counted). Param.Sequence is a
  // 2-byte column with 0 for the return value (II.22.33), so no method has
  // more than 65535 parameters. Rule `count-too-large`.
  static constexpr unsigned maxFunctionPointerParameters = 0xFFFF;

  // Not limited separately, and why:
  // - custom modifiers, `pinned`, pointers: each is a nesting level, so
  //   maxTypeDepth bounds any chain of them;
  // - text length and encoded length: every node costs at least one byte of
  //   signature and one character of text, so with the bounds above the
  //   work and the model stay linear in the input, and a length cap would
  //   only make some valid signature print as text that does not parse;
  // - values (generic parameter numbers, sizes, lower bounds, generic(N)):
  //   they are bounded by the compressed-integer range and cost no memory.
};

// The name used before Limits existed.
inline constexpr unsigned kMaxTypeDepth = Limits::maxTypeDepth;

}  // namespace gdmap
