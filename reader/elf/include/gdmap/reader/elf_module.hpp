#pragma once
// ELF shared objects as the dynamic loader left them in a target's memory
// (a live process, a core dump): where each is loaded and the address of
// an exported symbol, found as the loader finds it, through the module's
// own PT_DYNAMIC, its hash table (DT_GNU_HASH, else DT_HASH), DT_SYMTAB and
// DT_STRTAB, read from the target. How a reader of a running runtime finds
// libcoreclr.so's `DotNetRuntimeContractDescriptor`.
//
// Nothing read is trusted: every count and pointer is checked before use,
// every walk bounded (a hash chain at most as long as the symbol table
// the hash table describes); a malformed module is elf-invalid at the
// target address of the field, a page the target lacks its TargetMemory
// error (target-not-in-dump in a minidump, say).
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/target_memory.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::elf {

struct LoadedModule {
  std::uint64_t base = 0;  // the target address of its ELF header (its first mapping)
  std::string path;        // the mapped file
};

// The ELF modules of a target: each mapped file's mapping at file offset 0
// whose bytes start with the ELF signature, in address order.
std::vector<LoadedModule> loadedModules(const TargetMemory& target);

// The first of `modules` whose file name (the path's last part) is `name`.
std::optional<LoadedModule> findModule(const std::vector<LoadedModule>& modules, std::string_view name);

// The target address of the symbol `name` the module loaded at `base`
// exports (defined: not an undefined import), or nothing when it exports
// none by that name. A 64-bit little-endian module (x86-64, AArch64).
Expected<std::optional<std::uint64_t>> findExport(const TargetMemory& target, std::uint64_t base,
                                                  std::string_view name);

}  // namespace gdmap::elf
