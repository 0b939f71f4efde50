#include <gdmap/reader/elf_module.hpp>

#include "elf_format.hpp"

#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <cstring>

namespace gdmap::elf {
namespace {

constexpr std::size_t kSymbolSize = 24;             // Elf64_Sym
constexpr std::uint64_t kMaxDynamicEntries = 4096;  // real modules have a few dozen
constexpr std::uint64_t kMaxSymbols = 1u << 24;
constexpr std::size_t kMaxNameLength = 4096;

Error invalid(std::uint64_t at, const std::string& message) {
  return Error(static_cast<std::size_t>(at), message, rules::kElfInvalid);
}

// A little-endian integer read from the target, or its error.
struct Reader {
  const TargetMemory& target;
  Expected<std::uint64_t> u(std::uint64_t at, unsigned width) const { return readTargetUnsigned(target, at, width); }
};

std::uint32_t gnuHash(std::string_view name) {
  std::uint32_t h = 5381;
  for (const char c : name) h = h * 33 + static_cast<std::uint8_t>(c);
  return h;
}

std::uint32_t sysvHash(std::string_view name) {
  std::uint32_t h = 0;
  for (const char c : name) {
    h = (h << 4) + static_cast<std::uint8_t>(c);
    const std::uint32_t g = h & 0xF0000000u;
    if (g != 0) h ^= g >> 24;
    h &= ~g;
  }
  return h;
}

// The dynamic section's pointers: the loader of glibc relocates them in
// place (absolute addresses), musl's leaves them as offsets from the base.
std::uint64_t pointer(std::uint64_t value, std::uint64_t base) { return value >= base ? value : base + value; }

struct Tables {
  std::uint64_t symtab = 0, strtab = 0, strsz = 0, gnuHash = 0, hash = 0;
};

// Whether symbol `index` is a defined `name`; its target address if so.
Expected<std::optional<std::uint64_t>> symbolIf(const Reader& r, const Tables& t, std::uint64_t base,
                                                std::uint64_t index, std::string_view name) {
  const std::uint64_t at = t.symtab + index * kSymbolSize;
  const Expected<std::uint64_t> nameOffset = r.u(at, 4);
  if (!nameOffset) return nameOffset.error();
  if (*nameOffset >= t.strsz || t.strsz - *nameOffset < name.size() + 1) return std::optional<std::uint64_t>();
  std::string text(name.size() + 1, '\0');
  if (Status s = r.target.read(t.strtab + *nameOffset,
                               MutableByteSpan(reinterpret_cast<std::uint8_t*>(text.data()), text.size()));
      !s)
    return s.error();
  if (text.compare(0, name.size(), name) != 0 || text[name.size()] != '\0') return std::optional<std::uint64_t>();
  const Expected<std::uint64_t> section = r.u(at + 6, 2);
  const Expected<std::uint64_t> value = r.u(at + 8, 8);
  if (!section) return section.error();
  if (!value) return value.error();
  if (*section == 0) return std::optional<std::uint64_t>();  // SHN_UNDEF: an import
  return std::optional<std::uint64_t>(base + *value);
}

// DT_GNU_HASH: nbuckets, symoffset, bloom size, bloom shift, the bloom
// words, the buckets, then one chain word per symbol from symoffset (bit 0:
// the chain's last).
Expected<std::optional<std::uint64_t>> lookupGnu(const Reader& r, const Tables& t, std::uint64_t base,
                                                 std::string_view name) {
  const Expected<std::uint64_t> buckets = r.u(t.gnuHash, 4);
  const Expected<std::uint64_t> symoffset = r.u(t.gnuHash + 4, 4);
  const Expected<std::uint64_t> bloomSize = r.u(t.gnuHash + 8, 4);
  if (!buckets) return buckets.error();
  if (!symoffset) return symoffset.error();
  if (!bloomSize) return bloomSize.error();
  if (*buckets == 0) return invalid(t.gnuHash, "DT_GNU_HASH at " + shortHex(t.gnuHash) + " has no buckets");
  const std::uint32_t h = gnuHash(name);
  const std::uint64_t bucketsAt = t.gnuHash + 16 + *bloomSize * 8;
  const Expected<std::uint64_t> first = r.u(bucketsAt + (h % *buckets) * 4, 4);
  if (!first) return first.error();
  if (*first == 0) return std::optional<std::uint64_t>();
  if (*first < *symoffset) {
    return invalid(bucketsAt + (h % *buckets) * 4, "DT_GNU_HASH bucket names symbol " + std::to_string(*first) +
                                                       ", below its first hashed symbol " + std::to_string(*symoffset));
  }
  const std::uint64_t chainAt = bucketsAt + *buckets * 4;
  for (std::uint64_t i = *first; i < *first + kMaxSymbols; ++i) {
    const Expected<std::uint64_t> link = r.u(chainAt + (i - *symoffset) * 4, 4);
    if (!link) return link.error();
    if ((*link | 1) == (h | 1)) {
      Expected<std::optional<std::uint64_t>> found = symbolIf(r, t, base, i, name);
      if (!found || *found) return found;
    }
    if (*link & 1) return std::optional<std::uint64_t>();
  }
  return invalid(chainAt, "DT_GNU_HASH: a chain of more than " + std::to_string(kMaxSymbols) + " symbols");
}

// DT_HASH: nbucket, nchain, the buckets, the chains (0 ends one); a chain
// visits each symbol at most once, so at most nchain steps.
Expected<std::optional<std::uint64_t>> lookupSysv(const Reader& r, const Tables& t, std::uint64_t base,
                                                  std::string_view name) {
  const Expected<std::uint64_t> buckets = r.u(t.hash, 4);
  const Expected<std::uint64_t> chains = r.u(t.hash + 4, 4);
  if (!buckets) return buckets.error();
  if (!chains) return chains.error();
  if (*buckets == 0 || *chains > kMaxSymbols) {
    return invalid(t.hash, "DT_HASH at " + shortHex(t.hash) + ": " + std::to_string(*buckets) + " buckets, " +
                               std::to_string(*chains) + " chains");
  }
  const Expected<std::uint64_t> first = r.u(t.hash + 8 + (sysvHash(name) % *buckets) * 4, 4);
  if (!first) return first.error();
  std::uint64_t i = *first;
  for (std::uint64_t steps = 0; i != 0; ++steps) {
    if (i >= *chains || steps > *chains) {
      return invalid(t.hash, "DT_HASH: a chain leaves its " + std::to_string(*chains) + " symbols or loops");
    }
    Expected<std::optional<std::uint64_t>> found = symbolIf(r, t, base, i, name);
    if (!found || *found) return found;
    const Expected<std::uint64_t> next = r.u(t.hash + 8 + *buckets * 4 + i * 4, 4);
    if (!next) return next.error();
    i = *next;
  }
  return std::optional<std::uint64_t>();
}

Expected<std::optional<std::uint64_t>> lookUp(const TargetMemory& target, std::uint64_t base, std::string_view name);

}  // namespace

std::vector<LoadedModule> loadedModules(const TargetMemory& target) {
  std::vector<LoadedModule> modules;
  for (const TargetRegion& region : target.regions()) {
    if (region.path.empty() || region.fileOffset != 0 || region.path[0] != '/') continue;
    std::uint8_t magic[4] = {};
    if (!target.read(region.start, MutableByteSpan(magic, 4)) || std::memcmp(magic,
                                                                             "\x7f"
                                                                             "ELF",
                                                                             4) != 0)
      continue;
    const bool seen =
        std::any_of(modules.begin(), modules.end(), [&](const LoadedModule& m) { return m.path == region.path; });
    if (!seen) modules.push_back({region.start, region.path});
  }
  return modules;
}

std::optional<LoadedModule> findModule(const std::vector<LoadedModule>& modules, std::string_view name) {
  for (const LoadedModule& m : modules) {
    const std::size_t slash = m.path.rfind('/');
    if (std::string_view(m.path).substr(slash == std::string::npos ? 0 : slash + 1) == name) return m;
  }
  return std::nullopt;
}

Expected<std::optional<std::uint64_t>> findExport(const TargetMemory& target, std::uint64_t base,
                                                  std::string_view name) {
  Expected<std::optional<std::uint64_t>> found = lookUp(target, base, name);
  // The module's own errors name the target; the target's already do.
  if (!found && found.error().rule == rules::kElfInvalid) {
    Error e = found.error();
    e.message = target.describe() + ": " + e.message;
    return e;
  }
  return found;
}

namespace {

Expected<std::optional<std::uint64_t>> lookUp(const TargetMemory& target, std::uint64_t base, std::string_view name) {
  if (name.empty() || name.size() > kMaxNameLength) return std::optional<std::uint64_t>();
  const Reader r{target};
  Expected<std::vector<ProgramHeader>> headers = readProgramHeaders(
      [&](std::uint64_t offset, MutableByteSpan out) { return target.read(base + offset, out); }, base);
  if (!headers) return headers.error();
  // The load bias: the base minus the first PT_LOAD's address (0 for a
  // shared object); PT_DYNAMIC's address plus the bias is where it is.
  std::optional<std::uint64_t> firstLoad;
  std::optional<std::uint64_t> dynamic;
  std::uint64_t dynamicSize = 0;
  for (const ProgramHeader& ph : *headers) {
    if (ph.type == kPtLoad && !firstLoad) firstLoad = ph.vaddr;
    if (ph.type == kPtDynamic) {
      dynamic = ph.vaddr;
      dynamicSize = ph.memorySize;
    }
  }
  if (!dynamic) return invalid(base, "the module at " + shortHex(base) + " has no PT_DYNAMIC");
  const std::uint64_t bias = base - firstLoad.value_or(0);
  const std::uint64_t dynamicAt = bias + *dynamic;
  Tables t;
  bool syment = true;
  for (std::uint64_t i = 0; i < std::min<std::uint64_t>(dynamicSize / kDynamicEntrySize, kMaxDynamicEntries); ++i) {
    const Expected<std::uint64_t> tag = r.u(dynamicAt + i * kDynamicEntrySize, 8);
    const Expected<std::uint64_t> value = r.u(dynamicAt + i * kDynamicEntrySize + 8, 8);
    if (!tag) return tag.error();
    if (!value) return value.error();
    const auto signedTag = static_cast<std::int64_t>(*tag);
    if (signedTag == kDtNull) break;
    switch (signedTag) {
      case kDtSymtab: t.symtab = pointer(*value, base); break;
      case kDtStrtab: t.strtab = pointer(*value, base); break;
      case kDtStrsz: t.strsz = *value; break;
      case kDtSyment: syment = *value == kSymbolSize; break;
      case kDtGnuHash: t.gnuHash = pointer(*value, base); break;
      case kDtHash: t.hash = pointer(*value, base); break;
      default: break;
    }
  }
  if (t.symtab == 0 || t.strtab == 0 || !syment || (t.gnuHash == 0 && t.hash == 0)) {
    return invalid(dynamicAt, "the dynamic section at " + shortHex(dynamicAt) +
                                  " has no symbol table, string table or hash table to look a name up in");
  }
  return t.gnuHash != 0 ? lookupGnu(r, t, base, name) : lookupSysv(r, t, base, name);
}

}  // namespace

}  // namespace gdmap::elf
