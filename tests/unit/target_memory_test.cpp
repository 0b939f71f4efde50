// The memory of another program, from its three sources: a caller's
// reader, a live process (a forked child, read by its parent), and an ELF
// core dump (built here byte by byte, so that every field a hostile dump
// could lie in is tested). Each read succeeds whole or fails, and a range
// the target does not hold is an error at the first address missing.
#include <gdmap/coredump/core_dump.hpp>
#include <gdmap/process/process_memory.hpp>
#include <gdmap/reader/contract_descriptor.hpp>
#include <gdmap/reader/elf_file_image.hpp>
#include <gdmap/reader/elf_module.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/schema/target_memory.hpp>

#include <doctest/doctest.h>

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <array>
#include <csignal>
#include <cstring>
#include <string>
#include <vector>

using gdmap::Bytes;
using gdmap::MutableByteSpan;

namespace {

// Appends n bytes (resize and copy: g++ 12 warns falsely on vector::insert
// of a range, -Wstringop-overflow).
void append(Bytes& out, const void* bytes, std::size_t n) {
  const std::size_t at = out.size();
  out.resize(at + n);
  if (n != 0) std::memcpy(out.data() + at, bytes, n);
}

// An ELF64 core: the header, the program headers, then the notes and the
// segments' bytes, in that order.
struct CoreBuilder {
  struct Load {
    std::uint64_t address;
    Bytes bytes;
    std::uint64_t memorySize;  // >= bytes.size()
  };
  std::vector<Load> loads;
  Bytes notes;

  void addFileNote(const std::vector<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::string>>& files) {
    Bytes desc;
    put(desc, files.size(), 8);
    put(desc, 4096, 8);
    for (const auto& [start, end, page, path] : files) {
      put(desc, start, 8);
      put(desc, end, 8);
      put(desc, page, 8);
    }
    for (const auto& f : files) {
      const std::string& path = std::get<3>(f);
      append(desc, path.c_str(), path.size() + 1);
    }
    put(notes, 5, 4);
    put(notes, desc.size(), 4);
    put(notes, 0x46494C45, 4);  // NT_FILE
    append(notes, "CORE\0\0\0\0", 8);
    append(notes, desc.data(), desc.size());
    while (notes.size() % 4) notes.push_back(0);
  }

  static void put(Bytes& out, std::uint64_t value, unsigned width) {
    for (unsigned i = 0; i < width; ++i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
  }

  Bytes build() const {
    const std::uint64_t phnum = loads.size() + 1;
    Bytes out;
    const char ident[16] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0};
    append(out, ident, 16);
    put(out, 4, 2);   // ET_CORE
    put(out, 62, 2);  // x86-64
    put(out, 1, 4);   // e_version
    put(out, 0, 8);   // e_entry
    put(out, 64, 8);  // e_phoff
    put(out, 0, 8);   // e_shoff
    put(out, 0, 4);   // e_flags
    put(out, 64, 2);  // e_ehsize
    put(out, 56, 2);  // e_phentsize
    put(out, phnum, 2);
    put(out, 64, 2);  // e_shentsize
    put(out, 0, 2);
    put(out, 0, 2);
    std::uint64_t data = 64 + phnum * 56;
    const auto header = [&](std::uint32_t type, std::uint64_t offset, std::uint64_t address, std::uint64_t fileSize,
                            std::uint64_t memorySize) {
      put(out, type, 4);
      put(out, 4, 4);
      put(out, offset, 8);
      put(out, address, 8);
      put(out, 0, 8);
      put(out, fileSize, 8);
      put(out, memorySize, 8);
      put(out, 1, 8);
    };
    header(4, data, 0, notes.size(), 0);
    data += notes.size();
    for (const Load& l : loads) {
      header(1, data, l.address, l.bytes.size(), l.memorySize);
      data += l.bytes.size();
    }
    append(out, notes.data(), notes.size());
    for (const Load& l : loads) append(out, l.bytes.data(), l.bytes.size());
    return out;
  }
};

Bytes pattern(std::size_t n, std::uint8_t seed) {
  Bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(seed + i * 7);
  return b;
}

CoreBuilder sampleCore() {
  CoreBuilder core;
  core.loads.push_back({0x10000, pattern(0x100, 1), 0x100});
  core.loads.push_back({0x10100, pattern(0x80, 2), 0x100});  // adjacent; its last 0x80 bytes left out
  core.loads.push_back({0x7f0000, pattern(0x40, 3), 0x40});
  core.addFileNote({{0x10000, 0x10200, 2, "/usr/lib/libexample.so"}});
  return core;
}

}  // namespace

TEST_CASE("target memory: a caller's reader, all or nothing") {
  const Bytes memory = pattern(64, 9);
  gdmap::CallbackMemory target(
      [&](std::uint64_t address, MutableByteSpan out) -> std::size_t {
        if (address < 0x1000 || address >= 0x1000 + memory.size()) return 0;
        const std::size_t n = std::min<std::size_t>(out.size(), 0x1000 + memory.size() - address);
        std::memcpy(out.data(), memory.data() + (address - 0x1000), n);
        return n;
      },
      "callback");
  std::array<std::uint8_t, 8> buffer{};
  REQUIRE(target.read(0x1008, buffer).ok());
  CHECK(buffer[0] == memory[8]);
  const auto value = gdmap::readTargetUnsigned(target, 0x1000, 4);
  REQUIRE(value.ok());
  CHECK(*value == (std::uint64_t{memory[3]} << 24 | std::uint64_t{memory[2]} << 16 | memory[1] << 8 | memory[0]));
  const gdmap::Status past = target.read(0x103c, buffer);  // 4 of the 8 bytes exist
  REQUIRE_FALSE(past.ok());
  CHECK(past.error().rule == "target-unreadable");
  CHECK(past.error().offset == 0x1040);
  CHECK(target.describe() == "callback");
  CHECK(target.regions().empty());
  CHECK(target.read(~std::uint64_t{0} - 2, buffer).error().rule == gdmap::rules::kTargetUnreadable);
  // Nothing to read: success, and the caller's reader is not asked (it
  // would be given a null span; the fuzz target elf_module found one).
  bool asked = false;
  const gdmap::CallbackMemory counting(
      [&](std::uint64_t, MutableByteSpan) -> std::size_t {
        asked = true;
        return 0;
      },
      "counting");
  CHECK(counting.read(0x1000, MutableByteSpan()).ok());
  CHECK_FALSE(asked);
}

TEST_CASE("target memory: /proc/PID/maps lines") {
  const auto r = gdmap::process::parseMapsLine("7f12a000-7f12c000 r-xp 00002000 08:01 1234    /usr/lib/libc.so.6");
  REQUIRE(r.has_value());
  CHECK(r->start == 0x7f12a000);
  CHECK(r->end == 0x7f12c000);
  CHECK(r->fileOffset == 0x2000);
  CHECK(r->readable);
  CHECK(r->path == "/usr/lib/libc.so.6");
  const auto anon = gdmap::process::parseMapsLine("7ffd0000-7ffd1000 ---p 00000000 00:00 0");
  REQUIRE(anon.has_value());
  CHECK_FALSE(anon->readable);
  CHECK(anon->path.empty());
  CHECK_FALSE(gdmap::process::parseMapsLine("not a maps line").has_value());
  CHECK_FALSE(gdmap::process::parseMapsLine("2000-1000 r--p 0 00:00 0").has_value());  // end before start
}

TEST_CASE("target memory: a live process (a child, read by its parent)") {
  static std::array<std::uint8_t, 4096> shared{};
  int ready[2];
  REQUIRE(pipe(ready) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // The child writes its own pattern at the address both know, says so,
    // and waits to be read.
    for (std::size_t i = 0; i < shared.size(); ++i) shared[i] = static_cast<std::uint8_t>(i * 3 + 1);
    const char c = 'r';
    (void)!write(ready[1], &c, 1);
    pause();
    _exit(0);
  }
  char c = 0;
  REQUIRE(read(ready[0], &c, 1) == 1);
  const auto target = gdmap::process::ProcessMemory::open(child);
  REQUIRE_MESSAGE(target.ok(), target.error().message);
  CHECK(target->pid() == child);
  CHECK(target->describe() == "process " + std::to_string(child));
  CHECK_FALSE(target->regions().empty());
  std::array<std::uint8_t, 4096> seen{};
  const auto address = reinterpret_cast<std::uint64_t>(shared.data());
  REQUIRE(target->read(address, seen).ok());
  CHECK(seen[0] == 1);
  CHECK(seen[100] == static_cast<std::uint8_t>(301));
  CHECK(shared[100] == 0);  // the parent's copy is untouched: the bytes came from the child
  // Address 0 is mapped in no process.
  const gdmap::Status none = target->read(0, MutableByteSpan(seen.data(), 8));
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().rule == gdmap::rules::kTargetUnreadable);
  CHECK(none.error().offset == 0);
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  close(ready[0]);
  close(ready[1]);
  const auto gone = gdmap::process::ProcessMemory::open(child);
  REQUIRE_FALSE(gone.ok());
  CHECK(gone.error().rule == gdmap::rules::kTargetUnreadable);
  CHECK(gone.error().message.find("process " + std::to_string(child)) != std::string::npos);
}

TEST_CASE("target memory: a process another user owns is target-no-access, naming the permission") {
  // A child that becomes `nobody` cannot read its root parent; as any
  // other user, pid 1 stands in for the process it may not read.
  int result[2];
  REQUIRE(pipe(result) == 0);
  const pid_t parent = getpid();
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    pid_t victim = 1;
    if (getuid() == 0) {
      if (setgid(65534) != 0 || setuid(65534) != 0) {
        (void)!write(result[1], "skip", 4);  // root that cannot drop its rights: nothing to test
        _exit(0);
      }
      victim = parent;
    }
    const auto target = gdmap::process::ProcessMemory::open(victim);
    const std::string rule = target.ok() ? "ok" : target.error().rule;
    (void)!write(result[1], rule.c_str(), rule.size());
    _exit(0);
  }
  waitpid(child, nullptr, 0);
  char buffer[64] = {};
  const ssize_t n = read(result[0], buffer, sizeof buffer - 1);
  close(result[0]);
  close(result[1]);
  REQUIRE(n > 0);
  if (std::string(buffer) == "skip") {
    MESSAGE("skipped: running as root without the right to become another user");
    return;
  }
  CHECK(std::string(buffer) == "target-no-access");
}

TEST_CASE("target memory: an ELF core dump's segments and mapped files") {
  const CoreBuilder built = sampleCore();
  const Bytes file = built.build();
  const auto core = gdmap::coredump::CoreDump::open(file, "core.1");
  REQUIRE_MESSAGE(core.ok(), core.error().message);
  CHECK(core->machine() == 62);
  REQUIRE(core->segments().size() == 3);
  REQUIRE(core->regions().size() == 3);
  CHECK(core->regions()[0].path == "/usr/lib/libexample.so");
  CHECK(core->regions()[0].fileOffset == 2 * 4096);
  CHECK(core->regions()[1].fileOffset == 2 * 4096 + 0x100);
  CHECK(core->regions()[2].path.empty());

  // A read across two adjacent segments.
  std::array<std::uint8_t, 32> buffer{};
  REQUIRE(core->read(0x100f0, buffer).ok());
  CHECK(buffer[0] == built.loads[0].bytes[0xf0]);
  CHECK(buffer[16] == built.loads[1].bytes[0]);
  // The part of a segment the dump left out, and an address in no segment.
  gdmap::Status leftOut = core->read(0x10178, buffer);
  REQUIRE_FALSE(leftOut.ok());
  CHECK(leftOut.error().rule == "target-not-in-dump");
  CHECK(leftOut.error().offset == 0x10180);
  CHECK(leftOut.error().message.find("left out") != std::string::npos);
  gdmap::Status nowhere = core->read(0x500000, buffer);
  REQUIRE_FALSE(nowhere.ok());
  CHECK(nowhere.error().offset == 0x500000);
  CHECK(nowhere.error().message.find("in no segment") != std::string::npos);
  const auto word = gdmap::readTargetUnsigned(*core, 0x7f0000, 8);
  REQUIRE(word.ok());
  CHECK((*word & 0xFF) == built.loads[2].bytes[0]);
}

TEST_CASE("target memory: a hostile core dump is core-dump-invalid at the field") {
  const Bytes good = sampleCore().build();
  const auto errorOf = [](const Bytes& file) {
    const auto core = gdmap::coredump::CoreDump::open(file, "bad");
    REQUIRE_FALSE(core.ok());
    CHECK(core.error().rule == "core-dump-invalid");
    CHECK(core.error().offset <= file.size());
    return core.error();
  };
  Bytes file = good;
  file[1] = 'X';
  CHECK(errorOf(file).offset == 0);
  file = good;
  file[16] = 2;  // ET_EXEC
  CHECK(errorOf(file).message.find("not a core dump") != std::string::npos);
  file = good;
  file[56] = 0xFF;  // e_phnum 255: headers past the end
  CHECK(errorOf(file).offset == 32);
  // Truncated: the last segment's bytes are cut.
  file = Bytes(good.begin(), good.end() - 8);
  const gdmap::Error cut = errorOf(file);
  CHECK(cut.message.find("the dump is truncated") != std::string::npos);
  // NT_FILE claiming a million files.
  file = good;
  const std::size_t noteDesc = 64 + 4 * 56 + 12 + 8;
  file[noteDesc + 2] = 0x0F;
  CHECK(errorOf(file).message.find("NT_FILE names") != std::string::npos);
  // Overlapping segments.
  CoreBuilder overlap = sampleCore();
  overlap.loads[1].address = 0x10080;
  CHECK(errorOf(overlap.build()).message.find("segments overlap") != std::string::npos);
  // Every truncation of the good dump fails cleanly or reads.
  for (std::size_t n = 0; n < good.size(); n += 7) {
    const Bytes part(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
    const auto core = gdmap::coredump::CoreDump::open(part, "part");
    if (!core.ok()) CHECK(core.error().offset <= part.size());
  }
}

TEST_CASE("target memory: an ELF module's exports, found in the target as its loader finds them") {
  // This process read as another: libc's exports, looked up through libc's
  // own PT_DYNAMIC and hash table, are where the loader put them.
  const auto self = gdmap::process::ProcessMemory::open(getpid());
  REQUIRE(self.ok());
  const std::vector<gdmap::elf::LoadedModule> modules = gdmap::elf::loadedModules(*self);
  const std::optional<gdmap::elf::LoadedModule> libc = gdmap::elf::findModule(modules, "libc.so.6");
  REQUIRE(libc.has_value());
  const auto version = gdmap::elf::findExport(*self, libc->base, "gnu_get_libc_version");
  REQUIRE_MESSAGE(version.ok(), version.error().message);
  REQUIRE(version->has_value());
  CHECK(**version == reinterpret_cast<std::uint64_t>(dlsym(RTLD_DEFAULT, "gnu_get_libc_version")));
  const auto none = gdmap::elf::findExport(*self, libc->base, "no_such_symbol_in_libc");
  REQUIRE(none.ok());
  CHECK_FALSE(none->has_value());
  CHECK_FALSE(gdmap::elf::findModule(modules, "libnothing.so").has_value());
  // An address that is no module: elf-invalid at it.
  static const std::uint8_t notElf[64] = {1, 2, 3};
  const auto bad = gdmap::elf::findExport(*self, reinterpret_cast<std::uint64_t>(notElf), "x");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().rule == "elf-invalid");
  CHECK(bad.error().offset == reinterpret_cast<std::uint64_t>(notElf));
}

TEST_CASE("target memory: an ELF module's DT_HASH table (musl's form: pointers as offsets)") {
  // A module of 446 bytes exporting DotNetRuntimeContractDescriptor, a and
  // malloc (values 0x4000, 0x4010, 0x4020), with a System V hash table and
  // dynamic pointers left as offsets from the base; mapped at 0x200000.
  const gdmap::Expected<Bytes> module = gdmap::parseHex(
      "7f454c4602010100000000000000000003003e0001000000000000000000000040000000000000000000000000000000"
      "000000004000380002004000000000000100000005000000000000000000000000000000000000000000000000000000"
      "be01000000000000be0100000000000000100000000000000200000006000000b000000000000000b000000000000000"
      "b00000000000000060000000000000006000000000000000080000000000000004000000000000001001000000000000"
      "05000000000000009401000000000000060000000000000034010000000000000a000000000000002a00000000000000"
      "0b0000000000000018000000000000000000000000000000000000000000000003000000040000000000000002000000"
      "030000000000000000000000010000000000000000000000000000000000000000000000000000000000000001000000"
      "110007000040000000000000080000000000000021000000110007001040000000000000080000000000000023000000"
      "110007002040000000000000080000000000000000446f744e657452756e74696d65436f6e7472616374446573637269"
      "70746f720061006d616c6c6f6300");
  REQUIRE(module.ok());
  const gdmap::CallbackMemory target(
      [&](std::uint64_t address, MutableByteSpan out) -> std::size_t {
        if (address < 0x200000 || address - 0x200000 >= module->size()) return 0;
        const std::size_t n = std::min<std::size_t>(out.size(), module->size() - (address - 0x200000));
        std::memcpy(out.data(), module->data() + (address - 0x200000), n);
        return n;
      },
      "module");
  const auto descriptor = gdmap::elf::findExport(target, 0x200000, "DotNetRuntimeContractDescriptor");
  REQUIRE_MESSAGE(descriptor.ok(), descriptor.error().message);
  CHECK(*descriptor == std::optional<std::uint64_t>(0x204000));
  CHECK(*gdmap::elf::findExport(target, 0x200000, "malloc") == std::optional<std::uint64_t>(0x204020));
  CHECK_FALSE(gdmap::elf::findExport(target, 0x200000, "free")->has_value());
  // Its hash table's chain made to loop: elf-invalid, not a hang.
  Bytes looping = *module;
  const std::size_t hashAt = 176 + 6 * 16;  // after the six dynamic entries
  for (std::size_t i = 0; i < 4; ++i) {
    std::memcpy(looping.data() + hashAt + 8 + 3 * 4 + i * 4, "\x01\x00\x00\x00", 4);  // every chain -> 1
  }
  const gdmap::CallbackMemory loop(
      [&](std::uint64_t address, MutableByteSpan out) -> std::size_t {
        if (address < 0x200000 || address - 0x200000 >= looping.size()) return 0;
        const std::size_t n = std::min<std::size_t>(out.size(), looping.size() - (address - 0x200000));
        std::memcpy(out.data(), looping.data() + (address - 0x200000), n);
        return n;
      },
      "looping module");
  const auto looped = gdmap::elf::findExport(loop, 0x200000, "free");
  REQUIRE_FALSE(looped.ok());
  CHECK(looped.error().rule == "elf-invalid");
  CHECK(looped.error().message.find("loops") != std::string::npos);
}

TEST_CASE("target memory: an ELF file as its loader maps it, relocated, under a dump that lacks it") {
  // 64-byte header; program headers at 64: PT_LOAD (the whole file at 0,
  // 0x100 bytes of bss after it) and PT_DYNAMIC at 0x100 (DT_RELA 0x180,
  // DT_RELASZ 24, DT_RELAENT 24); one R_X86_64_RELATIVE for the pointer
  // at 0x1a0 (addend 0x1234).
  Bytes file(0x1a8, 0);
  const auto put = [&](std::size_t at, std::uint64_t v, unsigned width) {
    for (unsigned i = 0; i < width; ++i) file[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
  };
  std::memcpy(file.data(),
              "\x7f"
              "ELF\x02\x01\x01",
              7);
  put(16, 3, 2);  // ET_DYN
  put(32, 64, 8);
  put(54, 56, 2);
  put(56, 2, 2);
  put(64, 1, 4);                         // PT_LOAD
  put(64 + 32, file.size(), 8);          // p_filesz
  put(64 + 40, file.size() + 0x100, 8);  // p_memsz
  put(120, 2, 4);                        // PT_DYNAMIC
  put(120 + 8, 0x100, 8);
  put(120 + 16, 0x100, 8);
  put(120 + 32, 0x40, 8);
  put(0x100, 7, 8), put(0x108, 0x180, 8);  // DT_RELA
  put(0x110, 8, 8), put(0x118, 24, 8);     // DT_RELASZ
  put(0x120, 9, 8), put(0x128, 24, 8);     // DT_RELAENT
  put(0x180, 0x1a0, 8), put(0x188, 8, 8), put(0x190, 0x1234, 8);
  constexpr std::uint64_t kBase = 0x7f0000000000;
  const gdmap::Expected<gdmap::elf::FileImage> image = gdmap::elf::FileImage::open(file, kBase, "/lib/x.so");
  REQUIRE_MESSAGE(image.ok(), image.error().message);
  CHECK(image->relocationCount() == 1);
  CHECK(image->regions().size() == 1);
  CHECK(*gdmap::readTargetUnsigned(*image, kBase + 0x1a0, 8) == kBase + 0x1234);  // relocated
  CHECK(*gdmap::readTargetUnsigned(*image, kBase + 0x1a4, 4) == (kBase >> 32));   // its upper half alone
  CHECK(*gdmap::readTargetUnsigned(*image, kBase + 0x1a8 + 8, 8) == 0);           // bss
  const gdmap::Expected<std::uint64_t> past = gdmap::readTargetUnsigned(*image, kBase + 0x1a8 + 0x100, 1);
  REQUIRE_FALSE(past.ok());
  CHECK(past.error().rule == "target-unreadable");

  // Under a target that has nothing: the file answers inside its regions.
  const gdmap::CallbackMemory empty([](std::uint64_t, MutableByteSpan) -> std::size_t { return 0; }, "core.1");
  const gdmap::LayeredMemory layered(empty, *image);
  CHECK(*gdmap::readTargetUnsigned(layered, kBase + 0x1a0, 8) == kBase + 0x1234);
  const gdmap::Expected<std::uint64_t> outside = gdmap::readTargetUnsigned(layered, 0x1000, 8);
  REQUIRE_FALSE(outside.ok());
  CHECK(outside.error().rule == "target-unreadable");  // the first target's own error
  CHECK(layered.describe() == "core.1");

  // Program headers past the end of the file: elf-invalid, naming the file.
  Bytes cut(file.begin(), file.begin() + 100);
  const gdmap::Expected<gdmap::elf::FileImage> truncated = gdmap::elf::FileImage::open(cut, kBase, "/lib/x.so");
  REQUIRE_FALSE(truncated.ok());
  CHECK(truncated.error().rule == "elf-invalid");
  CHECK(truncated.error().offset == 64);
  CHECK(truncated.error().message.find("/lib/x.so") != std::string::npos);
}

TEST_CASE("target memory: the runtime's contract descriptor, bounded and checked") {
  // The structure at 0x300000, its JSON at 0x301000, two pointer slots at
  // 0x302000 (as libcoreclr.so lays them out, docs/runtime-contracts.md).
  Bytes memory(0x3000, 0);
  const auto put = [&](std::size_t at, std::uint64_t value, unsigned width) {
    for (unsigned i = 0; i < width; ++i) memory[at + i] = static_cast<std::uint8_t>(value >> (8 * i));
  };
  const std::string json = R"({"version":0,"contracts":{"ExecutionManager":2}})";
  put(0, gdmap::runtime::kContractDescriptorMagic, 8);
  put(8, 1, 4);
  put(12, json.size(), 4);
  put(16, 0x301000, 8);
  put(24, 2, 4);
  put(32, 0x302000, 8);
  std::memcpy(memory.data() + 0x1000, json.data(), json.size());
  put(0x2000 + 8, 0x7f0000001234, 8);
  const auto reader = [&](std::uint64_t address, MutableByteSpan out) -> std::size_t {
    if (address < 0x300000 || address - 0x300000 >= memory.size()) return 0;
    const std::size_t n = std::min<std::size_t>(out.size(), memory.size() - (address - 0x300000));
    std::memcpy(out.data(), memory.data() + (address - 0x300000), n);
    return n;
  };
  const gdmap::CallbackMemory target(reader, "profiler's view");
  const auto d = gdmap::runtime::readContractDescriptorAt(target, 0x300000);
  REQUIRE_MESSAGE(d.ok(), d.error().message);
  CHECK(d->json == json);
  CHECK(d->pointerData == std::vector<std::uint64_t>{0, 0x7f0000001234});
  CHECK(d->flags == 1);

  const auto errorWith = [&](std::size_t at, std::uint64_t value, unsigned width) {
    const Bytes good = memory;
    put(at, value, width);
    const auto bad = gdmap::runtime::readContractDescriptorAt(target, 0x300000);
    memory = good;
    REQUIRE_FALSE(bad.ok());
    return bad.error();
  };
  gdmap::Error e = errorWith(0, 0x1122334455667788, 8);
  CHECK(e.rule == "runtime-descriptor-invalid");
  CHECK(e.offset == 0x300000);
  CHECK(errorWith(8, 3, 4).offset == 0x300008);            // 32-bit pointers
  CHECK(errorWith(12, 0xFFFFFFFF, 4).offset == 0x30000c);  // a 4 GiB descriptor
  CHECK(errorWith(24, 0x7FFFFFFF, 4).offset == 0x300018);  // two billion slots
  e = errorWith(16, 0x9000000, 8);                         // the JSON's pointer into nowhere
  CHECK(e.rule == "target-unreadable");
  CHECK(e.offset == 0x9000000);

  // A process without the runtime: this test's own.
  const auto self = gdmap::process::ProcessMemory::open(getpid());
  REQUIRE(self.ok());
  const auto none = gdmap::runtime::readContractDescriptor(*self);
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().rule == "runtime-not-found");
  CHECK(none.error().message.find("no libcoreclr.so") != std::string::npos);
}
