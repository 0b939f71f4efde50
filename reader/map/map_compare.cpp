// compareMaps(): the first differing byte, named by the field of the
// expected (well-formed) map that holds it, with both sides' values.
#include <gdmap/internal/plural.hpp>
#include <gdmap/reader/map_compare.hpp>

#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/compressed_int.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/map_format.hpp>
#include <gdmap/schema/type_text.hpp>
#include "map_field_values.hpp"
#include "map_locate.hpp"

#include <algorithm>

namespace gdmap {
namespace {

using detail::cappedHex;
using detail::cappedHexAround;
using detail::cappedPair;
using detail::cappedText;
using detail::headerValue;
using detail::MapField;
using detail::MapFieldKind;

// A compressed integer's bytes and value, or why it does not decode.
std::string integerValue(ByteSpan map, std::size_t at) {
  DecodedUInt v;
  const CompressedIntError e = decodeCompressedUInt(map.subspan(at), v);
  if (e != CompressedIntError::None)
    return toHex(map.subspan(at, std::min<std::size_t>(4, map.size() - at))) + " (" + std::string(describe(e)) + ")";
  return toHex(map.subspan(at, v.length)) + " (" + std::to_string(v.value) + ")";
}

// The type starting at map[at]: its bytes and its text, or the bytes up to
// `fallbackEnd` and why they do not decode.
std::string typeValue(ByteSpan map, std::size_t at, std::size_t fallbackEnd) {
  std::size_t end = at;
  Expected<Type> type = decodeType(map, end);
  if (type) return cappedHex(map.subspan(at, end - at)) + " (" + cappedText(formatType(*type)) + ")";
  fallbackEnd = std::clamp(fallbackEnd, at + 1, map.size());
  return cappedHex(map.subspan(at, fallbackEnd - at)) + " (does not decode: " + type.error().message + ")";
}

// The value of field `f` (located in the expected map) as `map` holds it.
// `map` reaches at least f.begin + 1 bytes.
std::string fieldValue(ByteSpan map, const MapField& f) {
  switch (f.kind) {
    case MapFieldKind::Header:
      if (map.size() >= kHeaderSize) return headerValue(readU32(map, 0));
      break;
    case MapFieldKind::DirectoryRva:
    case MapFieldKind::DirectoryOffset:
      if (map.size() >= f.begin + 4) return hex32(readU32(map, f.begin));
      break;
    case MapFieldKind::ItemLength:
    case MapFieldKind::ItemCount: return integerValue(map, f.begin);
    case MapFieldKind::ItemType: return typeValue(map, f.begin, f.end);
    default: break;
  }
  const std::size_t end = std::clamp(f.end, f.begin, map.size());
  return cappedHex(map.subspan(f.begin, end - f.begin));
}

// A type both maps hold that differs at byte `first`: each side quoted
// around that byte, its text cut where the two texts differ, so that two
// long types that differ deep inside never read the same. Left as
// fieldValue() quoted them when a side does not decode.
void typeValues(ByteSpan expected, ByteSpan actual, const MapField& f, std::size_t first, MapDifference& d) {
  std::size_t endExpected = f.begin, endActual = f.begin;
  const Expected<Type> e = decodeType(expected, endExpected);
  const Expected<Type> a = decodeType(actual, endActual);
  if (!e || !a) return;
  const auto [textExpected, textActual] = cappedPair(formatType(*e), formatType(*a));
  d.expected =
      cappedHexAround(expected.subspan(f.begin, endExpected - f.begin), first - f.begin) + " (" + textExpected + ")";
  d.found = cappedHexAround(actual.subspan(f.begin, endActual - f.begin), first - f.begin) + " (" + textActual + ")";
}

}  // namespace

std::string mapFieldPath(ByteSpan map, std::size_t offset) { return detail::locateMapField(map, offset).path(); }

MapDifference compareMaps(ByteSpan expected, ByteSpan actual) {
  MapDifference d;
  d.expectedSize = expected.size();
  d.actualSize = actual.size();
  const std::size_t common = std::min(expected.size(), actual.size());
  std::size_t first = common;
  for (std::size_t i = 0; i < common; ++i) {
    if (expected[i] != actual[i]) {
      if (d.differingBytes == 0) first = i;
      ++d.differingBytes;
    }
  }
  d.differingBytes += std::max(expected.size(), actual.size()) - common;
  if (d.differingBytes == 0) return d;
  d.identical = false;
  d.firstOffset = first;

  if (first == expected.size()) {  // the actual map goes on after the expected one ends
    d.field = "end of map";
    d.expected = "end of map";
    const std::size_t extra = actual.size() - first;
    d.found = plural(extra, "extra byte", "extra bytes") + ": " +
              toHex(actual.subspan(first, std::min<std::size_t>(extra, 16))) + (extra > 16 ? "..." : "");
    return d;
  }

  // Everything before `first` is equal, so the expected map's structure
  // (header, directory, item boundaries up to here) is the actual's too.
  const MapField f = detail::locateMapField(expected, first);
  d.field = f.item;
  if (!f.item.empty() && f.referencedBy) d.field += "(directory[" + std::to_string(*f.referencedBy) + "])";
  d.field += f.inner;
  d.expected = fieldValue(expected, f);
  if (first == actual.size())
    d.found = "end of map (expected " + plural(expected.size() - first, "more byte", "more bytes") + ")";
  else d.found = fieldValue(actual, f);
  if (f.kind == MapFieldKind::ItemType && first < actual.size()) typeValues(expected, actual, f, first, d);
  return d;
}

}  // namespace gdmap
