#pragma once
// The memory of a live process, by pid (Linux): its mapped ranges from
// /proc/PID/maps and their bytes through process_vm_readv, or /proc/PID/mem
// where that call is refused. Reading another process needs the ptrace
// permission (the same user and kernel.yama.ptrace_scope 0, a parent reading
// its child, or CAP_SYS_PTRACE): without it open() fails with
// target-no-access, naming what to change. The process is not stopped:
// what it writes while it is read may be seen half-written.
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/target_memory.hpp>

#include <sys/types.h>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::process {

class ProcessMemory final : public TargetMemory {
 public:
  // Reads the process's maps and checks that its memory can be read. Errors:
  // target-unreadable (no such process, maps unreadable), target-no-access
  // (no ptrace permission), each naming the pid; offset 0.
  static Expected<ProcessMemory> open(pid_t pid);

  Status read(std::uint64_t address, MutableByteSpan out) const override;
  const std::vector<TargetRegion>& regions() const override { return regions_; }
  std::string describe() const override { return "process " + std::to_string(pid_); }
  pid_t pid() const { return pid_; }

 private:
  explicit ProcessMemory(pid_t pid) : pid_(pid) {}
  pid_t pid_;
  std::vector<TargetRegion> regions_;
};

// One line of /proc/PID/maps ("7f12a000-7f12c000 r-xp 00002000 08:01 1234
// /usr/lib/libc.so.6"), or nothing for a line that is not one. Exposed for
// tests: the kernel's format, parsed strictly.
std::optional<TargetRegion> parseMapsLine(std::string_view line);

}  // namespace gdmap::process
