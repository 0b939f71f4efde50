// locateMapField(): walks the header, the directory and the items an entry
// reaches, trusting nothing: every length is clipped to the bytes present.
#include "map_locate.hpp"

#include <gdmap/reader/compressed_int.hpp>
#include <gdmap/reader/type_decoder.hpp>

#include <algorithm>

namespace gdmap::detail {

std::uint32_t readU32(ByteSpan bytes, std::size_t at) {
  return std::uint32_t{bytes[at]} | std::uint32_t{bytes[at + 1]} << 8 | std::uint32_t{bytes[at + 2]} << 16 |
         std::uint32_t{bytes[at + 3]} << 24;
}

namespace {

// "heap@0x1c": heap offsets in paths as map_check writes them, lowercase,
// no padding.
std::string heapName(std::uint64_t heapOffset) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string digits;
  do {
    digits.insert(digits.begin(), kDigits[heapOffset & 0xF]);
    heapOffset >>= 4;
  } while (heapOffset != 0);
  return "heap@0x" + digits;
}

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
  const bool countOk = lengthEnd < itemEnd &&
                       decodeCompressedUInt(item.subspan(lengthEnd), count) == CompressedIntError::None;
  const std::size_t countEnd = countOk ? lengthEnd + count.length
                                       : (lengthEnd < itemEnd ? compressedExtent(item, lengthEnd, itemEnd) : itemEnd);
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
      f = {MapFieldKind::ItemType, f.item,
           ".type[" + std::to_string(k) + "]" + typeFieldPath(item, typeStart, offset), typeStart, typeEnd,
           f.referencedBy};
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
  if (offset < 4) {
    f.kind = MapFieldKind::Header;
    f.inner = "header.count";
    f.end = std::min<std::size_t>(4, map.size());
    return f;
  }
  const std::uint64_t count = readU32(map, 0) & 0x7FFFFFFFu;
  const std::uint64_t heapStart = 4 + 8 * count;
  if (offset < heapStart) {
    const std::size_t index = (offset - 4) / 8;
    const bool isRva = (offset - 4) % 8 < 4;
    f.kind = isRva ? MapFieldKind::DirectoryRva : MapFieldKind::DirectoryOffset;
    f.inner = "directory[" + std::to_string(index) + (isRva ? "].rva" : "].offset");
    f.begin = 4 + 8 * index + (isRva ? 0 : 4);
    f.end = std::min(f.begin + 4, map.size());
    return f;
  }

  // A heap byte: offset < map.size(), so the whole directory is present.
  std::size_t bestStart = 0, bestEnd = 0;
  std::optional<std::uint32_t> bestEntry;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint64_t start = heapStart + readU32(map, 8 + 8 * std::size_t{i});
    if (start > offset || (bestEntry && start <= bestStart)) continue;
    DecodedUInt length;
    std::size_t end;
    if (decodeCompressedUInt(map.subspan(start), length) == CompressedIntError::None)
      end = static_cast<std::size_t>(std::min<std::uint64_t>(start + length.length + length.value, map.size()));
    else
      end = compressedExtent(map, start, map.size());
    if (offset >= end) continue;
    bestStart = start;
    bestEnd = end;
    bestEntry = i;
  }
  const std::size_t heapOffset = offset - heapStart;
  if (!bestEntry) {
    f.kind = MapFieldKind::Unreachable;
    f.item = heapName(heapOffset);
    f.inner = " (unreachable)";
    f.begin = offset;
    f.end = offset + 1;
    return f;
  }
  f.item = heapName(bestStart - heapStart);
  f.referencedBy = bestEntry;
  locateInItem(map, bestStart, bestEnd, offset, f);
  return f;
}

}  // namespace gdmap::detail
