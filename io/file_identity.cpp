#include <gdmap/io/file_identity.hpp>

#include <sys/stat.h>

namespace gdmap {

std::optional<FileIdentity> identityOf(int fd) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) return std::nullopt;
  return FileIdentity{static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino),
                      S_ISREG(info.st_mode)};
}

}  // namespace gdmap
