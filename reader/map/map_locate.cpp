// locateMapField(): walks the header, the directory and the items an entry
// reaches, trusting nothing: every length is clipped to the bytes present.
#include "map_locate.hpp"

#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/compressed_int.hpp>
#include <gdmap/schema/map_format.hpp>

#include <algorithm>

namespace gdmap::detail {

namespace {

// The bytes a compressed integer at `at` claims (1, 2 or 4 by its lead
// byte; 1 for an invalid lead), clipped to `limit`.
std::size_t compressedExtent(ByteSpan map, std::size_t at, std::size_t limit) {
  const std::uint8_t lead = map[at];
  const std::size_t width = (lead & 0x80) == 0 ? 1 : (lead & 0xC0) == 0x80 ? 2 : (lead & 0xE0) == 0xC0 ? 4 : 1;
  return std::min(at + width, limit);
}

// Fields inside the item that starts at map[start], given that it holds
// map[offset]. `itemEnd` is where its length prefix says it ends (clipped).
void locateInItem(ByteSpan map, std::size_t start, std::size_t itemEnd, std::size_t offset, MapField& f) {
  DecodedUInt length;
  const bool lengthOk = decodeCompressedUInt(map.subspan(start), length) == CompressedIntError::None;
  const std::size_t lengthEnd = lengthOk ? start + length.length : compressedExtent(map, start, map.size());
  if (offset < lengthEnd || !lengthOk) {
    f = {MapFieldKind::ItemLength, f.item, ".length", start, lengthEnd, f.referencedBy};
    return;
  }
  const ByteSpan item = map.first(itemEnd);  // absolute offsets, bounded by the item
  DecodedUInt count;
  const bool countOk =
      lengthEnd < itemEnd && decodeCompressedUInt(item.subspan(lengthEnd), count) == CompressedIntError::None;
  const std::size_t countEnd =
      countOk ? lengthEnd + count.length : (lengthEnd < itemEnd ? compressedExtent(item, lengthEnd, itemEnd) : itemEnd);
  if (offset < countEnd || !countOk) {
    f = {MapFieldKind::ItemCount, f.item, ".count", lengthEnd, countEnd, f.referencedBy};
    return;
  }
  std::size_t at = countEnd;
  for (std::uint32_t k = 0; k < count.value && at < itemEnd; ++k) {
    const std::size_t typeStart = at;
    const bool ok = static_cast<bool>(skipType(item, at));
    const std::size_t typeEnd = ok ? at : itemEnd;
    if (offset < typeEnd) {
      std::string inner = typeIndexPath(k);
      inner += typeFieldPath(item, typeStart, offset);
      f = {MapFieldKind::ItemType, f.item, std::move(inner), typeStart, typeEnd, f.referencedBy};
      return;
    }
    if (!ok) break;
  }
  f = {MapFieldKind::ItemTrailing, f.item, " (after the last type)", at, itemEnd, f.referencedBy};
}

}  // namespace

MapField locateMapField(ByteSpan map, std::size_t offset) {
  MapField f;
  if (offset >= map.size()) {
    f.inner = "end of map";
    f.begin = f.end = map.size();
    return f;
  }
  if (offset < kHeaderSize) {
    f.kind = MapFieldKind::Header;
    f.inner = kHeaderCountPath;
    f.end = std::min(kHeaderSize, map.size());
    return f;
  }
  const std::uint64_t count = readU32(map, 0) & kEntryCountMask;
  const std::uint64_t heapStart = heapStartFor(count);
  if (offset < heapStart) {
    const std::size_t index = (offset - kHeaderSize) / kDirectoryEntrySize;
    const bool isRva = (offset - kHeaderSize) % kDirectoryEntrySize < 4;
    f.kind = isRva ? MapFieldKind::DirectoryRva : MapFieldKind::DirectoryOffset;
    f.inner = isRva ? directoryRvaPath(index) : directoryOffsetPath(index);
    f.begin = static_cast<std::size_t>(isRva ? directoryRvaOffset(index) : directoryOffsetOffset(index));
    f.end = std::min(f.begin + 4, map.size());
    return f;
  }

  // A heap byte: offset < map.size(), so the whole directory is present.
  std::size_t bestStart = 0, bestEnd = 0;
  std::optional<std::uint32_t> bestEntry;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint64_t start = heapStart + readU32(map, static_cast<std::size_t>(directoryOffsetOffset(i)));
    if (start > offset || (bestEntry && start <= bestStart)) continue;
    DecodedUInt length;
    std::size_t end;
    if (decodeCompressedUInt(map.subspan(start), length) == CompressedIntError::None)
      end = static_cast<std::size_t>(std::min<std::uint64_t>(start + length.length + length.value, map.size()));
    else end = compressedExtent(map, start, map.size());
    if (offset >= end) continue;
    bestStart = start;
    bestEnd = end;
    bestEntry = i;
  }
  const std::size_t heapOffset = offset - heapStart;
  if (!bestEntry) {
    f.kind = MapFieldKind::Unreachable;
    f.item = heapPath(heapOffset);
    f.inner = " (unreachable)";
    f.begin = offset;
    f.end = offset + 1;
    return f;
  }
  f.item = heapPath(bestStart - heapStart);
  f.referencedBy = bestEntry;
  locateInItem(map, bestStart, bestEnd, offset, f);
  return f;
}

}  // namespace gdmap::detail
