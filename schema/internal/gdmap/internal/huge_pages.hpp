#pragma once
// Not API (gdmap::detail, for gdmap's own libraries): asks the kernel to
// back a large buffer with huge pages. A check or a build of a
// million-entry map touches tens of megabytes of fresh memory; with 4 KiB
// pages the page faults alone cost a sixth of a check's time. Advisory
// only: where the call is missing or refused nothing changes.
#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace gdmap::detail {

void adviseHugePages(const void* data, std::size_t bytes);

// `v` becomes `count` copies of `value` in fresh memory advised before it
// is first touched: for a large array read at random (a hash table, a
// table indexed by item), where 4 KiB pages would add a TLB miss to most
// reads.
// Makes room in `v` for `extra` more elements, doubling its capacity in
// fresh advised memory when it is short: for an arena that grows as keys
// arrive and is read at random by a table's compares.
template <class T>
void reserveWithHugePages(std::vector<T>& v, std::size_t extra) {
  if (v.capacity() - v.size() >= extra) return;
  std::vector<T> grown;
  const std::size_t capacity = std::max(2 * v.capacity(), v.size() + extra);
  grown.reserve(capacity);
  adviseHugePages(grown.data(), capacity * sizeof(T));
  grown.assign(v.begin(), v.end());
  v = std::move(grown);
}

template <class T>
void assignWithHugePages(std::vector<T>& v, std::size_t count, const T& value) {
  v = std::vector<T>();
  v.reserve(count);
  adviseHugePages(v.data(), count * sizeof(T));
  v.assign(count, value);
}

}  // namespace gdmap::detail
