#pragma once
// Internal to reader/map: validation of the types inside one heap item.
#include "map_check_item.hpp"
#include "map_check_sink.hpp"

#include <cstddef>

namespace gdmap::detail {

// Checks type[0..T) of an item whose length and count were read and whose
// count is at least 1 and at most the bytes left: each type well-formed,
// together exactly filling the item; warns about non-minimal integers and
// types the CLI cannot use as generic arguments. Returns whether the types
// are well-formed and fill the item.
//
// `retryBudget` bounds, over the whole map, the bytes re-read past item ends
// to tell "the length prefix is too short" from "the type is malformed".
bool checkItemTypes(ByteSpan map, const ItemHeader& item, std::uint32_t heapOffset, std::size_t& retryBudget,
                    DiagnosticSink& sink);

// The same without the quiet-item fast path (quiet_types.hpp): every type
// walked in full. What the fast path is tested against.
bool checkItemTypesInFull(ByteSpan map, const ItemHeader& item, std::uint32_t heapOffset, std::size_t& retryBudget,
                          DiagnosticSink& sink);

}  // namespace gdmap::detail
