#include <gdmap/io/mapped_file.hpp>

#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gdmap {
namespace {

Error systemError(const std::string& path, const char* what, int error) {
  return Error{0, path + ": " + what + ": " + std::strerror(error), rules::kInputUnreadable};
}

// Closes the descriptor on every path out of open(); the mapping outlives it.
struct FileDescriptor {
  int fd = -1;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

Expected<MappedFile> MappedFile::open(const std::string& path, FileAccess access) {
  FileDescriptor file;
  do {
    file.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (file.fd < 0 && errno == EINTR);
  if (file.fd < 0) return systemError(path, "cannot open", errno);
  return open(file.fd, path, access);
}

Expected<MappedFile> MappedFile::open(int fd, const std::string& path, FileAccess access) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) return systemError(path, "cannot stat", errno);
  if (S_ISDIR(info.st_mode)) return systemError(path, "cannot map", EISDIR);
  if (!S_ISREG(info.st_mode)) {
    return Error{0, path + ": cannot map: not a regular file (use a file, not a pipe or device)",
                 rules::kInputUnreadable};
  }
  const FileIdentity identity{static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino), true};
  if (info.st_size == 0) return MappedFile(nullptr, 0, identity);  // mmap of 0 bytes is an error

  const auto size = static_cast<std::size_t>(info.st_size);
#if defined(MAP_POPULATE)
  const int populate = access == FileAccess::Whole ? MAP_POPULATE : 0;
#else
  const int populate = 0;
  (void)access;
#endif
  void* data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | populate, fd, 0);
  if (data == MAP_FAILED) return systemError(path, "cannot map", errno);
  return MappedFile(static_cast<const std::uint8_t*>(data), size, identity);
}

void MappedFile::release(std::size_t bytes) const {
#if defined(MADV_DONTNEED)
  const long page = ::sysconf(_SC_PAGESIZE);
  if (page <= 0 || data_ == nullptr) return;
  const std::size_t whole = std::min(bytes, size_) / static_cast<std::size_t>(page) * static_cast<std::size_t>(page);
  if (whole <= released_) return;
  // The mapping is private and never written: dropped pages are read from
  // the file again if touched, so this cannot change what bytes() holds.
  ::madvise(const_cast<std::uint8_t*>(data_) + released_, whole - released_, MADV_DONTNEED);
  released_ = whole;
#else
  (void)bytes;
#endif
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      released_(std::exchange(other.released_, 0)),
      identity_(other.identity_) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), size_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    released_ = std::exchange(other.released_, 0);
    identity_ = other.identity_;
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), size_);
}

}  // namespace gdmap
