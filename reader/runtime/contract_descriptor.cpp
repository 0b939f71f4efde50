#include <gdmap/reader/contract_descriptor.hpp>

#include <gdmap/reader/elf_module.hpp>
#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

namespace gdmap::runtime {
namespace {

// Far above what a runtime writes (10.0.12: 10,563 bytes and 24 pointers;
// 11.0.0: 17,396 and 46): a larger claim is not believed.
constexpr std::uint32_t kMaxJsonSize = 1u << 24;
constexpr std::uint32_t kMaxPointers = 1u << 16;
constexpr std::uint32_t kFlagAlwaysSet = 0x1;
constexpr std::uint32_t kFlagPointer32 = 0x2;

Error invalid(std::uint64_t at, const TargetMemory& target, const std::string& message) {
  return Error(static_cast<std::size_t>(at),
               target.describe() + ": contract descriptor at " + shortHex(at) + ": " + message,
               rules::kRuntimeDescriptorInvalid);
}

}  // namespace

Expected<ContractDescriptor> readContractDescriptorAt(const TargetMemory& target, std::uint64_t address) {
  std::uint8_t header[40];
  if (Status s = target.read(address, MutableByteSpan(header, sizeof header)); !s) return s.error();
  ByteCursor in{ByteSpan(header)};
  ContractDescriptor d;
  d.address = address;
  const std::uint64_t magic = in.u64();
  if (magic != kContractDescriptorMagic) {
    return invalid(address, target,
                   "magic " + shortHex(magic) + " is not \"DNCCDAC\" (" + shortHex(kContractDescriptorMagic) + ")");
  }
  d.flags = in.u32();
  if (!(d.flags & kFlagAlwaysSet) || (d.flags & kFlagPointer32)) {
    return invalid(address + 8, target,
                   "flags " + shortHex(d.flags) + ": gdmap reads 64-bit runtimes (bit 0 set, bit 1 clear)");
  }
  const std::uint64_t jsonSize = in.u32();
  const std::uint64_t jsonAt = in.u64();
  const std::uint64_t pointers = in.u32();
  in.u32();  // padding
  const std::uint64_t pointersAt = in.u64();
  if (jsonSize == 0 || jsonSize > kMaxJsonSize) {
    return invalid(address + 12, target, "a descriptor of " + std::to_string(jsonSize) + " bytes");
  }
  if (pointers > kMaxPointers) {
    return invalid(address + 24, target, std::to_string(pointers) + " pointer-data slots");
  }
  d.json.resize(static_cast<std::size_t>(jsonSize));
  if (Status s = target.read(jsonAt, MutableByteSpan(reinterpret_cast<std::uint8_t*>(d.json.data()), d.json.size()));
      !s)
    return s.error();
  std::vector<std::uint8_t> slots(static_cast<std::size_t>(pointers) * 8);
  if (Status s = target.read(pointersAt, slots); !s) return s.error();
  ByteCursor slotCursor{ByteSpan(slots)};
  d.pointerData.resize(static_cast<std::size_t>(pointers));
  for (std::uint64_t& slot : d.pointerData) slot = slotCursor.u64();
  return d;
}

Expected<ContractDescriptor> readContractDescriptor(const TargetMemory& target) {
  const std::vector<elf::LoadedModule> modules = elf::loadedModules(target);
  const std::optional<elf::LoadedModule> coreclr = elf::findModule(modules, "libcoreclr.so");
  if (!coreclr) {
    return Error(0,
                 target.describe() + ": no libcoreclr.so among its " + std::to_string(modules.size()) +
                     " mapped ELF modules: not a .NET (CoreCLR) process",
                 rules::kRuntimeNotFound);
  }
  const Expected<std::optional<std::uint64_t>> symbol =
      elf::findExport(target, coreclr->base, kContractDescriptorSymbol);
  if (!symbol) return symbol.error();
  if (!*symbol) {
    return Error(static_cast<std::size_t>(coreclr->base),
                 target.describe() + ": " + coreclr->path + " exports no " + kContractDescriptorSymbol +
                     ": a runtime before .NET 9, which publishes no contract descriptor",
                 rules::kRuntimeNotFound);
  }
  Expected<ContractDescriptor> d = readContractDescriptorAt(target, **symbol);
  if (!d) return d;
  d->runtimeBase = coreclr->base;
  d->runtimePath = coreclr->path;
  return d;
}

}  // namespace gdmap::runtime
