#include <gdmap/process/process_memory.hpp>

#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>

namespace gdmap::process {
namespace {

// A process has at most vm.max_map_count mappings (65530 by default);
// a maps file claiming far more is not believed.
constexpr std::size_t kMaxRegions = 1u << 22;

std::optional<std::uint64_t> hexField(std::string_view text) {
  if (text.empty() || text.size() > 16) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : text) {
    unsigned digit = 0;
    if (c >= '0' && c <= '9') digit = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f') digit = static_cast<unsigned>(c - 'a' + 10);
    else return std::nullopt;
    value = value << 4 | digit;
  }
  return value;
}

// The next space-separated field of `line` from `pos`.
std::string_view field(std::string_view line, std::size_t& pos) {
  while (pos < line.size() && line[pos] == ' ') ++pos;
  const std::size_t start = pos;
  while (pos < line.size() && line[pos] != ' ') ++pos;
  return line.substr(start, pos - start);
}

std::string errnoText(int error) { return std::strerror(error); }

// What a refused read of another process means, and what to change.
std::string accessHint() {
  return "reading another process needs the ptrace permission: the same user with kernel.yama.ptrace_scope 0 "
         "(/proc/sys/kernel/yama/ptrace_scope), a parent reading its child, or CAP_SYS_PTRACE";
}

}  // namespace

std::optional<TargetRegion> parseMapsLine(std::string_view line) {
  std::size_t pos = 0;
  const std::string_view range = field(line, pos);
  const std::string_view perms = field(line, pos);
  const std::string_view offset = field(line, pos);
  const std::string_view device = field(line, pos);
  const std::string_view inode = field(line, pos);
  const std::size_t dash = range.find('-');
  if (dash == std::string_view::npos || perms.size() != 4 || device.empty() || inode.empty()) return std::nullopt;
  const std::optional<std::uint64_t> start = hexField(range.substr(0, dash));
  const std::optional<std::uint64_t> end = hexField(range.substr(dash + 1));
  const std::optional<std::uint64_t> fileOffset = hexField(offset);
  if (!start || !end || !fileOffset || *end <= *start) return std::nullopt;
  TargetRegion r;
  r.start = *start;
  r.end = *end;
  r.fileOffset = *fileOffset;
  r.readable = perms[0] == 'r';
  while (pos < line.size() && line[pos] == ' ') ++pos;
  r.path = std::string(line.substr(pos));
  return r;
}

Expected<ProcessMemory> ProcessMemory::open(pid_t pid) {
  ProcessMemory target(pid);
  const std::string maps = "/proc/" + std::to_string(pid) + "/maps";
  std::ifstream in(maps);
  if (!in) {
    const int error = errno;
    if (error == EACCES || error == EPERM) {
      return Error(0, target.describe() + ": cannot read " + maps + ": " + errnoText(error) + ": " + accessHint(),
                   rules::kTargetNoAccess);
    }
    return Error(0, target.describe() + ": cannot read " + maps + ": " + errnoText(error) + " (no such process?)",
                 rules::kTargetUnreadable);
  }
  for (std::string line; std::getline(in, line);) {
    if (target.regions_.size() == kMaxRegions) {
      return Error(0, target.describe() + ": more than " + std::to_string(kMaxRegions) + " mappings in " + maps,
                   rules::kTargetUnreadable);
    }
    if (std::optional<TargetRegion> r = parseMapsLine(line)) target.regions_.push_back(std::move(*r));
  }
  std::sort(target.regions_.begin(), target.regions_.end(),
            [](const TargetRegion& a, const TargetRegion& b) { return a.start < b.start; });
  // One byte of the first readable mapping says whether the process can be
  // read at all: a refusal names the permission, not an address.
  for (const TargetRegion& r : target.regions_) {
    if (!r.readable) continue;
    std::uint8_t byte = 0;
    if (Status probe = target.read(r.start, MutableByteSpan(&byte, 1)); !probe) {
      if (probe.error().rule == rules::kTargetNoAccess) return probe.error();
      continue;  // a mapping that cannot be read ([vvar]): try the next
    }
    break;
  }
  return target;
}

Status ProcessMemory::read(std::uint64_t address, MutableByteSpan out) const {
  if (out.empty()) return Success{};
  if (out.size() > ~std::uint64_t{0} - address) {
    return Error(static_cast<std::size_t>(address),
                 describe() + ": " + std::to_string(out.size()) + " bytes at " + shortHex(address) +
                     " run past the end of the address space",
                 rules::kTargetUnreadable);
  }
  iovec local{out.data(), out.size()};
  // The address is the other process's, never dereferenced here: the
  // kernel's interface takes it as a pointer.
  iovec remote{reinterpret_cast<void*>(static_cast<std::uintptr_t>(address)),  // NOLINT(performance-no-int-to-ptr)
               out.size()};
  const ssize_t got = process_vm_readv(pid_, &local, 1, &remote, 1, 0);
  if (got == static_cast<ssize_t>(out.size())) return Success{};
  const int error = errno;
  if (got < 0 && error == EPERM) {
    return Error(static_cast<std::size_t>(address), describe() + ": " + errnoText(error) + ": " + accessHint(),
                 rules::kTargetNoAccess);
  }
  // Refused calls (a seccomp filter, ENOSYS) and partial reads: /proc/PID/mem
  // says which byte stops it.
  const std::string memPath = "/proc/" + std::to_string(pid_) + "/mem";
  const int fd = ::open(memPath.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int openError = errno;
    return Error(static_cast<std::size_t>(address),
                 describe() + ": cannot open " + memPath + ": " + errnoText(openError) +
                     (openError == EACCES || openError == EPERM ? ": " + accessHint() : std::string()),
                 openError == EACCES || openError == EPERM ? rules::kTargetNoAccess : rules::kTargetUnreadable);
  }
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(address + done));
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (done == out.size()) return Success{};
  return Error(static_cast<std::size_t>(address + done),
               describe() + ": cannot read " + std::to_string(out.size() - done) + " bytes at " +
                   shortHex(address + done) + " (asked for " + std::to_string(out.size()) + " at " + shortHex(address) +
                   "): not mapped, or not readable",
               rules::kTargetUnreadable);
}

}  // namespace gdmap::process
