#pragma once
// Bounds -> API array, as the runtime does it (FORMAT.md §3.2): its
// SetBoundaries (merge, ends), its MapSortIL (sort) and its export (trim,
// codeSize for unknown ends). This is what GetILToNativeMapping returns for a
// method whose code generator reported `bounds`.
#include <gdmap/schema/il_map.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace gdmap::il {

// For bounds in ascending native order (firstDescendingBound() says whether
// they are; other input gives the runtime's garbage, never a crash) and a
// method of `codeSize` bytes:
//  1. merge: a bound without call_instruction whose IL offset equals that of
//     the previous kept entry without call_instruction is dropped; "previous"
//     is the last kept entry, or the one before it when the last carries
//     call_instruction (and none when that one does too);
//  2. ends: each kept entry but the last ends where the next kept entry
//     without call_instruction starts (or where the last entry starts when
//     none follows); the last entry's end, and the end of every entry whose
//     bound has native_end_offset_unknown, is codeSize;
//  3. sort: PROLOG entries first, then (call_instruction entries aside)
//     ordinary IL offsets ascending, EPILOG, NO_MAPPING, and last the
//     call_instruction entries; within PROLOG, call_instruction, EPILOG and
//     NO_MAPPING by native start, ordinary ones by IL then native start. A
//     PROLOG bound sorts with the PROLOGs whatever its flags (the runtime
//     tests PROLOG first);
//  4. trim: trailing call_instruction entries are dropped.
// The runtime's quicksort is not stable; gdmap's sort is, so entries that tie
// on group, IL offset and native start keep their bounds' order and the
// output is a function of the input. Time O(n log n), memory O(n).
std::vector<ApiEntry> boundsToApi(std::span<const Bound> bounds, std::uint32_t codeSize);

}  // namespace gdmap::il
