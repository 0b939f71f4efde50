#pragma once
// What every bench phase shares: a steady clock and one printed line per
// phase (time, items per second, MB per second).
#include <chrono>
#include <cstddef>
#include <cstdio>

namespace gdmap::bench {

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// "phase        0.123 s     8130081 unit/s      12.3 MB/s"
inline void report(const char* phase, double seconds, std::size_t items, const char* unit, std::size_t bytes) {
  std::printf("%-18s %9.3f s  %12.0f %s/s  %9.1f MB/s\n", phase, seconds, static_cast<double>(items) / seconds, unit,
              static_cast<double>(bytes) / 1e6 / seconds);
}

}  // namespace gdmap::bench
