#include "file_io.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gdmap::cli {
namespace {

std::string systemError(const std::string& what, const std::string& path) {
  return path + ": " + what + ": " + std::strerror(errno);
}

Status writeAll(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error{0, systemError("cannot write", path)};
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return Success{};
}

std::string directoryOf(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

Expected<InputBytes> InputBytes::open(const std::string& path) {
  InputBytes input;
  if (path == "-") {
    input.name_ = "stdin";
    std::cin.sync_with_stdio(false);
    input.buffer_.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    if (std::cin.bad()) return Error{0, "stdin: cannot read"};
    return input;
  }
  input.name_ = path;
  auto mapped = MappedFile::open(path);
  if (!mapped) return mapped.error();
  input.mapped_.emplace(std::move(mapped).value());
  return input;
}

ByteSpan InputBytes::bytes() const {
  return mapped_ ? mapped_->bytes() : ByteSpan(buffer_);
}

std::string_view InputBytes::text() const {
  const ByteSpan b = bytes();
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

Status writeOutput(const std::string& path, std::string_view data, OutputKind kind) {
  if (path == "-") {
    if (kind == OutputKind::Binary && ::isatty(STDOUT_FILENO))
      return Error{0, "refusing to write a binary map to a terminal: use -o FILE or redirect stdout"};
    std::cout.write(data.data(), static_cast<std::streamsize>(data.size()));
    std::cout.flush();
    if (!std::cout) return Error{0, "stdout: cannot write"};
    return Success{};
  }
  // The temporary lives in the target's folder so rename() stays atomic.
  std::string temporary = directoryOf(path) + "/.gdmap-XXXXXX";
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) return Error{0, systemError("cannot create a temporary file", temporary)};
  Status written = writeAll(fd, data, path);
  if (written && ::fsync(fd) != 0) written = Error{0, systemError("cannot flush", path)};
  // mkstemp makes the file 0600; give it the mode a plain create would.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (written && ::fchmod(fd, 0666 & ~mask) != 0) written = Error{0, systemError("cannot set mode", path)};
  if (::close(fd) != 0 && written) written = Error{0, systemError("cannot close", path)};
  if (written && ::rename(temporary.c_str(), path.c_str()) != 0)
    written = Error{0, systemError("cannot rename the temporary file into place", path)};
  if (!written) ::unlink(temporary.c_str());
  return written;
}

}  // namespace gdmap::cli
