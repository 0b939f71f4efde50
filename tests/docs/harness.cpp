// Runs every example of docs/library.md (kExamples, generated) and fails,
// naming the document's line, when one returns non-zero or an expect() in
// it fails.
#include "harness.hpp"

#include <fstream>
#include <iterator>

namespace {
int failedExpectations = 0;
}

void docs::expectFailed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: expected %s\n", file, line, condition);
  ++failedExpectations;
}

gdmap::Bytes docs::sourceFile(const std::string& relative) {
  std::ifstream in(std::string(GDMAP_SOURCE_DIR) + "/" + relative, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", relative.c_str());
    return {};
  }
  return gdmap::Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

int report(const gdmap::Error& error) {
  std::fprintf(stderr, "error at %zu [%s]: %s\n", error.offset, error.rule.c_str(), error.message.c_str());
  return 1;
}

int main() {
  int failed = 0;
  for (std::size_t i = 0; i < docs::kExampleCount; ++i) {
    const docs::Example& e = docs::kExamples[i];
    const int before = failedExpectations;
    const int status = e.run();
    if (status != 0 || failedExpectations != before) {
      std::fprintf(stderr, "%s:%d: the example fails (returned %d)\n", e.file, e.line, status);
      ++failed;
    }
  }
  std::printf("%zu examples of docs/library.md, %d failed\n", docs::kExampleCount, failed);
  return failed == 0 && docs::kExampleCount > 0 ? 0 : 1;
}
