#pragma once
// The address space of another program, as the readers of a running .NET
// runtime's data see it: a live process, a core dump of one, or whatever a
// caller (a profiler with its own view of the process) can read. Every
// source answers the same two questions, so that one reader of the
// runtime's structures works on all of them.
//
// Nothing read is trusted: a read names the target address it wanted, and
// a range the target does not hold (unmapped, not in the dump, not
// permitted) is an error at that address, never a crash or a guess.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gdmap {

// A mapped range of the target and the file it maps, when it maps one
// (a process's /proc/PID/maps line, a core dump's NT_FILE entry).
struct TargetRegion {
  std::uint64_t start = 0;
  std::uint64_t end = 0;         // past the last byte
  std::uint64_t fileOffset = 0;  // of `start` in `path`
  std::string path;              // empty: anonymous memory
  bool readable = true;
  friend bool operator==(const TargetRegion&, const TargetRegion&) = default;
};

class TargetMemory {
 public:
  virtual ~TargetMemory() = default;
  // Fills `out` with the out.size() bytes at `address`, or fails: a read
  // succeeds whole or not at all (after a failure `out` may hold some of
  // the bytes, and promises nothing). The error's offset is the first target address that could not be read
  // (rules target-unreadable, target-not-in-dump; docs/errors.md), its
  // message what stopped it.
  virtual Status read(std::uint64_t address, MutableByteSpan out) const = 0;
  // The target's mapped ranges, ascending (empty when the source cannot
  // tell: a caller's callback).
  virtual const std::vector<TargetRegion>& regions() const = 0;
  // What the target is, for messages: "process 1234", "core.1234".
  virtual std::string describe() const = 0;
};

// A target read through a caller's function: (address, out) -> bytes read
// (out.size() for success). A short read is target-unreadable at the
// first byte not read. `regions`, when the caller knows them (a profiler's
// module list), name the mapped files: what finds a module in it.
class CallbackMemory final : public TargetMemory {
 public:
  using Reader = std::function<std::size_t(std::uint64_t address, MutableByteSpan out)>;
  CallbackMemory(Reader reader, std::string name, std::vector<TargetRegion> regions = {})
      : reader_(std::move(reader)), name_(std::move(name)), regions_(std::move(regions)) {}
  Status read(std::uint64_t address, MutableByteSpan out) const override;
  const std::vector<TargetRegion>& regions() const override { return regions_; }
  std::string describe() const override { return name_; }

 private:
  Reader reader_;
  std::string name_;
  std::vector<TargetRegion> regions_;
};

// A target read from `first`, and where it lacks bytes, from `second`: a
// core dump (first) whose file-backed pages were left out, and the file
// those pages map (second, e.g. elf::FileImage). A read wholly inside one
// of second's regions that first cannot answer is answered by second; any
// other failure is first's. Both must outlive it.
class LayeredMemory final : public TargetMemory {
 public:
  LayeredMemory(const TargetMemory& first, const TargetMemory& second) : first_(&first), second_(&second) {}
  Status read(std::uint64_t address, MutableByteSpan out) const override;
  const std::vector<TargetRegion>& regions() const override { return first_->regions(); }
  std::string describe() const override { return first_->describe(); }

 private:
  const TargetMemory* first_;
  const TargetMemory* second_;
};

// The u8/u16/u32/u64 (little-endian) at `address`: `width` 1, 2, 4 or 8.
Expected<std::uint64_t> readTargetUnsigned(const TargetMemory& target, std::uint64_t address, unsigned width);

}  // namespace gdmap
