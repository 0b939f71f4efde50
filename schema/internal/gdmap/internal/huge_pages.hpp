#pragma once
// Not API (gdmap::detail, for gdmap's own libraries): asks the kernel to
// back a large buffer with huge pages. A check or a build of a
// million-entry map touches tens of megabytes of fresh memory; with 4 KiB
// pages the page faults alone cost a sixth of a check's time. Advisory
// only: where the call is missing or refused nothing changes.
#include <cstddef>

namespace gdmap::detail {

void adviseHugePages(const void* data, std::size_t bytes);

}  // namespace gdmap::detail
