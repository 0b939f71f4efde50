#include <gdmap/internal/huge_pages.hpp>

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace gdmap::detail {
namespace {

std::size_t wholeHugePages(std::size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

void advise(void* first, std::size_t length) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (length > 0) (void)::madvise(first, length, MADV_HUGEPAGE);
#else
  (void)first;
  (void)length;
#endif
}

}  // namespace

void* allocateHugePages(std::size_t bytes) {
  const std::size_t length = wholeHugePages(bytes);
  // Aligned, the allocator's own bookkeeping lies before the first huge
  // page: no byte of the buffer is touched before its owner touches it,
  // and the kernel then fills each huge page whole.
  void* data = ::operator new (length, std::align_val_t{kHugePage});
  advise(data, length);
  return data;
}

void releaseHugePages(void* data, std::size_t /*bytes*/) noexcept {
  // Unsized: clang offers the sized aligned form only with
  // -fsized-deallocation.
  ::operator delete (data, std::align_val_t{kHugePage});
}

void adviseHugePages(const void* data, std::size_t bytes) {
  if (bytes < kHugePageTableMinimum) return;
  // Only the whole huge pages inside the buffer: madvise wants an aligned
  // start, and the pages at the ends are shared with other allocations.
  const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(data) % kHugePage;
  const std::size_t lead = misalignment == 0 ? 0 : kHugePage - misalignment;
  // madvise takes a non-const pointer; it changes no byte of the buffer.
  advise(const_cast<char*>(static_cast<const char*>(data)) + lead, (bytes - lead) / kHugePage * kHugePage);
}

}  // namespace gdmap::detail
