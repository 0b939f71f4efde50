#pragma once
// An ELF shared object's file as the dynamic loader maps it: each PT_LOAD
// segment at load base + p_vaddr (bytes past p_filesz read as zero), and
// its relative relocations (R_X86_64_RELATIVE, R_AARCH64_RELATIVE in
// DT_RELA) applied as they are read, so that a pointer the loader would
// have written reads as the loader wrote it. What a core dump leaves out
// of a library's data (.NET 10's createdump omits the runtime's contract
// descriptor) can then be read from the file, when the file is the one
// that ran (sameBuild).
//
// Nothing in the file is trusted: headers and tables are bounds-checked
// against the file, counts against limits (elf-invalid at the file
// offset).
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/target_memory.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace gdmap::elf {

class FileImage final : public TargetMemory {
 public:
  // `file` must outlive the image.
  static Expected<FileImage> open(ByteSpan file, std::uint64_t loadBase, std::string path);

  Status read(std::uint64_t address, MutableByteSpan out) const override;
  const std::vector<TargetRegion>& regions() const override { return regions_; }
  std::string describe() const override { return path_; }

  std::uint64_t loadBase() const { return base_; }
  std::size_t relocationCount() const { return relocations_.size(); }

 private:
  struct Segment {
    std::uint64_t vaddr, fileOffset, fileSize, memorySize;
  };
  struct Relocation {
    std::uint64_t offset;  // link-time address of the 8 bytes written
    std::uint64_t addend;
  };
  ByteSpan file_;
  std::uint64_t base_ = 0;
  std::string path_;
  std::vector<Segment> segments_;
  std::vector<Relocation> relocations_;  // sorted by offset
  std::vector<TargetRegion> regions_;
};

// Whether the module mapped at `base` in `target` was built from the same
// bytes as `file`: their GNU build IDs (NT_GNU_BUILD_ID, in a PT_NOTE of the
// first page) are equal. False when either has none or it cannot be read.
bool sameBuild(const TargetMemory& target, std::uint64_t base, ByteSpan file);

}  // namespace gdmap::elf
