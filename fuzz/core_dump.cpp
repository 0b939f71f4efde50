// Fuzz target: the ELF core dump reader (coredump::CoreDump) on arbitrary
// bytes, seeded with small cores of the shape createdump writes (program
// headers, an NT_FILE note, PT_LOAD segments). It must never crash, hang
// or read outside the input, and:
// - an error is core-dump-invalid at an offset inside the file;
// - a dump that opens has disjoint segments in address order, each one's
//   file bytes inside the file, and regions matching the segments;
// - a read of each segment's first and last file byte succeeds and gives
//   the file's byte there, and a read of the byte after a segment that
//   leaves bytes out fails with target-not-in-dump at that address.
#include "fuzz_check.hpp"

#include <gdmap/coredump/core_dump.hpp>
#include <gdmap/schema/rules.hpp>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const gdmap::ByteSpan file = gdmap::fuzz::asBytes(data, size);
  const auto core = gdmap::coredump::CoreDump::open(file, "fuzz");
  if (!core) {
    const gdmap::Error& e = core.error();
    FUZZ_CHECK(e.rule == gdmap::rules::kCoreDumpInvalid, gdmap::fuzz::describeError(e));
    FUZZ_CHECK(e.offset <= size, gdmap::fuzz::describeError(e));
    return 0;
  }
  const auto& segments = core->segments();
  FUZZ_CHECK(core->regions().size() == segments.size(), "a region per segment");
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const gdmap::coredump::Segment& s = segments[i];
    FUZZ_CHECK(s.fileOffset <= size && s.fileSize <= size - s.fileOffset, "a segment's bytes outside the file");
    FUZZ_CHECK(s.fileSize <= s.memorySize && s.memorySize != 0, "a segment's sizes");
    FUZZ_CHECK(i == 0 || segments[i - 1].address + segments[i - 1].memorySize <= s.address, "segments overlap");
    FUZZ_CHECK(core->regions()[i].start == s.address && core->regions()[i].end == s.address + s.memorySize,
               "a region is not its segment");
    std::uint8_t byte = 0;
    if (s.fileSize != 0) {
      FUZZ_CHECK(core->read(s.address, gdmap::MutableByteSpan(&byte, 1)).ok(), "a segment's first byte");
      FUZZ_CHECK(byte == data[s.fileOffset], "the first byte is not the file's");
      FUZZ_CHECK(core->read(s.address + s.fileSize - 1, gdmap::MutableByteSpan(&byte, 1)).ok(), "the last byte");
      FUZZ_CHECK(byte == data[s.fileOffset + s.fileSize - 1], "the last byte is not the file's");
    }
    if (s.fileSize < s.memorySize) {
      const gdmap::Status left = core->read(s.address + s.fileSize, gdmap::MutableByteSpan(&byte, 1));
      FUZZ_CHECK(!left.ok() && left.error().rule == gdmap::rules::kTargetNotInDump &&
                     left.error().offset == s.address + s.fileSize,
                 "a byte the dump left out was read");
    }
  }
  return 0;
}
