#include <gdmap/internal/huge_pages.hpp>

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace gdmap::detail {

void adviseHugePages(const void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::size_t kHugePage = std::size_t{2} << 20;
  if (bytes < 2 * kHugePage) return;
  // Only the whole huge pages inside the buffer: madvise wants an aligned
  // start, and advising beyond the buffer would touch someone else's memory.
  const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(data) % kHugePage;
  const std::size_t lead = misalignment == 0 ? 0 : kHugePage - misalignment;
  const std::size_t length = (bytes - lead) / kHugePage * kHugePage;
  // madvise takes a non-const pointer; it changes no byte of the buffer.
  void* first = const_cast<char*>(static_cast<const char*>(data)) + lead;
  if (length > 0) (void)::madvise(first, length, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace gdmap::detail
