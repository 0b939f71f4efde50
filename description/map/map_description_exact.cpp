// dumpExactDescription(): a description of any bytes at all that `build`
// turns back into exactly those bytes (docs/description.md, "Dump of
// anything"). The map is read as a writer wrote it: the count word, as many
// whole directory entries as it claims and the file holds, and the rest as
// the heap. Items a directory entry reaches are described as types (when
// they are exactly the canonical encoding of their types) or raw; an entry
// whose item does not sit where the canonical layout would put it gets an
// offset of its own; an entry that reaches no well-formed item gets only its
// offset; heap bytes no item covers become /layout/fill or
// /layout/trailing. Canonical maps never come here: `dump` writes them with
// dumpDescription(), as before.
#include <gdmap/description/description_json.hpp>

#include "collected_text.hpp"
#include "description_keys.hpp"
#include "description_text.hpp"

#include <gdmap/description/json_writer.hpp>
#include <gdmap/internal/radix_sort.hpp>
#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/compressed_int.hpp>
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/map_format.hpp>
#include <gdmap/schema/type_text.hpp>
#include <gdmap/writer/type_encoder.hpp>

#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gdmap {
namespace {

namespace map_key = description::map_key;

// The item at heap offset `offset`, when a length prefix there decodes and
// the item it announces fits in the heap.
std::optional<ByteSpan> wellFormedItem(ByteSpan heap, std::uint32_t offset) {
  if (offset >= heap.size()) return std::nullopt;
  DecodedUInt length;
  if (decodeCompressedUInt(heap.subspan(offset), length) != CompressedIntError::None) return std::nullopt;
  const std::uint64_t size = std::uint64_t{length.length} + length.value;
  if (size > heap.size() - offset) return std::nullopt;
  return heap.subspan(offset, static_cast<std::size_t>(size));
}

// The types of `item` when it is exactly their canonical encoding (so
// that building their text gives these bytes back).
bool canonicalTypes(ByteSpan item, Bytes& scratch, std::vector<Type>& types) {
  DecodedUInt length, count;
  if (decodeCompressedUInt(item, length) != CompressedIntError::None) return false;
  const ByteSpan body = item.subspan(length.length);
  if (decodeCompressedUInt(body, count) != CompressedIntError::None || count.value == 0 ||
      count.value > body.size())  // each type takes at least a byte
    return false;
  types.clear();
  std::size_t at = count.length;
  for (std::uint32_t t = 0; t < count.value; ++t) {
    Expected<Type> type = decodeType(body, at);
    if (!type) return false;
    types.push_back(std::move(type).value());
  }
  if (at != body.size()) return false;
  scratch.clear();
  std::uint8_t prefix[8];
  std::size_t prefixSize = encodeCompressedUInt(static_cast<std::uint32_t>(body.size()), prefix);
  prefixSize += encodeCompressedUInt(count.value, prefix + prefixSize);
  scratch.insert(scratch.end(), prefix, prefix + prefixSize);
  for (const Type& type : types) {
    if (!encodeType(type, scratch)) return false;
  }
  return std::ranges::equal(scratch, item);
}

// An item's form: its types when they are canonical, else its bytes raw.
void writeItemForm(JsonWriter& w, ByteSpan item, Bytes& scratch, std::vector<Type>& types, std::string& text,
                   const TypeNames* names) {
  if (canonicalTypes(item, scratch, types)) {
    w.key(map_key::kTypes);
    description::writeTypeList(w, types, text, names);
  } else {
    w.key(map_key::kRaw);
    w.hexBytes(item);
  }
}

std::string_view viewOf(ByteSpan bytes) { return {reinterpret_cast<const char*>(bytes.data()), bytes.size()}; }

std::uint32_t rvaAt(ByteSpan map, std::size_t i) {
  return readU32(map, static_cast<std::size_t>(directoryRvaOffset(i)));
}
std::uint32_t offsetAt(ByteSpan map, std::size_t i) {
  return readU32(map, static_cast<std::size_t>(directoryOffsetOffset(i)));
}

// A cut count word: the canonical word of an empty map, cut as short.
std::string cutCountWordText(ByteSpan map) {
  LayoutOverrides layout;
  std::uint8_t word[kHeaderSize];
  writeU32(word, kSortedFlag);
  std::copy(map.begin(), map.end(), word);
  if (readU32(ByteSpan(word, kHeaderSize), 0) != kSortedFlag) layout.count = readU32(ByteSpan(word, kHeaderSize), 0);
  layout.truncate = map.size();
  std::string out;
  JsonWriter w(out);
  description::beginDescription(w, true);
  description::beginDictionaries(w);
  w.endArray();
  description::writeLayout(w, layout);
  w.endObject();
  out += '\n';
  return out;
}

// Whether the description says sorted: the count word's bit 31 where the
// RVAs ascend; the count word, when a build would not write it, and
// repeated RVAs go to `layout`.
bool readCountWord(ByteSpan map, std::size_t entries, LayoutOverrides& layout) {
  const std::uint32_t word = readU32(map, 0);
  bool ascending = true;  // non-decreasing: a stable sort keeps the order
  for (std::size_t i = 1; ascending && i < entries; ++i) ascending = rvaAt(map, i - 1) <= rvaAt(map, i);
  const bool sorted = (word & kSortedFlag) != 0 && ascending;
  if (word != (static_cast<std::uint32_t>(entries) | (sorted ? kSortedFlag : 0u))) layout.count = word;
  std::vector<std::uint64_t> keys(entries);
  for (std::size_t i = 0; i < entries; ++i) keys[i] = std::uint64_t{rvaAt(map, i)} << 32 | i;
  radixSortByHigh32(keys);
  for (std::size_t k = 1; k < keys.size() && !layout.duplicateRvas; ++k)
    layout.duplicateRvas = keys[k] >> 32 == keys[k - 1] >> 32;
  return sorted;
}

enum EntryKind : std::uint8_t { kOffsetOnly, kCanonical, kPlaced };

// Where the canonical layout puts the items of entries without an
// offset (as the builder does: in directory order, deduplicated), and so
// which entries need one. With fewer entries than the count claims, the
// reader's heap is not this one: every entry is an offset only. `covered`
// gets [start, end) of every item written.
std::vector<EntryKind> entryKinds(ByteSpan map, ByteSpan heap, std::size_t entries, bool itemsReadable,
                                  std::vector<std::pair<std::uint64_t, std::uint64_t>>& covered) {
  std::vector<EntryKind> kind(entries, kOffsetOnly);
  std::unordered_map<std::string_view, std::uint32_t> canonicalAt;
  std::uint64_t cursor = 0;
  for (std::size_t i = 0; itemsReadable && i < entries; ++i) {
    const std::uint32_t offset = offsetAt(map, i);
    const std::optional<ByteSpan> item = wellFormedItem(heap, offset);
    if (!item) continue;
    const std::string_view bytes = viewOf(*item);
    bool writes = true;  // a new placement (a shared canonical item is written once)
    if (const auto it = canonicalAt.find(bytes); it != canonicalAt.end()) {
      kind[i] = it->second == offset ? kCanonical : kPlaced;
      writes = kind[i] == kPlaced;
    } else if (offset == cursor) {
      canonicalAt.emplace(bytes, offset);
      cursor += item->size();
      kind[i] = kCanonical;
    } else {
      kind[i] = kPlaced;
    }
    if (writes) covered.emplace_back(offset, offset + item->size());
  }
  return kind;
}

// Heap bytes no item covers: fill, or trailing bytes at the end.
void uncoveredBytes(ByteSpan heap, std::vector<std::pair<std::uint64_t, std::uint64_t>>& covered,
                    LayoutOverrides& layout) {
  std::sort(covered.begin(), covered.end());
  std::uint64_t end = 0;
  for (const auto& [start, stop] : covered) {
    if (start > end)
      layout.fill.push_back({static_cast<std::uint32_t>(end), Bytes(heap.begin() + end, heap.begin() + start)});
    end = std::max(end, stop);
  }
  if (end < heap.size()) layout.trailing.assign(heap.begin() + end, heap.end());
}

}  // namespace

Expected<std::string> dumpExactDescription(ByteSpan map) {
  return description::collectedText([&](const auto& emit) { return dumpExactDescription(map, emit); });
}

Status dumpExactDescription(ByteSpan map, const std::function<Status(std::string_view)>& emit, const TypeNames* names) {
  if (map.size() < kHeaderSize) return emit(cutCountWordText(map));
  LayoutOverrides layout;
  const std::uint64_t claimed = readU32(map, 0) & kEntryCountMask;
  const std::size_t entries =
      static_cast<std::size_t>(std::min<std::uint64_t>(claimed, (map.size() - kHeaderSize) / kDirectoryEntrySize));
  const bool sorted = readCountWord(map, entries, layout);
  const ByteSpan heap = map.subspan(static_cast<std::size_t>(heapStartFor(entries)));
  std::vector<EntryKind> kind;
  {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> covered;
    kind = entryKinds(map, heap, entries, entries == claimed, covered);
    uncoveredBytes(heap, covered, layout);
  }

  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::string out;
  out.reserve(kChunk + 4096);
  JsonWriter w(out);
  description::beginDescription(w, sorted);
  description::beginDictionaries(w);
  Bytes scratch;
  std::vector<Type> types;
  std::string text;
  for (std::size_t i = 0; i < entries; ++i) {
    w.beginObject(JsonWriter::Layout::Inline);
    w.key(map_key::kRva);
    w.hex32(rvaAt(map, i));
    if (kind[i] != kOffsetOnly) writeItemForm(w, *wellFormedItem(heap, offsetAt(map, i)), scratch, types, text, names);
    if (kind[i] != kCanonical) description::writeDictionaryOffset(w, offsetAt(map, i));
    w.endObject();
    if (out.size() >= kChunk) {
      if (Status s = emit(out); !s) return s;
      out.clear();
    }
  }
  w.endArray();
  description::writeLayout(w, layout);
  w.endObject();
  out += '\n';
  return emit(out);
}

}  // namespace gdmap
