#pragma once
// Where two binary IL-to-native maps of one form first differ, named as a
// profiler engineer reads them: the byte, and the entry or bound and field
// that differ with both values (what `gdmap il verify` says when a blob is
// not the one its description builds).
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/il_map.hpp>

#include <cstddef>
#include <optional>
#include <string>

namespace gdmap::il {

struct IlDifference {
  bool identical = true;
  std::size_t expectedSize = 0;
  std::size_t actualSize = 0;
  std::size_t firstOffset = 0;  // the first differing byte (or the shorter size)
  std::string field;            // "entries[2].nativeEndOffset", "bounds[3].native", "header.count"
  std::string detail;           // "expected 17, found 18"
};

// `expected` is the writer's bytes; `actual` may be anything. `field` is
// the field of `actual` the first differing byte is in (of `expected` when
// `actual` ends before it), named as far as `actual` reads; a valid blob's
// first differing value is in `detail`.
IlDifference compareIlBlobs(ByteSpan expected, ByteSpan actual, BoundsForm form);

}  // namespace gdmap::il
