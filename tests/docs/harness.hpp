#pragma once
// What every example of docs/library.md may use without showing it: the
// whole public API, report() for an error a snippet returns on, expect()
// for what the text says a snippet gives, and the test inputs. The examples
// themselves are generated from the document (extract_examples.py).
#include <gdmap/gdmap.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>  // getpid(), for the examples that read their own process

namespace docs {

struct Example {
  int (*run)();
  const char* file;
  int line;
};
extern const Example kExamples[];
extern const std::size_t kExampleCount;

// Counts a failed expect(): the example goes on, the program fails.
void expectFailed(const char* condition, const char* file, int line);

// The bytes of a file under the source tree (tests/data/r2r/...).
gdmap::Bytes sourceFile(const std::string& relative);

}  // namespace docs

// `return report(result.error());`: prints the error, fails the example.
int report(const gdmap::Error& error);

// Under #line, __FILE__ and __LINE__ are docs/library.md's. Variadic: a
// condition may hold braces with commas (`ApiEntry{1, 2, 3}`).
#define expect(...) ((__VA_ARGS__) ? static_cast<void>(0) : ::docs::expectFailed(#__VA_ARGS__, __FILE__, __LINE__))
