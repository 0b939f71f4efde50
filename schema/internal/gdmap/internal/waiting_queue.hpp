#pragma once
// Not API (gdmap::detail, for gdmap's own libraries): a first-in first-out
// queue of small records, each with a run of bytes kept in one arena. For
// lookups that wait a few steps while what they will read is prefetched
// (the map builder's staged items, the description's named references):
// pushing and popping allocate nothing once the queue has warmed up, and
// what was popped is dropped in batches, so the queue holds what waits,
// not everything that passed through it.
#include <cstddef>
#include <span>
#include <vector>

namespace gdmap::detail {

template <class Record, class Byte>
class WaitingQueue {
 public:
  std::size_t size() const { return entries_.size() - first_; }
  bool empty() const { return size() == 0; }

  // The record `k` places from the oldest (0), and its bytes.
  const Record& at(std::size_t k) const { return entries_[first_ + k].record; }
  std::span<const Byte> bytesAt(std::size_t k) const {
    const Entry& e = entries_[first_ + k];
    return std::span<const Byte>(arena_).subspan(e.offset, e.length);
  }

  // The newest record, to complete once its bytes are in place.
  Record& newest() { return entries_.back().record; }

  // Adds `record` with the bytes `head` then `tail` as the newest.
  void push(const Record& record, std::span<const Byte> head, std::span<const Byte> tail = {}) {
    entries_.push_back({record, arena_.size(), head.size() + tail.size()});
    arena_.insert(arena_.end(), head.begin(), head.end());
    arena_.insert(arena_.end(), tail.begin(), tail.end());
  }

  // Removes the oldest.
  void pop() {
    ++first_;
    if (first_ == entries_.size()) {
      entries_.clear();
      arena_.clear();
      first_ = 0;
    } else if (first_ >= kDropEvery) {
      const std::size_t from = entries_[first_].offset;
      arena_.erase(arena_.begin(), arena_.begin() + static_cast<std::ptrdiff_t>(from));
      entries_.erase(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(first_));
      for (Entry& e : entries_) e.offset -= from;
      first_ = 0;
    }
  }

 private:
  static constexpr std::size_t kDropEvery = 1024;
  struct Entry {
    Record record;
    std::size_t offset;  // in arena_
    std::size_t length;
  };
  std::vector<Entry> entries_;  // [first_, end) wait
  std::vector<Byte> arena_;
  std::size_t first_ = 0;
};

}  // namespace gdmap::detail
