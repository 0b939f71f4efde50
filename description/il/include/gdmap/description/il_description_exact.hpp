#pragma once
// Any bytes as an IL-map method that builds back into exactly those bytes
// (`gdmap il dump`, docs/il-map.md "Dump of anything"): valid or not,
// truncated, with a count that lies, trailing bytes, non-zero padding,
// long varints, wide widths, even empty or foreign.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/il_map.hpp>

namespace gdmap::il {

struct ExactIlMethod {
  // Token 0 and no code size: the caller names the method. `layout` is
  // absent when the blob is canonical (the description is then exactly what
  // a dump of a canonical blob always was).
  Method method;
  // The blob's header (count, packed widths) could not be read, so the
  // method is `raw`: the verbatim escape, used only then.
  bool raw = false;
};

// The plainest description that il::encodeExact() turns back into `blob`:
// the bounds (or API entries) the bytes hold, read leniently as far as they
// go, plus only the overrides that differ from a canonical build (a count
// that is not the number of bounds, longer varints, wider widths, non-zero
// padding, source bits no runtime defines, the bytes after the last
// complete bound as `trailing`). Every result is checked by building it;
// should that ever differ, the method falls back to `raw`. Linear in the
// blob.
ExactIlMethod describeIlBlob(ByteSpan blob, BoundsForm form);

}  // namespace gdmap::il
