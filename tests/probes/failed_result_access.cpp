// Reads the value of a failed result, which is a bug in the caller: the
// library must say which error was ignored and abort, in release builds too
// (tests/probes/expect_abort.sh checks both).
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/rules.hpp>

#include <cstdio>

namespace {

gdmap::Expected<int> failing() {
  return gdmap::Error{0x1c, "heap offset 0x40 is outside the heap", gdmap::rules::kOffsetOutsideHeap};
}

}  // namespace

int main() {
  const gdmap::Expected<int> result = failing();
  std::printf("%d\n", *result);  // never printed
  return 0;
}
