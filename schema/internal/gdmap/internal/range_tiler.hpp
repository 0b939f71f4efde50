#pragma once
// The tiling both hexdumps print: named ranges appended in order over
// [0, total) units (a map's bytes, an IL-to-native blob's bits), so that
// the ranges never overlap, none is empty and every unit is named, by the
// field that covers it or as a gap. What a gap is called and where the
// ranges go belong to the format; the cutting is the same for every unit.
#include <gdmap/internal/plural.hpp>
#include <gdmap/schema/range_status.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace gdmap::detail {

// Units [from, to) with their field path and meaning, as a tiler hands
// them on.
struct TiledRange {
  std::size_t from = 0;
  std::size_t to = 0;
  std::string path;
  std::string meaning;
  RangeStatus status = RangeStatus::Ok;
  std::string_view rule;
};

// `tiled` as a format's own range type, whose fields for the first unit
// and the count (`start`, `length`) have names of their own.
template <class Range>
Range toRange(TiledRange&& tiled, std::size_t Range::*start, std::size_t Range::*length) {
  Range r;
  r.*start = tiled.from;
  r.*length = tiled.to - tiled.from;
  r.path = std::move(tiled.path);
  r.meaning = std::move(tiled.meaning);
  r.status = tiled.status;
  r.rule = std::string(tiled.rule);
  return r;
}

// How a range that starts inside the one before is cut: its meaning says
// how many of its units were the range before's ("byte is", "bytes are"),
// or, with no words, nothing.
struct TileUnit {
  std::string_view oneIs;
  std::string_view manyAre;
};

// Whether `path` names `field` or a part of it ("heap@0x5.type[0].inner" is
// within "heap@0x5.type[0]"; "heap@0x10" is not within "heap@0x1").
inline bool isPathWithin(std::string_view path, std::string_view field) {
  return path.substr(0, field.size()) == field &&
         (path.size() == field.size() || path[field.size()] == '.' || path[field.size()] == '[');
}

// Out has `void range(TiledRange)`, which takes each range, and
// `TiledRange gap(std::size_t from, std::size_t to)`, which names units no
// field covers.
template <class Out>
class RangeTiler {
 public:
  RangeTiler(std::size_t total, TileUnit unit, Out out) : total_(total), unit_(unit), out_(std::move(out)) {}

  std::size_t cursor() const { return cursor_; }
  std::size_t total() const { return total_; }
  Out& out() { return out_; }

  // Cut to the end, and to what the ranges before left unnamed; the units
  // skipped before it become a gap.
  void add(std::size_t from, std::size_t to, std::string path, std::string meaning,
           RangeStatus status = RangeStatus::Ok, std::string_view rule = {}) {
    to = std::min(to, total_);
    if (to <= cursor_) return;
    if (from < cursor_) {
      if (!unit_.oneIs.empty())
        meaning += " (its first " + plural(cursor_ - from, unit_.oneIs, unit_.manyAre) + " the range before's)";
      from = cursor_;
    }
    if (from >= to) return;
    gap(from);
    out_.range(TiledRange{from, to, std::move(path), std::move(meaning), status, rule});
    cursor_ = to;
  }

  // The units from the cursor up to `to`, as a gap.
  void gap(std::size_t to) {
    to = std::min(to, total_);
    if (to <= cursor_) return;
    const std::size_t from = cursor_;
    cursor_ = to;
    out_.range(out_.gap(from, to));
  }

 private:
  std::size_t total_;
  TileUnit unit_;
  Out out_;
  std::size_t cursor_ = 0;
};

}  // namespace gdmap::detail
