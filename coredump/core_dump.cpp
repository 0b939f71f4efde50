#include <gdmap/coredump/core_dump.hpp>

#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <cstring>

namespace gdmap::coredump {
namespace {

// ELF (the System V gABI): the fields a core's reader needs.
constexpr std::size_t kElfHeaderSize = 64;      // Elf64_Ehdr
constexpr std::size_t kProgramHeaderSize = 56;  // Elf64_Phdr
constexpr std::uint16_t kCoreType = 4;          // ET_CORE
constexpr std::uint32_t kPtLoad = 1;
constexpr std::uint32_t kPtNote = 4;
constexpr std::uint16_t kManyHeaders = 0xFFFF;  // PN_XNUM: the count is in section 0's sh_info
constexpr std::uint32_t kNtFile = 0x46494C45;   // "FILE": the mapped files
constexpr std::uint16_t kMachineX64 = 62;
constexpr std::uint16_t kMachineArm64 = 183;

Error invalid(std::uint64_t at, const std::string& name, const std::string& message) {
  return Error(static_cast<std::size_t>(at), name + ": " + message, rules::kCoreDumpInvalid);
}

// [offset, offset + size) inside a file of `fileSize` bytes, without overflow.
bool inside(std::uint64_t offset, std::uint64_t size, std::uint64_t fileSize) {
  return offset <= fileSize && size <= fileSize - offset;
}

// NT_FILE (linux/fs/binfmt_elf.c): count, page size, then count entries
// {start, end, file offset in pages}, then count NUL-terminated paths.
Status readMappedFiles(ByteSpan desc, std::uint64_t descAt, const std::string& name, std::vector<TargetRegion>& files) {
  ByteCursor in(desc, static_cast<std::size_t>(descAt));
  const std::uint64_t count = in.u64();
  const std::uint64_t pageSize = in.u64();
  if (!in.ok()) return invalid(descAt, name, "NT_FILE note of " + std::to_string(desc.size()) + " bytes is cut short");
  // Each entry takes 24 bytes and a path at least one: the count is bounded
  // by the note's size before anything is reserved.
  if (count > (desc.size() - 16) / 25) {
    return invalid(descAt, name,
                   "NT_FILE names " + std::to_string(count) + " files, more than its " + std::to_string(desc.size()) +
                       " bytes hold");
  }
  if (pageSize == 0 || pageSize > (1u << 30)) {
    return invalid(descAt + 8, name, "NT_FILE page size " + std::to_string(pageSize));
  }
  files.resize(static_cast<std::size_t>(count));
  for (TargetRegion& f : files) {
    const std::uint64_t entryAt = in.offset();
    f.start = in.u64();
    f.end = in.u64();
    const std::uint64_t pages = in.u64();
    if (pages > ~std::uint64_t{0} / pageSize) {
      return invalid(entryAt + 16, name, "NT_FILE: a file offset of " + std::to_string(pages) + " pages overflows");
    }
    f.fileOffset = pages * pageSize;
  }
  std::size_t at = 16 + static_cast<std::size_t>(count) * 24;
  for (TargetRegion& f : files) {
    const void* nul = at < desc.size() ? std::memchr(desc.data() + at, 0, desc.size() - at) : nullptr;
    if (nul == nullptr) return invalid(descAt + at, name, "NT_FILE: a path runs past the end of the note");
    const std::size_t end = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nul) - desc.data());
    f.path.assign(reinterpret_cast<const char*>(desc.data() + at), end - at);
    at = end + 1;
  }
  return Success{};
}

// The notes of one PT_NOTE segment: {namesz, descsz, type}, the name and
// the descriptor, each padded to 4 bytes.
Status readNotes(ByteSpan notes, std::uint64_t notesAt, const std::string& name, std::vector<TargetRegion>& files) {
  std::size_t at = 0;
  while (notes.size() - at >= 12) {
    ByteCursor in(notes.subspan(at), static_cast<std::size_t>(notesAt + at));
    const std::uint32_t nameSize = in.u32();
    const std::uint32_t descSize = in.u32();
    const std::uint32_t type = in.u32();
    const std::uint64_t nameEnd = 12 + ((std::uint64_t{nameSize} + 3) & ~std::uint64_t{3});
    const std::uint64_t descEnd = nameEnd + ((std::uint64_t{descSize} + 3) & ~std::uint64_t{3});
    if (nameEnd > notes.size() - at || std::uint64_t{descSize} > notes.size() - at - nameEnd) {
      return invalid(notesAt + at, name,
                     "note of type " + shortHex(type) + " (" + std::to_string(nameSize) + "-byte name, " +
                         std::to_string(descSize) + "-byte descriptor) runs past the end of its PT_NOTE segment");
    }
    const bool core = nameSize == 5 && std::memcmp(notes.data() + at + 12, "CORE", 5) == 0;
    if (core && type == kNtFile) {
      if (Status s = readMappedFiles(notes.subspan(at + static_cast<std::size_t>(nameEnd), descSize),
                                     notesAt + at + nameEnd, name, files);
          !s)
        return s;
    }
    at += static_cast<std::size_t>(std::min<std::uint64_t>(descEnd, notes.size() - at));
  }
  return Success{};
}

// Where the program headers are and how many (ELF header, PN_XNUM).
struct ProgramHeaders {
  std::uint64_t at = 0;
  std::uint64_t count = 0;
};

Expected<ProgramHeaders> readElfHeader(ByteSpan file, const std::string& n, std::uint16_t& machine) {
  if (file.size() < kElfHeaderSize || std::memcmp(file.data(),
                                                  "\x7f"
                                                  "ELF",
                                                  4) != 0) {
    return invalid(0, n, "not an ELF file (no \\x7fELF signature)");
  }
  if (file[4] != 2 || file[5] != 1) return invalid(4, n, "not a 64-bit little-endian ELF file");
  ByteCursor header(file.first(kElfHeaderSize), 0);
  header.seek(16);
  const std::uint16_t type = header.u16();
  machine = header.u16();
  if (type != kCoreType) return invalid(16, n, "ELF type " + std::to_string(type) + " is not a core dump (4)");
  if (machine != kMachineX64 && machine != kMachineArm64) {
    return invalid(18, n, "machine " + std::to_string(machine) + " is neither x86-64 (62) nor AArch64 (183)");
  }
  header.seek(32);
  ProgramHeaders headers;
  headers.at = header.u64();
  const std::uint64_t sectionHeaders = header.u64();
  header.seek(54);
  const std::uint16_t entrySize = header.u16();
  headers.count = header.u16();
  if (entrySize != kProgramHeaderSize) {
    return invalid(54, n, "program headers of " + std::to_string(entrySize) + " bytes, not 56");
  }
  if (headers.count == kManyHeaders) {
    // More than 65534 segments: the count is section header 0's sh_info.
    if (!inside(sectionHeaders, 64, file.size())) {
      return invalid(40, n, "e_phnum is PN_XNUM but section header 0 is not in the file");
    }
    ByteCursor section(file.subspan(static_cast<std::size_t>(sectionHeaders), 64),
                       static_cast<std::size_t>(sectionHeaders));
    section.seek(44);
    headers.count = section.u32();
  }
  if (!inside(headers.at, headers.count * kProgramHeaderSize, file.size())) {
    return invalid(32, n,
                   std::to_string(headers.count) + " program headers at " + shortHex(headers.at) +
                       " run past the end of the file (" + std::to_string(file.size()) + " bytes)");
  }
  return headers;
}

// The loadable segments (memory size not 0), and the mapped files the
// notes name.
Status readSegments(ByteSpan file, const std::string& n, const ProgramHeaders& headers, std::vector<Segment>& segments,
                    std::vector<TargetRegion>& files) {
  segments.reserve(static_cast<std::size_t>(headers.count));
  for (std::uint64_t i = 0; i < headers.count; ++i) {
    const std::uint64_t at = headers.at + i * kProgramHeaderSize;
    ByteCursor ph(file.subspan(static_cast<std::size_t>(at), kProgramHeaderSize), static_cast<std::size_t>(at));
    const std::uint32_t kind = ph.u32();
    ph.u32();  // p_flags
    Segment s;
    s.fileOffset = ph.u64();
    s.address = ph.u64();
    ph.u64();  // p_paddr
    s.fileSize = ph.u64();
    s.memorySize = ph.u64();
    const std::string which = "program header " + std::to_string(i);
    if (kind != kPtLoad && kind != kPtNote) continue;
    if (!inside(s.fileOffset, s.fileSize, file.size())) {
      return invalid(at + 8, n,
                     which + ": its " + std::to_string(s.fileSize) + " bytes at " + shortHex(s.fileOffset) +
                         " run past the end of the file (" + std::to_string(file.size()) +
                         " bytes): the dump is truncated");
    }
    if (kind == kPtNote) {
      if (Status notes =
              readNotes(file.subspan(static_cast<std::size_t>(s.fileOffset), static_cast<std::size_t>(s.fileSize)),
                        s.fileOffset, n, files);
          !notes)
        return notes.error();
      continue;
    }
    if (s.fileSize > s.memorySize || s.memorySize > ~std::uint64_t{0} - s.address) {
      return invalid(at + 32, n,
                     which + ": file size " + std::to_string(s.fileSize) + ", memory size " +
                         std::to_string(s.memorySize) + " at " + shortHex(s.address));
    }
    if (s.memorySize != 0) segments.push_back(s);
  }
  return Success{};
}

// Regions: each segment, named by the mapped file that holds its start.
std::vector<TargetRegion> namedRegions(const std::vector<Segment>& segments, std::vector<TargetRegion>& files) {
  std::sort(files.begin(), files.end(), [](const TargetRegion& a, const TargetRegion& b) { return a.start < b.start; });
  std::vector<TargetRegion> regions;
  regions.reserve(segments.size());
  for (const Segment& s : segments) {
    TargetRegion r;
    r.start = s.address;
    r.end = s.address + s.memorySize;
    const auto f = std::upper_bound(files.begin(), files.end(), s.address,
                                    [](std::uint64_t a, const TargetRegion& t) { return a < t.start; });
    if (f != files.begin() && s.address < std::prev(f)->end) {
      r.path = std::prev(f)->path;
      r.fileOffset = std::prev(f)->fileOffset + (s.address - std::prev(f)->start);
    }
    regions.push_back(std::move(r));
  }
  return regions;
}

}  // namespace

Expected<CoreDump> CoreDump::open(ByteSpan file, std::string name) {
  CoreDump core;
  core.file_ = file;
  core.name_ = std::move(name);
  const std::string& n = core.name_;
  const Expected<ProgramHeaders> headers = readElfHeader(file, n, core.machine_);
  if (!headers) return headers.error();
  std::vector<TargetRegion> files;
  if (Status read = readSegments(file, n, *headers, core.segments_, files); !read) return read.error();
  std::sort(core.segments_.begin(), core.segments_.end(),
            [](const Segment& a, const Segment& b) { return a.address < b.address; });
  for (std::size_t i = 1; i < core.segments_.size(); ++i) {
    const Segment& before = core.segments_[i - 1];
    if (core.segments_[i].address < before.address + before.memorySize) {
      return invalid(headers->at, n,
                     "segments overlap at " + shortHex(core.segments_[i].address) + " (the one at " +
                         shortHex(before.address) + " runs " + std::to_string(before.memorySize) + " bytes)");
    }
  }
  core.regions_ = namedRegions(core.segments_, files);
  return core;
}

Status CoreDump::read(std::uint64_t address, MutableByteSpan out) const {
  std::uint64_t next = address;
  std::size_t done = 0;
  auto it = std::upper_bound(segments_.begin(), segments_.end(), address,
                             [](std::uint64_t a, const Segment& s) { return a < s.address; });
  if (it != segments_.begin()) --it;
  // A read may span adjacent segments; each byte comes from the one that
  // holds it, in the dump's file data.
  while (done < out.size()) {
    if (it == segments_.end() || next < it->address || next - it->address >= it->fileSize) {
      const bool left = it != segments_.end() && next >= it->address && next - it->address < it->memorySize;
      return Error(static_cast<std::size_t>(next),
                   name_ + ": " + shortHex(next) +
                       (left ? " is in a segment whose bytes the dump left out" : " is in no segment of the dump") +
                       " (reading " + std::to_string(out.size()) + " bytes at " + shortHex(address) + ")",
                   rules::kTargetNotInDump);
    }
    const std::uint64_t available = it->fileSize - (next - it->address);
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(available, out.size() - done));
    std::memcpy(out.data() + done, file_.data() + it->fileOffset + (next - it->address), n);
    done += n;
    next += n;
    // Past this segment's file bytes: the next segment, unless the rest of
    // this one (bytes the dump left out) still holds `next`.
    if (done < out.size() && next - it->address >= it->memorySize) ++it;
  }
  return Success{};
}

}  // namespace gdmap::coredump
