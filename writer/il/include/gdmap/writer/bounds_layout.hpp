#pragma once
// A method's bytes in one binary form with its explicit layout applied
// (il::BoundsLayout, docs/il-map.md "Overrides"): a count that lies, wider
// widths, longer varints, padding, source bits no runtime defines, trailing
// bytes, a truncation, or the whole blob verbatim. This is how a test author
// writes a broken blob readably, and how `gdmap il dump` describes any blob
// exactly. Without a layout the bytes are encodeBounds()'s, the canonical
// ones.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/il_map.hpp>

#include <optional>
#include <vector>

namespace gdmap::il {

struct ExactEncoding {
  std::optional<Bytes> bytes;  // empty after an error
  // Errors, and a layout-override note for each override that makes bytes a
  // canonical build would not write. `path` is a JSON pointer below the
  // method ("/layout/count", "/layout/nibbles/bounds[2].il",
  // "/bounds/3/native", "/raw"; "" for the method itself).
  std::vector<Diagnostic> diagnostics;
  explicit operator bool() const { return bytes.has_value(); }
};

// `method` in `form`. Errors (all that are found, not only the first):
//  - il-override-not-applicable: a layout key the form has no field for
//    (`nativeBits` for nibble, `count` for api, a padding where the bytes
//    end on a byte boundary, a varint of a bound that does not exist);
//  - il-override-out-of-range: a width or a varint length too narrow for
//    its value (at the bound that needs more), over 32 bits or 11 nibbles,
//    a padding value wider than its padding;
//  - truncate-past-end: `truncate` beyond the bytes;
//  - and encodeBounds()'s: il-empty-bounds (unless `count` is given),
//    il-bounds-not-ascending, il-flag-not-storable (unless `verbatimSource`,
//    nibble form), il-code-size-required, and il-map-not-compressible for a
//    compressed form of a `map` method.
// Linear in the bounds, the varint lengths and the trailing bytes.
ExactEncoding encodeExact(const Method& method, BoundsForm form);

}  // namespace gdmap::il
