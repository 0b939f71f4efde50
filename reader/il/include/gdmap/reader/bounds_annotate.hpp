#pragma once
// An IL-to-native blob's bits as annotated ranges: what `gdmap il hexdump`
// prints. The compressed forms pack fields into nibbles and bits, so a
// range is measured in bits (bit 8k + b is bit b of byte k; nibble k is
// bits 4k..4k+3): the ranges tile [0, 8 * size) exactly, in order, none
// empty, for a valid blob and a hostile one alike, and a byte may hold
// several ranges. The paths are the strict reader's (bounds_decoder.hpp):
// header.count, header.nativeBits, header.ilBits, header.padding,
// bounds[3].native, bounds[3].il, bounds[3].source, padding, trailing,
// entries[2].ilOffset, ...
//
// Counts are never trusted: the fields are read as far as the bytes go,
// whatever the header claims. After the first field that does not read
// (the strict reader stops there too) the rest is one "unread" range.
// A range's status is the most severe problem checkBoundsCanonical()
// locates in it (errors, then the not-canonical warnings).
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/check_report.hpp>
#include <gdmap/schema/il_map.hpp>
#include <gdmap/schema/range_status.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace gdmap::il {

struct AnnotatedBits {
  std::size_t bit = 0;   // first bit, from the blob's start
  std::size_t bits = 0;  // how many
  std::string path;      // never empty
  std::string meaning;   // "6 bounds", "delta 4: native 4", "stored 8: IL 0x5", "0x02: stack_empty"
  RangeStatus status = RangeStatus::Ok;
  std::string rule;  // of the most severe problem here, when there is one
  std::string message;
};

struct BoundsAnnotation {
  std::vector<AnnotatedBits> ranges;  // tile [0, 8 * blob.size())
  CheckReport check;                  // checkBounds()'s diagnostics
};

BoundsAnnotation annotateBounds(ByteSpan blob, BoundsForm form);

}  // namespace gdmap::il
