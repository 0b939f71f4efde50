// diffMaps(): both directories sorted by RVA (a radix sort, none when bit 31
// is earned) and merged once; items compared by bytes first, decoded only
// when the bytes differ; sharing compared through each item's first
// dictionary (another radix sort). Nothing is quadratic, and values are
// formatted only for the entries that are listed.
#include <gdmap/reader/map_diff.hpp>

#include <gdmap/internal/radix_sort.hpp>
#include <gdmap/reader/map_compare.hpp>
#include <gdmap/reader/map_view.hpp>
#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/map_format.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/schema/type_text.hpp>
#include "map_field_values.hpp"
#include "map_locate.hpp"
#include "map_type_difference.hpp"

#include <algorithm>
#include <tuple>
#include <unordered_map>
#include <variant>

namespace gdmap {
namespace {

using detail::cappedHex;
using detail::cappedPair;
using detail::cappedText;

// A dictionary's whole list of types is quoted up to this many characters.
constexpr std::size_t kMaxQuotedList = 200;
// Items of up to this many bytes (both sides) are compared for each
// dictionary; larger ones once for each pair of items.
constexpr std::size_t kSmallItems = 64;
// Bytes quoted at a byte-level difference.
constexpr std::size_t kQuotedBytes = 8;

// One side, read as a map: its entries ordered by RVA.
struct Side {
  ByteSpan bytes;
  std::optional<MapView> view;
  std::vector<std::uint64_t> order;  // rva << 32 | directory index, RVA ascending
  std::optional<Error> error;        // why it does not read as a map

  std::uint32_t rva(std::size_t k) const { return static_cast<std::uint32_t>(order[k] >> 32); }
  std::uint32_t index(std::size_t k) const { return static_cast<std::uint32_t>(order[k]); }
};

Side readSide(ByteSpan bytes) {
  Side s;
  s.bytes = bytes;
  Expected<MapView> view = MapView::open(bytes);
  if (!view) {
    s.error = view.error();
    return s;
  }
  const MapView& v = s.view.emplace(*view);
  const std::uint32_t n = v.size();
  // Every item reads: in directory order, the order the bytes are in.
  for (std::uint32_t i = 0; i < n; ++i) {
    const DirectoryEntry e = v.entry(i);
    Expected<ItemView> item = v.item(e.offset);
    if (!item) {
      // An offset past the end is named by the entry's offset field.
      const std::size_t at =
          item.error().offset < bytes.size() ? item.error().offset : static_cast<std::size_t>(directoryOffsetOffset(i));
      s.error = Error{at, directoryEntryPath(i) + " -> " + heapPath(e.offset) + ": " + item.error().message,
                      item.error().rule};
      return s;
    }
  }
  s.order.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) s.order[i] = std::uint64_t{v.entry(i).rva} << 32 | i;
  // An earned bit 31 means the directory already ascends, strictly.
  if (v.sorted() && v.checkOrder()) return s;
  radixSortByHigh32(s.order);
  for (std::size_t k = 1; k < n; ++k) {
    if (s.rva(k) != s.rva(k - 1)) continue;
    const std::uint32_t first = std::min(s.index(k - 1), s.index(k));
    const std::uint32_t second = std::max(s.index(k - 1), s.index(k));
    s.error = Error{static_cast<std::size_t>(directoryRvaOffset(second)),
                    directoryRvaPath(second) + ": RVA " + hex32(s.rva(k)) + " is also " + directoryRvaPath(first) +
                        "'s; dictionaries are matched by RVA",
                    rules::kDuplicateRva};
    s.order.clear();
    return s;
  }
  return s;
}

// A dictionary's types, decoded one by one; a type that does not decode
// ends the list with the rest of the item's bytes.
struct TypeList {
  struct Undecodable {
    ByteSpan rest;
    std::string why;
  };
  std::vector<std::variant<Type, Undecodable>> types;
  std::vector<std::size_t> starts;  // each element's byte offset in the map
};

TypeList decodeTypes(ByteSpan map, const ItemView& item) {
  TypeList list;
  const std::size_t end = item.start + item.bytes.size();
  const ByteSpan bounded = map.first(end);
  std::size_t at = item.typesStart;
  // Each type takes at least a byte: a lying count stops at the item's end.
  for (std::uint32_t k = 0; k < item.typeCount; ++k) {
    const std::size_t start = at;
    list.starts.push_back(start);
    if (start >= end) {
      list.types.emplace_back(TypeList::Undecodable{
          {}, "the item ends after " + std::to_string(k) + " of its " + std::to_string(item.typeCount) + " types"});
      break;
    }
    Expected<Type> type = decodeType(bounded, at);
    if (!type) {
      list.types.emplace_back(TypeList::Undecodable{map.subspan(start, end - start), type.error().message});
      break;
    }
    list.types.emplace_back(std::move(*type));
  }
  return list;
}

bool sameElement(const std::variant<Type, TypeList::Undecodable>& x,
                 const std::variant<Type, TypeList::Undecodable>& y) {
  if (x.index() != y.index()) return false;
  if (const Type* t = std::get_if<Type>(&x)) return *t == std::get<Type>(y);
  const ByteSpan a = std::get<TypeList::Undecodable>(x).rest;
  const ByteSpan b = std::get<TypeList::Undecodable>(y).rest;
  return std::ranges::equal(a, b);
}

std::string elementText(const std::variant<Type, TypeList::Undecodable>& x, const TypeNames* names) {
  if (const Type* t = std::get_if<Type>(&x)) {
    std::string text;
    formatType(*t, text, names);
    return cappedText(std::move(text));
  }
  const auto& u = std::get<TypeList::Undecodable>(x);
  if (u.rest.empty()) return "(missing: " + u.why + ")";
  return cappedHex(u.rest) + " (does not decode: " + u.why + ")";
}

std::string listText(const TypeList& list, const TypeNames* names) {
  if (list.types.empty()) return "(no types)";
  std::string text;
  for (const auto& t : list.types) {
    if (!text.empty()) text += ", ";
    text += elementText(t, names);
    if (text.size() > kMaxQuotedList) break;
  }
  return cappedText(std::move(text), kMaxQuotedList);
}

MapDiffEntry makeEntry(MapDiffKind kind, std::string path, std::string a, std::string b,
                       std::optional<std::uint32_t> rva, std::size_t offsetA, std::size_t offsetB) {
  MapDiffEntry e;
  e.kind = kind;
  e.path = std::move(path);
  e.a = std::move(a);
  e.b = std::move(b);
  e.rva = rva;
  e.offsetA = offsetA;
  e.offsetB = offsetB;
  return e;
}

std::string dictionaryPath(std::uint32_t rva) { return "dictionary " + shortHex(rva); }

// A dictionary both maps have, for the passes after the merge.
struct Common {
  std::uint32_t rva = 0;
  std::uint32_t indexA = 0, indexB = 0;
  std::uint32_t itemA = 0, itemB = 0;  // heap offsets
  bool sameContent = false;
};

class Collector {
 public:
  Collector(MapDiff& d, std::size_t max) : d_(d), max_(max) {}
  // Whether the next entry will be listed (else only counted): values are
  // formatted only then.
  bool listing() const { return d_.differences.size() < max_; }
  void add(MapDiffEntry e) {
    ++d_.total;
    if (listing()) d_.differences.push_back(std::move(e));
  }
  void count(MapDiffKind kind) { ++d_.counts[static_cast<std::size_t>(kind)]; }

 private:
  MapDiff& d_;
  std::size_t max_;
};

MapByteSummary compareBytes(ByteSpan a, ByteSpan b) {
  MapByteSummary s;
  s.sizeA = a.size();
  s.sizeB = b.size();
  const std::size_t common = std::min(a.size(), b.size());
  bool inRun = false;
  for (std::size_t i = 0; i < common; ++i) {
    const bool differs = a[i] != b[i];
    if (differs) {
      if (!s.firstOffset) s.firstOffset = i;
      ++s.differingBytes;
      if (!inRun) ++s.differingRuns;
    }
    inRun = differs;
  }
  const std::size_t tail = std::max(a.size(), b.size()) - common;
  if (tail > 0) {
    if (!s.firstOffset) s.firstOffset = common;
    s.differingBytes += tail;
    if (!inRun) ++s.differingRuns;
  }
  if (s.firstOffset) {
    s.pathA = *s.firstOffset < a.size() ? mapFieldPath(a, *s.firstOffset) : "end of map";
    s.pathB = *s.firstOffset < b.size() ? mapFieldPath(b, *s.firstOffset) : "end of map";
  }
  return s;
}

// The bytes of the field that holds `at`, from `at` on (at most
// kQuotedBytes): the quote stays inside the field the entry is named for
// (header.count's 4 bytes, not the directory entry after them).
std::string bytesAt(ByteSpan map, std::size_t at) {
  if (at >= map.size()) return "end of map";
  const detail::MapField field = detail::locateMapField(map, at);
  const std::size_t end = field.end > at ? std::min(field.end, map.size()) : map.size();
  return toHex(map.subspan(at, std::min(kQuotedBytes, end - at)));
}

// The first differing byte as an entry (the byte-level fallback, and the
// last word of a layout difference nothing else names).
MapDiffEntry firstByteEntry(ByteSpan a, ByteSpan b, const MapByteSummary& s, MapDiffKind kind) {
  MapDiffEntry e;
  e.kind = kind;
  const std::size_t at = *s.firstOffset;
  e.path = at < a.size() ? s.pathA : s.pathB;
  e.a = bytesAt(a, at);
  e.b = bytesAt(b, at);
  if (at < a.size()) e.offsetA = at;
  if (at < b.size()) e.offsetB = at;
  return e;
}

// For each common dictionary whose content is the same, the first (by
// RVA) of those that share its item on one side; others keep their own.
std::vector<std::uint32_t> leaders(const std::vector<Common>& common, bool sideA, std::vector<std::uint32_t>& sizes) {
  std::vector<std::uint64_t> keys;
  for (std::size_t j = 0; j < common.size(); ++j)
    if (common[j].sameContent) keys.push_back(std::uint64_t{sideA ? common[j].itemA : common[j].itemB} << 32 | j);
  radixSortByHigh32(keys);  // stable: a group's first key has its first dictionary
  std::vector<std::uint32_t> leader(common.size());
  sizes.assign(common.size(), 1);
  for (std::size_t j = 0; j < common.size(); ++j) leader[j] = static_cast<std::uint32_t>(j);
  for (std::size_t k = 0; k < keys.size();) {
    std::size_t end = k + 1;
    while (end < keys.size() && keys[end] >> 32 == keys[k] >> 32) ++end;
    const auto first = static_cast<std::uint32_t>(keys[k]);
    for (std::size_t m = k; m < end; ++m) leader[static_cast<std::uint32_t>(keys[m])] = first;
    sizes[first] = static_cast<std::uint32_t>(end - k);
    k = end;
  }
  return leader;
}

std::string sharingText(const std::vector<Common>& common, std::uint32_t j, std::uint32_t leader,
                        std::uint32_t groupSize) {
  if (leader != j) return "shared with " + dictionaryPath(common[leader].rva);
  if (groupSize == 1) return "not shared";
  const std::uint32_t others = groupSize - 1;
  return "shared with " + std::to_string(others) + " later dictionar" + (others == 1 ? "y" : "ies");
}

class Differ {
 public:
  Differ(const Side& a, const Side& b, MapDiff& d, const MapDiffOptions& options)
      : a_(a), b_(b), d_(d), out_(d, options.maxListed), context_(options.context), names_(options.names) {}

  void run() {
    header();
    merge();
    sharing();
    d_.sameContent = d_.total == 0;
    if (d_.sameContent) layout();
  }

 private:
  ItemView itemOf(const Side& s, std::uint32_t index) const {
    // readSide() read every entry's item: this one reads.
    return *s.view->item(s.view->entry(index).offset);
  }

  void header() {
    const std::uint32_t x = readU32(a_.bytes, 0), y = readU32(b_.bytes, 0);
    if (x == y) return;
    out_.count(MapDiffKind::Header);
    out_.add(
        makeEntry(MapDiffKind::Header, kHeaderCountPath, detail::headerValue(x), detail::headerValue(y), {}, 0, 0));
  }

  void onlyOne(const Side& s, std::size_t k, bool inA) {
    const MapDiffKind kind = inA ? MapDiffKind::Removed : MapDiffKind::Added;
    out_.count(kind);
    MapDiffEntry e;
    e.kind = kind;
    e.rva = s.rva(k);
    if (out_.listing()) {
      e.path = dictionaryPath(s.rva(k));
      std::string value = listText(decodeTypes(s.bytes, itemOf(s, s.index(k))), names_);
      (inA ? e.a : e.b) = std::move(value);
      (inA ? e.offsetA : e.offsetB) = static_cast<std::size_t>(directoryRvaOffset(s.index(k)));
    }
    out_.add(std::move(e));
  }

  // The types of two items that differ, each as an entry whose path is
  // ".type[k]" (the dictionary's path goes before it when it is listed).
  // Values are formatted only when `format` is set.
  std::vector<MapDiffEntry> compareItems(const ItemView& x, const ItemView& y, bool format) const {
    std::vector<MapDiffEntry> found;
    if (x.typeCount == y.typeCount && std::ranges::equal(x.types, y.types)) return found;
    const TypeList tx = decodeTypes(a_.bytes, x), ty = decodeTypes(b_.bytes, y);
    const std::size_t n = std::max(tx.types.size(), ty.types.size());
    for (std::size_t k = 0; k < n; ++k) {
      const bool inX = k < tx.types.size(), inY = k < ty.types.size();
      if (inX && inY && sameElement(tx.types[k], ty.types[k])) continue;
      MapDiffEntry& e = found.emplace_back();
      e.kind = MapDiffKind::Changed;
      if (!format) continue;
      e.path = typeIndexPath(k);
      if (inX && inY && std::holds_alternative<Type>(tx.types[k]) && std::holds_alternative<Type>(ty.types[k])) {
        typeChange(std::get<Type>(tx.types[k]), std::get<Type>(ty.types[k]), e);
        e.offsetA = tx.starts[k];
        e.offsetB = ty.starts[k];
      } else {
        if (inX) {
          e.a = elementText(tx.types[k], names_);
          e.offsetA = tx.starts[k];
        }
        if (inY) {
          e.b = elementText(ty.types[k], names_);
          e.offsetB = ty.starts[k];
        }
      }
      if (found.size() == 1 && context_) {
        e.contextA = listText(tx, names_);
        e.contextB = listText(ty, names_);
      }
    }
    return found;
  }

  // Two types that differ: each cut around the difference however long
  // they are, and the part inside them that differs.
  void typeChange(const Type& x, const Type& y, MapDiffEntry& e) const {
    std::string textA, textB;
    formatType(x, textA, names_);
    formatType(y, textB, names_);
    std::tie(e.a, e.b) = cappedPair(textA, textB);
    detail::TypeDifference d = detail::firstTypeDifference(x, y, names_);
    if (d.path.empty()) return;
    e.subPath = std::move(d.path);
    e.partA = std::move(d.a);
    e.partB = std::move(d.b);
  }

  void both(std::size_t ka, std::size_t kb) {
    Common c{a_.rva(ka),
             a_.index(ka),
             b_.index(kb),
             a_.view->entry(a_.index(ka)).offset,
             b_.view->entry(b_.index(kb)).offset,
             true};
    const ItemView x = itemOf(a_, c.indexA), y = itemOf(b_, c.indexB);
    std::vector<MapDiffEntry> local;
    const std::vector<MapDiffEntry>* found = &local;
    if (x.bytes.size() + y.bytes.size() > kSmallItems) {
      // A large item many dictionaries share is compared once per pair of
      // items, not once per dictionary: hostile sharing stays linear.
      const std::uint64_t key = std::uint64_t{c.itemA} << 32 | c.itemB;
      auto [at, inserted] = compared_.try_emplace(key);
      if (inserted) at->second = compareItems(x, y, true);
      found = &at->second;
    } else {
      local = compareItems(x, y, out_.listing());
    }
    if (!found->empty()) {
      c.sameContent = false;
      out_.count(MapDiffKind::Changed);
    }
    for (const MapDiffEntry& f : *found) {
      if (!out_.listing()) {
        out_.add({});
        continue;
      }
      MapDiffEntry e = f;
      e.path = dictionaryPath(c.rva) + f.path;
      e.rva = c.rva;
      out_.add(std::move(e));
    }
    common_.push_back(c);
  }

  void merge() {
    const std::size_t na = a_.order.size(), nb = b_.order.size();
    std::size_t ka = 0, kb = 0;
    while (ka < na || kb < nb) {
      if (kb == nb || (ka < na && a_.rva(ka) < b_.rva(kb))) onlyOne(a_, ka++, true);
      else if (ka == na || b_.rva(kb) < a_.rva(ka)) onlyOne(b_, kb++, false);
      else both(ka++, kb++);
    }
  }

  void sharing() {
    leaderA_ = leaders(common_, true, sizesA_);
    leaderB_ = leaders(common_, false, sizesB_);
    for (std::uint32_t j = 0; j < common_.size(); ++j) {
      const Common& c = common_[j];
      if (!c.sameContent || leaderA_[j] == leaderB_[j]) continue;
      out_.count(MapDiffKind::Sharing);
      MapDiffEntry e;
      e.kind = MapDiffKind::Sharing;
      e.rva = c.rva;
      if (out_.listing()) {
        e.path = dictionaryPath(c.rva) + ".instantiation";
        e.a = sharingText(common_, j, leaderA_[j], sizesA_[leaderA_[j]]);
        e.b = sharingText(common_, j, leaderB_[j], sizesB_[leaderB_[j]]);
        e.offsetA = itemOf(a_, c.indexA).start;
        e.offsetB = itemOf(b_, c.indexB).start;
      }
      out_.add(std::move(e));
    }
  }

  // `make` formats the entry only when it is listed.
  template <typename Make>
  void layoutEntry(Make make) {
    out_.count(MapDiffKind::Layout);
    if (out_.listing()) out_.add(make());
    else out_.add({});
  }

  // Same content, other bytes: where each map puts it. Only the listed
  // entries' values are formatted.
  void layout() {
    if (d_.bytes.differingBytes == 0) return;
    for (std::uint32_t j = 0; j < common_.size(); ++j) {
      const Common& c = common_[j];
      if (c.indexA != c.indexB)
        layoutEntry([&] {
          return makeEntry(MapDiffKind::Layout, dictionaryPath(c.rva) + ".directory", directoryEntryPath(c.indexA),
                           directoryEntryPath(c.indexB), c.rva,
                           static_cast<std::size_t>(directoryEntryOffset(c.indexA)),
                           static_cast<std::size_t>(directoryEntryOffset(c.indexB)));
        });
      if (leaderA_[j] != j) continue;  // its item was looked at with its first dictionary
      const ItemView x = itemOf(a_, c.indexA), y = itemOf(b_, c.indexB);
      if (c.itemA != c.itemB)
        layoutEntry([&] {
          return makeEntry(MapDiffKind::Layout, dictionaryPath(c.rva) + ".item", heapPath(c.itemA), heapPath(c.itemB),
                           c.rva, x.start, y.start);
        });
      if (!std::ranges::equal(x.bytes, y.bytes))
        layoutEntry([&] {
          return makeEntry(MapDiffKind::Layout, dictionaryPath(c.rva) + ".encoding", cappedHex(x.bytes),
                           cappedHex(y.bytes), c.rva, x.start, y.start);
        });
    }
    const std::size_t heapA = a_.view->heap().size(), heapB = b_.view->heap().size();
    if (heapA != heapB)
      layoutEntry([&] {
        return makeEntry(MapDiffKind::Layout, "heap.size", std::to_string(heapA) + " bytes",
                         std::to_string(heapB) + " bytes", {}, a_.view->heapStart(), b_.view->heapStart());
      });
    if (d_.total == 0) {  // e.g. bytes no entry reaches
      out_.count(MapDiffKind::Layout);
      out_.add(firstByteEntry(a_.bytes, b_.bytes, d_.bytes, MapDiffKind::Layout));
    }
  }

  const Side& a_;
  const Side& b_;
  MapDiff& d_;
  Collector out_;
  bool context_;
  const TypeNames* names_;
  std::vector<Common> common_;
  std::unordered_map<std::uint64_t, std::vector<MapDiffEntry>> compared_;  // large items, by (A's, B's) offsets
  std::vector<std::uint32_t> leaderA_, leaderB_, sizesA_, sizesB_;
};

}  // namespace

std::string_view mapDiffKindName(MapDiffKind kind) {
  switch (kind) {
    case MapDiffKind::Header: return "header";
    case MapDiffKind::Added: return "added";
    case MapDiffKind::Removed: return "removed";
    case MapDiffKind::Changed: return "changed";
    case MapDiffKind::Sharing: return "sharing";
    case MapDiffKind::Layout: return "layout";
    case MapDiffKind::Bytes: return "bytes";
  }
  return "bytes";
}

MapDiff diffMaps(ByteSpan a, ByteSpan b, const MapDiffOptions& options) {
  MapDiff d;
  d.bytes = compareBytes(a, b);
  d.identical = d.bytes.differingBytes == 0;
  if (d.identical) {
    d.structural = MapView::open(a).ok();
    return d;
  }
  const Side sa = readSide(a), sb = readSide(b);
  if (!sa.error && !sb.error) {
    d.structural = true;
    Differ(sa, sb, d, options).run();
    return d;
  }
  d.unreadableA = sa.error;
  d.unreadableB = sb.error;
  d.sameContent = false;
  Collector out(d, options.maxListed);
  out.count(MapDiffKind::Bytes);
  out.add(firstByteEntry(a, b, d.bytes, MapDiffKind::Bytes));
  return d;
}

}  // namespace gdmap
