#pragma once
// An ELF core dump of a Linux process (what createdump, `dotnet-dump
// collect` and the kernel write) as the process's memory: its PT_LOAD
// segments, and from the NT_FILE note which file each mapped range is.
// Zero-copy over the caller's bytes (the file, mapped), which must outlive
// it.
//
// Nothing in the file is trusted: the header, every program header and
// note is checked against the file's size before use (core-dump-invalid,
// at the byte offset of the field), segments must not overlap, and a read
// of an address no segment holds (or a segment's part the dump left out,
// p_memsz past p_filesz) is target-not-in-dump at that address. Linear in
// the headers; no allocation a count in the file could make huge.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/target_memory.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace gdmap::coredump {

// One PT_LOAD segment: target addresses [address, address + memorySize),
// the first fileSize of them at fileOffset in the dump.
struct Segment {
  std::uint64_t address = 0;
  std::uint64_t memorySize = 0;
  std::uint64_t fileOffset = 0;
  std::uint64_t fileSize = 0;
};

class CoreDump final : public TargetMemory {
 public:
  // `file` is the dump's bytes; `name` what messages call it. x86-64 and
  // AArch64 cores, 64-bit little-endian (the machines .NET runs on Linux).
  static Expected<CoreDump> open(ByteSpan file, std::string name);

  Status read(std::uint64_t address, MutableByteSpan out) const override;
  // Every PT_LOAD segment, with the path and file offset NT_FILE gives the
  // mapped files' ranges (anonymous memory has no path).
  const std::vector<TargetRegion>& regions() const override { return regions_; }
  std::string describe() const override { return name_; }

  const std::vector<Segment>& segments() const { return segments_; }
  std::uint16_t machine() const { return machine_; }  // e_machine: 62 x86-64, 183 AArch64

 private:
  CoreDump() = default;
  ByteSpan file_;
  std::string name_;
  std::uint16_t machine_ = 0;
  std::vector<Segment> segments_;  // ascending by address, disjoint
  std::vector<TargetRegion> regions_;
};

}  // namespace gdmap::coredump
