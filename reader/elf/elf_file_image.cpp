#include <gdmap/reader/elf_file_image.hpp>

#include "elf_format.hpp"

#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>

namespace gdmap::elf {
namespace {

constexpr std::uint32_t kRelativeX64 = 8;         // R_X86_64_RELATIVE
constexpr std::uint32_t kRelativeAarch64 = 1027;  // R_AARCH64_RELATIVE
constexpr std::uint64_t kRelaSize = 24;           // Elf64_Rela
constexpr std::uint64_t kMaxRelocations = 1u << 24;
constexpr std::uint32_t kNtGnuBuildId = 3;

Error invalid(std::uint64_t at, const std::string& path, const std::string& message) {
  return Error(static_cast<std::size_t>(at), path + ": " + message, rules::kElfInvalid);
}

// The GNU build ID among the notes at [at, at + size), read through `read`.
std::optional<std::vector<std::uint8_t>> buildIdIn(const ReadElfBytes& read, std::uint64_t at, std::uint64_t size) {
  std::vector<std::uint8_t> notes(static_cast<std::size_t>(std::min<std::uint64_t>(size, 1u << 16)));
  if (!read(at, notes)) return std::nullopt;
  ByteCursor n{ByteSpan(notes)};
  while (n.remaining() >= 12) {
    const std::uint32_t nameSize = n.u32();
    const std::uint32_t descSize = n.u32();
    const std::uint32_t type = n.u32();
    const std::uint64_t namePadded = (std::uint64_t{nameSize} + 3) & ~std::uint64_t{3};
    const std::uint64_t descPadded = (std::uint64_t{descSize} + 3) & ~std::uint64_t{3};
    if (namePadded + descPadded > n.remaining()) return std::nullopt;
    const std::size_t nameAt = n.offset();
    n.skip(static_cast<std::size_t>(namePadded));
    if (type == kNtGnuBuildId && nameSize == 4 && std::memcmp(notes.data() + nameAt, "GNU", 4) == 0) {
      return std::vector<std::uint8_t>(notes.begin() + static_cast<std::ptrdiff_t>(n.offset()),
                                       notes.begin() + static_cast<std::ptrdiff_t>(n.offset() + descSize));
    }
    n.skip(static_cast<std::size_t>(descPadded));
  }
  return std::nullopt;
}

// The GNU build ID of the object `read` gives (a module mapped in a
// target: its notes by address; a file: by offset), or nothing. No error:
// a module without one has nothing to compare.
std::optional<std::vector<std::uint8_t>> buildId(const ReadElfBytes& read, bool notesByAddress) {
  const Expected<std::vector<ProgramHeader>> headers = readProgramHeaders(read, 0);
  if (!headers) return std::nullopt;
  for (const ProgramHeader& ph : *headers) {
    if (ph.type != kPtNote) continue;
    if (auto id = buildIdIn(read, notesByAddress ? ph.vaddr : ph.offset, ph.fileSize)) return id;
  }
  return std::nullopt;
}

// A file's bytes as an ELF reader asks for them.
ReadElfBytes fileReader(ByteSpan file) {
  return [file](std::uint64_t at, MutableByteSpan out) -> Status {
    if (at > file.size() || out.size() > file.size() - at) {
      return Error(static_cast<std::size_t>(at),
                   std::to_string(out.size()) + " bytes at " + shortHex(at) + " run past the file", rules::kElfInvalid);
    }
    std::memcpy(out.data(), file.data() + at, out.size());
    return Success{};
  };
}

}  // namespace

Expected<FileImage> FileImage::open(ByteSpan file, std::uint64_t loadBase, std::string path) {
  FileImage image;
  image.file_ = file;
  image.base_ = loadBase;
  image.path_ = std::move(path);
  Expected<std::vector<ProgramHeader>> headers = readProgramHeaders(fileReader(file), 0);
  if (!headers) return invalid(headers.error().offset, image.path_, headers.error().message);
  std::optional<ProgramHeader> dynamic;
  for (const ProgramHeader& ph : *headers) {
    if (ph.type == kPtDynamic) dynamic = ph;
    if (ph.type != kPtLoad) continue;
    if (ph.offset > file.size() || ph.fileSize > file.size() - ph.offset || ph.fileSize > ph.memorySize ||
        ph.vaddr + ph.memorySize < ph.vaddr) {
      return invalid(0, image.path_, "a PT_LOAD segment at file offset " + shortHex(ph.offset) + " runs past the file");
    }
    image.segments_.push_back({ph.vaddr, ph.offset, ph.fileSize, ph.memorySize});
    image.regions_.push_back({loadBase + ph.vaddr, loadBase + ph.vaddr + ph.memorySize, ph.offset, image.path_, true});
  }
  std::sort(image.segments_.begin(), image.segments_.end(),
            [](const Segment& a, const Segment& b) { return a.vaddr < b.vaddr; });
  std::sort(image.regions_.begin(), image.regions_.end(),
            [](const TargetRegion& a, const TargetRegion& b) { return a.start < b.start; });
  if (!dynamic) return image;
  // DT_RELA's relative relocations: the pointers the loader fills in.
  const auto fileOffsetOf = [&](std::uint64_t vaddr) -> std::optional<std::uint64_t> {
    for (const Segment& s : image.segments_) {
      if (vaddr >= s.vaddr && vaddr - s.vaddr < s.fileSize) return s.fileOffset + (vaddr - s.vaddr);
    }
    return std::nullopt;
  };
  if (dynamic->offset > file.size() || dynamic->fileSize > file.size() - dynamic->offset) {
    return invalid(dynamic->offset, image.path_, "PT_DYNAMIC runs past the file");
  }
  ByteCursor d{file.subspan(static_cast<std::size_t>(dynamic->offset), static_cast<std::size_t>(dynamic->fileSize))};
  std::uint64_t rela = 0, relaSize = 0, relaEntry = kRelaSize;
  while (d.remaining() >= kDynamicEntrySize) {
    const auto tag = static_cast<std::int64_t>(d.u64());
    const std::uint64_t value = d.u64();
    if (tag == 0) break;
    if (tag == kDtRela) rela = value;
    if (tag == kDtRelaSize) relaSize = value;
    if (tag == kDtRelaEntry) relaEntry = value;
  }
  if (rela == 0 || relaSize == 0) return image;
  const std::optional<std::uint64_t> at = fileOffsetOf(rela);
  if (!at || relaEntry < kRelaSize || relaSize / relaEntry > kMaxRelocations || relaSize > file.size() - *at) {
    return invalid(dynamic->offset, image.path_,
                   "DT_RELA (" + shortHex(rela) + ", " + std::to_string(relaSize) + " bytes) is not inside the file");
  }
  for (std::uint64_t r = 0; r + relaEntry <= relaSize; r += relaEntry) {
    ByteCursor e{file.subspan(static_cast<std::size_t>(*at + r), kRelaSize)};
    const std::uint64_t offset = e.u64();
    const std::uint64_t info = e.u64();
    const std::uint64_t addend = e.u64();
    const auto type = static_cast<std::uint32_t>(info & 0xFFFFFFFFu);
    if (type == kRelativeX64 || type == kRelativeAarch64) image.relocations_.push_back({offset, addend});
  }
  std::sort(image.relocations_.begin(), image.relocations_.end(),
            [](const Relocation& a, const Relocation& b) { return a.offset < b.offset; });
  return image;
}

Status FileImage::read(std::uint64_t address, MutableByteSpan out) const {
  std::size_t done = 0;
  while (done < out.size()) {
    const std::uint64_t at = address + done;
    const Segment* segment = nullptr;
    if (at >= base_) {
      for (const Segment& s : segments_) {
        if (at - base_ >= s.vaddr && at - base_ - s.vaddr < s.memorySize) segment = &s;
      }
    }
    if (!segment) {
      return Error(static_cast<std::size_t>(at), path_ + ": " + shortHex(at) + " is in none of its loaded segments",
                   rules::kTargetUnreadable);
    }
    const std::uint64_t in = at - base_ - segment->vaddr;
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(out.size() - done, segment->memorySize - in));
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t k = in + i;
      out[done + i] = k < segment->fileSize ? file_[static_cast<std::size_t>(segment->fileOffset + k)] : 0;
    }
    done += n;
  }
  // The relocated pointers overlapping the bytes read.
  const std::uint64_t first = address - base_;
  const std::uint64_t from = first >= 7 ? first - 7 : 0;
  auto it = std::lower_bound(relocations_.begin(), relocations_.end(), from,
                             [](const Relocation& r, std::uint64_t v) { return r.offset < v; });
  for (; it != relocations_.end() && it->offset < first + out.size(); ++it) {
    const std::uint64_t value = base_ + it->addend;
    for (unsigned b = 0; b < 8; ++b) {
      const std::uint64_t k = it->offset + b;
      if (k >= first && k < first + out.size())
        out[static_cast<std::size_t>(k - first)] = static_cast<std::uint8_t>(value >> (8 * b));
    }
  }
  return Success{};
}

bool sameBuild(const TargetMemory& target, std::uint64_t base, ByteSpan file) {
  const ReadElfBytes readTarget = [&](std::uint64_t at, MutableByteSpan out) { return target.read(base + at, out); };
  const std::optional<std::vector<std::uint8_t>> running = buildId(readTarget, true);
  const std::optional<std::vector<std::uint8_t>> onDisk = buildId(fileReader(file), false);
  return running && onDisk && !running->empty() && *running == *onDisk;
}

}  // namespace gdmap::elf
