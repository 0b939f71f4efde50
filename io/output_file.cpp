#include <gdmap/io/output_file.hpp>

#include "output_temporary.hpp"

#include <gdmap/schema/rules.hpp>

#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gdmap {
namespace {

// As the kernel's own limit on symlinks in one path (Linux: 40).
constexpr int kMaxSymlinkHops = 40;

Error outputError(const std::string& name, const std::string& what, int error) {
  return Error{0, name + ": " + what + ": " + std::strerror(error), rules::kOutputUnwritable};
}

std::string directoryOf(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The path a symlink at `link` points to, relative links taken from the
// link's own folder.
Expected<std::string> readLink(const std::string& link, const std::string& name) {
  std::string buffer(256, '\0');
  for (;;) {
    const ssize_t n = ::readlink(link.c_str(), buffer.data(), buffer.size());
    if (n < 0) return outputError(name, "cannot read the symlink", errno);
    if (static_cast<std::size_t>(n) < buffer.size()) {
      buffer.resize(static_cast<std::size_t>(n));
      break;
    }
    buffer.resize(buffer.size() * 2);
  }
  if (!buffer.empty() && buffer.front() == '/') return buffer;
  return directoryOf(link) + "/" + buffer;
}

Status writeAll(int fd, std::string_view data, const std::string& name) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return outputError(name, "cannot write", errno);
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return Success{};
}

bool isInput(const struct stat& info, const std::vector<FileIdentity>& inputs) {
  const FileIdentity target{static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino), true};
  for (const FileIdentity& input : inputs)
    if (input == target) return true;
  return false;
}

// A copy of the open descriptor `path` names (/dev/stdout, /dev/stderr,
// /dev/fd/N, /proc/self/fd/N), when it is the file the path reaches; -1
// (errno 0 or the system's) otherwise.
int duplicateNamedDescriptor(const std::string& path) {
  int named = -1;
  if (path == "/dev/stdout") named = STDOUT_FILENO;
  if (path == "/dev/stderr") named = STDERR_FILENO;
  for (const std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (path.size() <= prefix.size() || path.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = path.substr(prefix.size());
    if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) break;
    named = std::stoi(digits);
  }
  struct stat reached {};
  struct stat open {};
  if (named < 0 || ::stat(path.c_str(), &reached) != 0 || ::fstat(named, &open) != 0 || reached.st_dev != open.st_dev ||
      reached.st_ino != open.st_ino) {
    errno = 0;
    return -1;
  }
  return ::fcntl(named, F_DUPFD_CLOEXEC, 0);
}

Error isInputError(const std::string& name) {
  return Error{0, name + ": is the input file; refusing to overwrite it (write elsewhere, then rename)",
               rules::kOutputIsInput};
}

}  // namespace

Expected<OutputFile> OutputFile::resolve(const std::string& path, const std::vector<FileIdentity>& inputs) {
  OutputFile out;
  out.path_ = path;
  out.target_ = path;
  out.inputs_ = inputs;
  if (path.empty()) return Error{0, "the output path is empty", rules::kOutputUnwritable};
  // What the kernel finds at the end of the path first: a pipe is named by
  // links that cannot be followed by hand (/dev/stdout, /dev/fd/63,
  // /proc/self/fd/1 point to "pipe:[1234]"), and a FIFO, pipe, socket or
  // device is written in place through the path as given, whatever names it.
  if (struct stat reached{};
      ::stat(path.c_str(), &reached) == 0 && !S_ISREG(reached.st_mode) && !S_ISDIR(reached.st_mode)) {
    out.kind_ = Kind::Special;
    return out;
  }
  for (int hops = 0;; ++hops) {
    struct stat info {};
    if (::lstat(out.target_.c_str(), &info) != 0) {
      // A path that does not exist (or a dangling link's target) is created,
      // as a shell's `>` would; a missing folder fails when it is written.
      if (errno == ENOENT) {
        out.kind_ = Kind::Missing;
        return out;
      }
      return outputError(out.name(), "cannot look at the output", errno);
    }
    if (S_ISLNK(info.st_mode)) {
      if (hops == kMaxSymlinkHops) return outputError(out.name(), "cannot follow the symlink", ELOOP);
      auto next = readLink(out.target_, out.name());
      if (!next) return next.error();
      out.target_ = std::move(next).value();
      continue;
    }
    if (S_ISDIR(info.st_mode)) return outputError(out.name(), "cannot write", EISDIR);
    if (S_ISREG(info.st_mode)) {
      if (isInput(info, inputs)) return isInputError(out.name());
      out.kind_ = Kind::Regular;
    } else {
      out.kind_ = Kind::Special;
    }
    return out;
  }
}

std::string OutputFile::name() const {
  if (target_ == path_) return path_;
  return path_ + " (a symlink to " + target_ + ")";
}

Status OutputFile::write(std::string_view data, const OutputOptions& options) const {
  return write([data](const OutputEmit& emit) { return emit(data); }, options);
}

Status OutputFile::write(const OutputProducer& produce, const OutputOptions& options) const {
  if (kind_ == Kind::Special) return writeInPlace(produce, options);
  return replace(produce, options.lastStep);
}

Status OutputFile::writeInPlace(const OutputProducer& produce, const OutputOptions& options) const {
  int fd = -1;
  do {
    // No O_CREAT, no O_TRUNC: a device or FIFO is written as it is, never
    // made into a file; O_NOCTTY: a terminal does not become ours.
    fd = ::open(target_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  // A socket cannot be opened by a path (ENXIO), even /dev/stdout's when
  // stdout is one: the descriptor the path names is written instead.
  if (fd < 0 && errno == ENXIO) fd = duplicateNamedDescriptor(target_);
  if (fd < 0) return outputError(name(), "cannot open for writing", errno == 0 ? ENXIO : errno);
  Status written = Success{};
  if (options.refuseTerminal && ::isatty(fd)) {
    written = Error{0, name() + ": refusing to write a binary map to a terminal", rules::kBinaryToTerminal};
  } else {
    try {
      written = produce([&](std::string_view chunk) { return writeAll(fd, chunk, name()); });
    } catch (...) {
      ::close(fd);
      throw;
    }
  }
  if (::close(fd) != 0 && written) written = outputError(name(), "cannot close", errno);
  return written;
}

Status OutputFile::replace(const OutputProducer& produce, bool lastStep) const {
  // Look again: the target may have appeared or changed since resolve().
  struct stat existing {};
  const bool exists = ::stat(target_.c_str(), &existing) == 0;
  if (exists) {
    if (!S_ISREG(existing.st_mode)) return outputError(name(), "cannot write", EEXIST);
    if (isInput(existing, inputs_)) return isInputError(name());
    // A file the user cannot write is not replaced behind its back, as a
    // shell's `>` would refuse it too.
    if (::access(target_.c_str(), W_OK) != 0) return outputError(name(), "cannot write", errno);
  }

  // The temporary lives in the target's folder so that rename() is atomic;
  // nothing is left of it whatever ends the command (output_temporary.hpp).
  Expected<OutputTemporary> temporary = OutputTemporary::create(directoryOf(target_), name());
  if (!temporary) return temporary.error();
  const int fd = temporary->fd();
  // A producer that throws (std::bad_alloc, reported at the top) leaves no
  // temporary behind either: its destructor removes it.
  Status written = produce([&](std::string_view chunk) { return writeAll(fd, chunk, name()); });
  if (written && ::fsync(fd) != 0) written = outputError(name(), "cannot flush", errno);
  // Keep the mode (and, where allowed, the owner) of the file being
  // replaced, or give a new file the mode a plain create would.
  mode_t mode = 0;
  if (exists) {
    mode = existing.st_mode & 07777;
    if (::fchown(fd, existing.st_uid, existing.st_gid) != 0) {
      // Not the owner's to give away (not root): the new file is ours.
    }
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (written && ::fchmod(fd, mode) != 0) written = outputError(name(), "cannot set the mode", errno);
  if (!written) return written;
  return temporary->commit(target_, lastStep);
}

}  // namespace gdmap
