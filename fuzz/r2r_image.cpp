// Fuzz target: the ReadyToRun reader (readR2RImage) on arbitrary bytes,
// seeded with the small real images of tests/data/r2r (every major
// version and architecture there, hot/cold and composite images). It must
// never crash, hang or read outside the input, and:
// - an error names an r2r-* or il-* rule and an offset inside the file;
// - a read image is consistent: methods sorted by runtime function, each
//   owning at least one, together with the cold parts covering the table
//   from the first entry (methods that start at one function share its
//   body, and say so); code sizes the sums of their functions (hot and
//   cold); every span (debug info, bounds, vars) inside the file, the
//   bounds and vars inside the blob; every bounds blob, but the bytes after
//   its last bound, decodable in the image's form; a resumption stub has
//   debug info and follows a body; a warning only for a version past the
//   newest known, which is then read as the newest.
#include "fuzz_check.hpp"

#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/reader/r2r_image.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace {

bool inside(gdmap::ByteSpan part, gdmap::ByteSpan whole) {
  return part.empty() || (part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const gdmap::ByteSpan file = gdmap::fuzz::asBytes(data, size);
  const auto image = gdmap::r2r::readR2RImage(file);
  if (!image) {
    const gdmap::Error& e = image.error();
    FUZZ_CHECK(e.rule.rfind("r2r-", 0) == 0 || e.rule.rfind("il-", 0) == 0, gdmap::fuzz::describeError(e));
    FUZZ_CHECK(e.offset <= size, gdmap::fuzz::describeError(e));
    return 0;
  }
  const auto& functions = image->runtimeFunctions;
  const auto skipCold = [&](std::size_t f) {
    while (f < functions.size() && functions[f].cold) ++f;
    return f;
  };
  FUZZ_CHECK(image->warnings.empty() == (image->majorVersion <= gdmap::r2r::kNewestMajorVersion),
             "a warning without a newer version, or a newer version without one");
  FUZZ_CHECK(image->readAsMajorVersion == std::min(image->majorVersion, gdmap::r2r::kNewestMajorVersion),
             "read as another version than the newest known");
  std::size_t next = image->methods.empty() ? 0 : image->methods.front().firstRuntimeFunction;
  const gdmap::r2r::MethodBody* previous = nullptr;
  for (const gdmap::r2r::MethodBody& m : image->methods) {
    const bool alias = previous != nullptr && previous->firstRuntimeFunction == m.firstRuntimeFunction;
    FUZZ_CHECK(!alias || (m.sharedBody && previous->sharedBody), "two methods share a body without saying so");
    if (alias) {
      FUZZ_CHECK(m.codeSize == previous->codeSize, "methods sharing a body differ in code size");
      continue;
    }
    next = skipCold(next);
    FUZZ_CHECK(m.firstRuntimeFunction == next, "methods do not tile the runtime functions");
    FUZZ_CHECK(!m.resumptionStub || (previous != nullptr && m.hasDebugInfo),
               "a resumption stub without debug info or a body before it");
    previous = &m;
    FUZZ_CHECK(m.runtimeFunctionCount >= 1, "a method without runtime functions");
    std::uint64_t code = 0;
    for (std::uint32_t i = 0; i < m.runtimeFunctionCount; ++i) {
      code += image->runtimeFunctions.at(m.firstRuntimeFunction + i).size();
    }
    for (std::uint32_t i = 0; i < m.coldRuntimeFunctionCount; ++i) {
      FUZZ_CHECK(functions.at(m.firstColdRuntimeFunction + i).cold, "a cold part of hot functions");
      code += functions.at(m.firstColdRuntimeFunction + i).size();
    }
    FUZZ_CHECK(code == m.codeSize, "codeSize is not the sum of the runtime functions");
    next = m.firstRuntimeFunction + m.runtimeFunctionCount;
    FUZZ_CHECK(inside(m.debugInfo, file), "debug info outside the file");
    FUZZ_CHECK(inside(m.bounds, m.debugInfo) && inside(m.vars, m.debugInfo), "bounds or vars outside the blob");
    if (!m.bounds.empty()) {
      FUZZ_CHECK(m.boundsTrailing < m.bounds.size(), "no bounds before the trailing bytes");
      FUZZ_CHECK(gdmap::il::openBounds(m.bounds.first(m.bounds.size() - m.boundsTrailing), image->profile.bounds).ok(),
                 "accepted bounds that do not decode");
    }
  }
  FUZZ_CHECK(skipCold(next) == image->runtimeFunctions.size() || image->methods.empty(),
             "runtime functions after the last method are unclaimed");
  return 0;
}
