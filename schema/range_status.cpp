#include <gdmap/schema/range_status.hpp>

namespace gdmap {

const char* rangeStatusName(RangeStatus status) {
  switch (status) {
    case RangeStatus::Ok: return "ok";
    case RangeStatus::Unreachable: return "unreachable";
    case RangeStatus::Warning: return "warning";
    case RangeStatus::Error: return "error";
  }
  return "ok";
}

}  // namespace gdmap
