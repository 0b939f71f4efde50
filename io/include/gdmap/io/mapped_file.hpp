#pragma once
// A read-only memory mapping of a whole file, so maps of any size are read
// in place.
#include <gdmap/io/file_identity.hpp>
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <cstdint>
#include <string>

namespace gdmap {

// How the caller will read the file. Whole: every byte, so the mapping is
// filled in one go (MAP_POPULATE) instead of a page fault per page touched;
// Sparse: a few places (a lookup), so nothing is read ahead.
enum class FileAccess : std::uint8_t { Whole, Sparse };

class MappedFile {
 public:
  // Errors name the path and the system's reason. An empty file maps to an
  // empty span.
  static Expected<MappedFile> open(const std::string& path, FileAccess access = FileAccess::Whole);
  // The same for a descriptor already open (stdin), called `path` in
  // messages; it stays open (a mapping outlives its descriptor).
  static Expected<MappedFile> open(int fd, const std::string& path, FileAccess access = FileAccess::Whole);

  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  ByteSpan bytes() const { return {data_, size_}; }
  // The first `bytes` bytes will not be read again soon: their whole pages
  // leave the process's memory (a reader that streams through a file then
  // holds only what it has not read yet). Reading them again stays valid:
  // the pages come back from the file. Advisory: nothing happens where the
  // system cannot do it.
  void release(std::size_t bytes) const;
  // The file that was mapped, whatever path named it.
  const FileIdentity& identity() const { return identity_; }

 private:
  MappedFile(const std::uint8_t* data, std::size_t size, const FileIdentity& identity)
      : data_(data), size_(size), identity_(identity) {}
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  // What release() already gave back: not a property of the bytes, which
  // stay readable, so release() is const.
  mutable std::size_t released_ = 0;
  FileIdentity identity_;
};

}  // namespace gdmap
