#pragma once
// Which file an open input is (device and inode), so that an output can be
// refused when it would write over the input it is made from, whatever path
// names it (a hard link, "./x", a symlink).
#include <cstdint>
#include <optional>

namespace gdmap {

struct FileIdentity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  bool regularFile = false;  // only a regular file can be destroyed by an output

  friend bool operator==(const FileIdentity& a, const FileIdentity& b) {
    return a.device == b.device && a.inode == b.inode;
  }
};

// The identity of an open descriptor (stdin's included); nullopt when fstat
// fails.
std::optional<FileIdentity> identityOf(int fd);

}  // namespace gdmap
