#pragma once
// Bounds and API arrays to bytes, exactly as the runtime writes them
// (FORMAT.md §3.3): minimal nibble varints, minimal bit widths, zero padding.
// The output is a function of the input; the strict readers
// (reader/bounds_decoder.hpp) give the input back.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/il_map.hpp>

#include <cstdint>
#include <optional>
#include <span>

namespace gdmap::il {

// The API array: each entry as three little-endian u32, back to back.
Bytes encodeApiEntries(std::span<const ApiEntry> entries);

// `bounds` in one of the three compressed forms (Nibble, Packed2, Packed3).
// Errors, a bound's naming it in Error::path ("bounds[3].source") and
// Error::index (3), not in the message:
//  - il-empty-bounds: no bound (the runtime stores no blob then);
//  - il-bounds-not-ascending: a native offset below the previous one;
//  - il-flag-not-storable: a source flag the form cannot store (the message
//    names it); never dropped silently;
//  - il-code-size-required: `form` is Api, which is derived from bounds with
//    a code size (use encodeBounds).
Expected<Bytes> encodeCompressedBounds(std::span<const Bound> bounds, BoundsForm form);

// Any form. Api derives the array with boundsToApi (schema/bounds_to_api.hpp)
// and needs `codeSize` (il-code-size-required without it; an empty array
// when the bounds are empty), after checking the order
// (il-bounds-not-ascending); the compressed forms ignore codeSize.
Expected<Bytes> encodeBounds(std::span<const Bound> bounds, BoundsForm form,
                             std::optional<std::uint32_t> codeSize = std::nullopt);

// The bytes of the nibble varint of `value` alone (a whole byte stream,
// flushed): 8 -> 09, 64 -> 89 00.
Bytes encodeNibbleU32(std::uint32_t value);

}  // namespace gdmap::il
