// The Debian doctest package exports only the header target, so the test
// binary brings its own main.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
