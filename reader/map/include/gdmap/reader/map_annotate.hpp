#pragma once
// A map's bytes as annotated ranges: what `gdmap hexdump` prints. The ranges
// tile [0, size) exactly, in order, with no overlap and none empty, for a
// valid map and a hostile one alike: every byte is named by the field path
// the checker uses (header.count, directory[3].rva, heap@0x1c.length,
// heap@0x1c.type[1], ...) or marked as belonging to nothing.
//
// Decisions (docs/cli.md, "gdmap hexdump"):
// - a count is never trusted: a header whose directory does not fit is
//   annotated as far as whole entries go, and the bytes of the entry cut
//   short form one "directory[i]" range; no heap is read then;
// - heap items are annotated in heap order, each part once: where an item
//   starts inside one already annotated (overlapping items), the bytes
//   already named stay the first item's, and only the later item's parts
//   past them are named, cut to where they begin to be new;
// - an item whose length runs past the heap's end is annotated up to the
//   heap's end; bytes of an item after its last type are one ".unused"
//   range; bytes after a malformed type up to the item's end are that type's;
// - the status of a range is the most severe checkMap() diagnostic whose
//   offset falls in it (error over warning), else "unreachable" for heap
//   bytes no item covers, else ok.
// Linear in the map's size plus the directory's sort (a radix sort).
// Statuses come from checkMap(), run first; the ranges are then streamed.
#include <gdmap/reader/map_check.hpp>
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/range_status.hpp>
#include <gdmap/schema/type_names.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gdmap {

struct AnnotatedRange {
  std::size_t offset = 0;
  std::size_t length = 0;
  std::string path;     // "directory[0].rva"; never empty
  std::string meaning;  // "RVA 0x00001000", "-> heap@0x7", "class 0x01000012<int32>"
  RangeStatus status = RangeStatus::Ok;
  // The most severe problem here (its rule id and message), when there is one.
  std::string rule;
  std::string message;
};

struct MapAnnotation {
  std::vector<AnnotatedRange> ranges;  // tile [0, map.size()); empty for an empty map
  CheckReport check;                   // the diagnostics the statuses come from (all of them)
};

// The ranges, in order, one at a time (a range is built, marked and handed
// over; memory stays the map's diagnostics and one entry's worth per item),
// and checkMap()'s report (every diagnostic, uncapped).
using RangeCallback = std::function<void(const AnnotatedRange&)>;
// With `names`, types are written with the names it knows (type_names.hpp).
CheckReport annotateMap(ByteSpan map, const RangeCallback& onRange, const TypeNames* names = nullptr);

// The same, collected.
MapAnnotation annotateMap(ByteSpan map, const TypeNames* names = nullptr);

}  // namespace gdmap
