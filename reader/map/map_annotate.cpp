// annotateMap(): the map's bytes tiled into named ranges (map_annotate.hpp),
// then checkMap()'s diagnostics laid over them. The tiling reads the map
// itself, never trusting a count: the directory is clamped to the whole
// entries that fit, every item to the heap's end, every type count to the
// item's bytes.
#include <gdmap/internal/plural.hpp>
#include <gdmap/reader/map_annotate.hpp>

#include <gdmap/internal/radix_sort.hpp>
#include <gdmap/internal/range_tiler.hpp>
#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/compressed_int.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/map_format.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/schema/type_text.hpp>

#include <algorithm>
#include <limits>
#include <string_view>
#include <utility>

namespace gdmap {
namespace {

constexpr std::uint32_t kNoEntry = std::numeric_limits<std::uint32_t>::max();

int rank(RangeStatus status) { return static_cast<int>(status); }

void apply(const Diagnostic& d, AnnotatedRange& r) {
  RangeStatus status = d.severity == Severity::Error ? RangeStatus::Error : RangeStatus::Warning;
  if (d.rule == rules::kUnreachableHeapBytes && d.severity != Severity::Error) status = RangeStatus::Unreachable;
  if (rank(status) > rank(r.status) || (rank(status) == rank(r.status) && r.message.empty())) {
    r.status = status;
    r.rule = d.rule;
    r.message = d.message;
  }
}

// Lays the diagnostics (sorted by offset, as checkMap() returns them) over
// the ranges as they come, holding back one range: a decoder that ran out
// of bytes points just past the field it was reading, so a diagnostic in a
// range whose path is not its own but the range before's goes to that one.
// Each diagnostic marks one range: the most severe wins.
class RangeSink {
 public:
  RangeSink(const std::vector<Diagnostic>& diagnostics, const RangeCallback& onRange)
      : diagnostics_(diagnostics), onRange_(onRange) {}

  void add(AnnotatedRange r) {
    const std::size_t end = r.offset + r.length;
    for (; next_ < diagnostics_.size() && diagnostics_[next_].offset < end; ++next_) {
      const Diagnostic& d = diagnostics_[next_];
      if (d.severity == Severity::Note) continue;
      const bool toPending = hasPending_ && (d.offset < r.offset || (!detail::isPathWithin(d.path, r.path) &&
                                                                     detail::isPathWithin(d.path, pending_.path)));
      apply(d, toPending ? pending_ : r);
    }
    if (hasPending_) onRange_(pending_);
    pending_ = std::move(r);
    hasPending_ = true;
  }

  // The last range takes what points past the end of the map.
  void finish() {
    if (!hasPending_) return;
    for (; next_ < diagnostics_.size(); ++next_) {
      const Diagnostic& d = diagnostics_[next_];
      if (d.severity != Severity::Note && d.offset != Diagnostic::npos) apply(d, pending_);
    }
    onRange_(pending_);
    hasPending_ = false;
  }

 private:
  const std::vector<Diagnostic>& diagnostics_;
  const RangeCallback& onRange_;
  std::size_t next_ = 0;
  AnnotatedRange pending_;  // held back; meaningful when hasPending_
  bool hasPending_ = false;
};

// Where the tiler's ranges go (the sink, as AnnotatedRanges), and what the
// heap bytes no item covers are called.
class ByteRanges {
 public:
  explicit ByteRanges(RangeSink& sink) : sink_(&sink) {}

  void setHeapStart(std::size_t heapStart) { heapStart_ = heapStart; }

  void range(detail::TiledRange tiled) {
    sink_->add(detail::toRange(std::move(tiled), &AnnotatedRange::offset, &AnnotatedRange::length));
  }

  detail::TiledRange gap(std::size_t from, std::size_t to) const {
    return {from,
            to,
            from >= heapStart_ ? heapPath(from - heapStart_) : std::string("unknown"),
            plural(to - from, "byte", "bytes") + " no entry's item covers",
            RangeStatus::Unreachable,
            rules::kUnreachableHeapBytes};
  }

 private:
  RangeSink* sink_;
  std::size_t heapStart_ = std::numeric_limits<std::size_t>::max();
};

using Tiler = detail::RangeTiler<ByteRanges>;
constexpr detail::TileUnit kBytes{"byte is", "bytes are"};

class Annotator {
 public:
  Annotator(ByteSpan map, RangeSink& out, const TypeNames* names)
      : map_(map), names_(names), tiler_(map.size(), kBytes, ByteRanges(out)) {}

  void run() {
    if (map_.empty()) return;
    if (map_.size() < kHeaderSize) {
      tiler_.add(0, map_.size(), kHeaderCountPath, "header cut short: " + std::to_string(map_.size()) + " of 4 bytes");
      return;
    }
    const std::uint32_t header = readU32(map_, 0);
    const std::uint64_t count = header & kEntryCountMask;
    const bool sorted = (header & kSortedFlag) != 0;
    const std::uint64_t fit = (map_.size() - kHeaderSize) / kDirectoryEntrySize;
    std::string meaning =
        "count " + std::to_string(count) + (sorted ? ", sorted (bit 31 set)" : ", unsorted (bit 31 clear)");
    if (count > fit) {
      meaning += "; its directory needs " + std::to_string(heapStartFor(count)) + " bytes, the map has " +
                 std::to_string(map_.size());
    }
    tiler_.add(0, kHeaderSize, kHeaderCountPath, std::move(meaning));
    if (count > fit) {
      directory(static_cast<std::uint32_t>(fit), false);
      const std::size_t cut = static_cast<std::size_t>(directoryEntryOffset(fit));
      tiler_.add(cut, map_.size(), directoryEntryPath(fit),
                 "entry cut short: " + std::to_string(map_.size() - cut) + " of 8 bytes", RangeStatus::Error,
                 rules::kDirectoryTruncated);
      return;
    }
    directory(static_cast<std::uint32_t>(count), true);
    heap();
  }

 private:
  // The entries' fields; with `withHeap`, also which item each offset names
  // and which entry first named it (for "shared with"). Fills items_.
  void directory(std::uint32_t entries, bool withHeap) {
    heapStart_ = static_cast<std::size_t>(heapStartFor(entries));
    const std::size_t heapSize = withHeap ? map_.size() - heapStart_ : 0;
    std::vector<std::uint32_t> sharedWith;
    if (withHeap) {
      std::vector<std::uint64_t> refs;  // offset << 32 | entry
      refs.reserve(entries);
      for (std::uint32_t i = 0; i < entries; ++i) {
        const std::uint32_t offset = readU32(map_, static_cast<std::size_t>(directoryOffsetOffset(i)));
        if (offset < heapSize) refs.push_back(std::uint64_t{offset} << 32 | i);
      }
      radixSortByHigh32(refs);
      sharedWith.assign(entries, kNoEntry);
      for (std::size_t k = 0; k < refs.size(); ++k) {
        const auto offset = static_cast<std::uint32_t>(refs[k] >> 32);
        if (items_.empty() || items_.back().first != offset) {
          items_.emplace_back(offset, static_cast<std::uint32_t>(refs[k]));
        } else {
          sharedWith[static_cast<std::uint32_t>(refs[k])] = items_.back().second;
        }
      }
    }
    for (std::uint32_t i = 0; i < entries; ++i) {
      const auto at = static_cast<std::size_t>(directoryEntryOffset(i));
      tiler_.add(at, at + 4, directoryRvaPath(i), "RVA " + hex32(readU32(map_, at)));
      const std::uint32_t offset = readU32(map_, at + 4);
      std::string meaning = "-> " + heapPath(offset);
      if (withHeap && offset >= heapSize) {
        meaning += ", outside the heap of " + plural(heapSize, "byte", "bytes");
      } else if (withHeap && sharedWith[i] != kNoEntry) {
        meaning += " (shared with directory[" + std::to_string(sharedWith[i]) + "])";
      }
      tiler_.add(at + 4, at + 8, directoryOffsetPath(i), std::move(meaning));
    }
  }

  void heap() {
    tiler_.out().setHeapStart(heapStart_);
    // Bytes decoded again under items that start inside earlier ones; capped
    // so that hostile overlapping items cannot make the tiling quadratic.
    rereadBudget_ = 2 * (map_.size() - heapStart_) + 4096;
    for (std::size_t k = 0; k < items_.size(); ++k) {
      const std::size_t start = heapStart_ + items_[k].first;
      const std::size_t next = k + 1 < items_.size() ? heapStart_ + items_[k + 1].first : map_.size();
      tiler_.gap(start);
      item(items_[k].first, next);
    }
    tiler_.gap(map_.size());
  }

  // One item: its length prefix, type count, types and unused bytes, cut
  // to the heap's end. `next` is where the next item starts.
  void item(std::uint32_t heapOffset, std::size_t next) {
    const std::size_t start = heapStart_ + heapOffset;
    DecodedUInt length;
    const CompressedIntError lengthError = decodeCompressedUInt(map_.subspan(start), length);
    if (lengthError != CompressedIntError::None) {
      // Its extent is unknown: up to the next item, so as to name that one.
      tiler_.add(start, next, heapPath(heapOffset),
                 "an item whose length prefix is not a compressed integer (" + std::string(describe(lengthError)) +
                     "); its extent is unknown");
      return;
    }
    const std::size_t bodyStart = start + length.length;
    const std::uint64_t claimedEnd = std::uint64_t{bodyStart} + length.value;
    const std::size_t end = static_cast<std::size_t>(std::min<std::uint64_t>(claimedEnd, map_.size()));
    if (end <= tiler_.cursor()) return;  // wholly inside the items before
    if (start < tiler_.cursor()) {
      const std::size_t reread = tiler_.cursor() - start;
      if (reread > rereadBudget_) {
        tiler_.add(start, end, heapPath(heapOffset), "an item overlapping the one before (not decoded)");
        return;
      }
      rereadBudget_ -= reread;
    }
    std::string meaning = "length " + std::to_string(length.value);
    if (claimedEnd > map_.size()) {
      meaning += ", " + plural(claimedEnd - map_.size(), "byte", "bytes") + " past the heap's end";
    }
    tiler_.add(start, bodyStart, itemLengthPath(heapOffset), std::move(meaning));
    if (bodyStart >= end) return;
    DecodedUInt count;
    const CompressedIntError countError = decodeCompressedUInt(map_.subspan(bodyStart, end - bodyStart), count);
    if (countError != CompressedIntError::None) {
      tiler_.add(bodyStart, end, itemCountPath(heapOffset),
                 "not a compressed integer within the item (" + std::string(describe(countError)) + ")");
      return;
    }
    const std::size_t typesStart = bodyStart + count.length;
    tiler_.add(bodyStart, typesStart, itemCountPath(heapOffset), plural(count.value, "type", "types"));
    // The types are read from the item's bytes only, as checkMap() reads
    // them; every type takes a byte, so the loop ends with them.
    const ByteSpan itemBytes = map_.first(end);
    std::size_t pos = typesStart;
    for (std::uint32_t k = 0; k < count.value && pos < end; ++k) {
      const std::size_t typeStart = pos;
      std::string path = heapPath(heapOffset);
      appendTypeIndexPath(k, path);
      const Expected<Type> type = decodeType(itemBytes, pos);
      if (!type) {
        tiler_.add(typeStart, end, std::move(path), "malformed: " + type.error().message);
        return;
      }
      std::string text;
      formatType(*type, text, names_);
      tiler_.add(typeStart, pos, std::move(path), std::move(text));
    }
    if (pos < end) {
      tiler_.add(pos, end, heapPath(heapOffset) + ".unused",
                 plural(end - pos, "byte", "bytes") + " inside the item's length after its " +
                     plural(count.value, "type", "types"));
    }
  }

  ByteSpan map_;
  const TypeNames* names_;
  Tiler tiler_;
  std::size_t heapStart_ = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> items_;  // (heap offset, first entry), in heap order
  std::size_t rereadBudget_ = 0;
};

}  // namespace

CheckReport annotateMap(ByteSpan map, const RangeCallback& onRange, const TypeNames* names) {
  CheckOptions options;
  // Every finding is laid over the bytes, not only the first hundred.
  options.maxDiagnostics = std::numeric_limits<std::size_t>::max();
  CheckReport check = checkMap(map, options);
  RangeSink sink(check.diagnostics, onRange);
  Annotator(map, sink, names).run();
  sink.finish();
  return check;
}

MapAnnotation annotateMap(ByteSpan map, const TypeNames* names) {
  MapAnnotation result;
  result.check = annotateMap(
      map, [&](const AnnotatedRange& r) { result.ranges.push_back(r); }, names);
  return result;
}

}  // namespace gdmap
