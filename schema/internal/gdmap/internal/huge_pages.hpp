#pragma once
// Not API (gdmap::detail, for gdmap's own libraries): memory the kernel may
// back with huge pages, for the large tables a build or a check of a
// million-entry map fills (hash tables, arenas, sort keys). With 4 KiB
// pages their first touch alone costs a fault per page, and most random
// reads of a table a TLB miss. Advisory only: where the kernel does not
// give huge pages nothing changes but the alignment.
#include <cstddef>
#include <memory>
#include <new>
#include <vector>

namespace gdmap::detail {

inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

// Tables smaller than this stay with the ordinary allocator: most of a
// huge page would be unused. From here on at most half of the last one is.
inline constexpr std::size_t kHugePageTableMinimum = kHugePage;

// `bytes` (at least kHugePageTableMinimum) rounded up to whole huge pages,
// aligned to one and advised, so that each is given whole at its first
// touch; released by releaseHugePages() with the same `bytes`. Throws
// std::bad_alloc as operator new does.
void* allocateHugePages(std::size_t bytes);
void releaseHugePages(void* data, std::size_t bytes) noexcept;

// Advises the whole huge pages inside a buffer someone else allocated (the
// map a build returns is a Bytes); the pages at its two ends stay small.
void adviseHugePages(const void* data, std::size_t bytes);

// The allocator of HugePageVector: large allocations in huge pages, small
// ones as std::allocator makes them. Stateless: any two are equal.
template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  explicit HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    if (n * sizeof(T) < kHugePageTableMinimum) return std::allocator<T>().allocate(n);
    return static_cast<T*>(allocateHugePages(n * sizeof(T)));
  }
  void deallocate(T* data, std::size_t n) noexcept {
    if (n * sizeof(T) < kHugePageTableMinimum) std::allocator<T>().deallocate(data, n);
    else releaseHugePages(data, n * sizeof(T));
  }
  template <class U>
  friend bool operator==(const HugePageAllocator&, const HugePageAllocator<U>&) noexcept {
    return true;
  }
};

// A vector for a large internal table: grows, assigns and frees like any
// vector, in huge pages once it is large.
template <class T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace gdmap::detail
