#include "stack_trace_point.hpp"

#include <algorithm>

namespace gdmap::pdb {

const SequencePoint* stackTracePoint(const std::vector<SequencePoint>& points, std::uint32_t ilOffset) {
  auto past = std::upper_bound(points.begin(), points.end(), ilOffset,
                               [](std::uint32_t il, const SequencePoint& p) { return il < p.ilOffset; });
  while (past != points.begin()) {
    --past;
    if (!past->hidden()) return &*past;
  }
  return nullptr;
}

}  // namespace gdmap::pdb
