#pragma once
// A fast path for checkMap and the description builder. Most items are
// "quiet": every type well-formed, written in minimal integers, with nothing
// the runtime cannot instantiate over where a generic argument stands —
// nothing the full, located walk (signature_walker.hpp) and the
// generic-argument scan would say a word about, and bytes that
// decodeTypeBlob() reads with nothing to note and encodeType() writes back
// unchanged. One flat pass recognises such an item, so checkMap can skip
// both walks and a builder can copy a `{"hex"}` type without decoding it.
// Whatever it does not recognise, well-formed or not, is declined and takes
// the full path: declining changes the cost, never the verdict.
#include <gdmap/schema/bytes.hpp>

#include <cstddef>
#include <cstdint>

namespace gdmap::detail {

// Whether item[typesStart, item.size()) is exactly `count` quiet types.
// Items of 256 bytes or more are declined: below that no type can nest
// deeper than Limits::maxTypeDepth, so the pass needs no depth bookkeeping,
// and its recursion is bounded by the item's size.
bool isQuietTypeList(ByteSpan item, std::size_t typesStart, std::uint32_t count);

}  // namespace gdmap::detail
