#pragma once
// A running .NET runtime's contract descriptor (.NET 9 and later): the
// data it publishes about itself for diagnostic readers (the cDAC) instead
// of a version-locked DAC: its types' field offsets, its globals and the
// versions of its contracts, as JSON, with a table of pointers the JSON's
// globals refer to. libcoreclr.so exports it as
// `DotNetRuntimeContractDescriptor` (docs/runtime-contracts.md, section 1):
//
//   u64 magic "DNCCDAC\0", u32 flags (bit 0 set; bit 1: 32-bit pointers),
//   u32 descriptor_size, ptr descriptor (the JSON), u32 pointer_data_count,
//   u32 padding, ptr pointer_data.
//
// Read from the target, never trusted: the magic and flags checked, the
// JSON's size and the pointer count bounded before anything is read. The
// JSON is returned as text; its reader comes next (issue 28).
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/target_memory.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace gdmap::runtime {

inline constexpr std::uint64_t kContractDescriptorMagic = 0x0043414443434e44;  // "DNCCDAC\0"
inline constexpr const char* kContractDescriptorSymbol = "DotNetRuntimeContractDescriptor";

struct ContractDescriptor {
  std::uint64_t address = 0;      // of the structure in the target
  std::uint64_t runtimeBase = 0;  // libcoreclr.so's load address (0 when read at an address given)
  std::string runtimePath;        // its file
  std::uint32_t flags = 0;
  std::string json;                        // the descriptor, descriptor_size bytes of UTF-8
  std::vector<std::uint64_t> pointerData;  // pointer_data_count target pointers
};

// The descriptor of the runtime loaded in `target`: libcoreclr.so among its
// mapped files, its export, then the structure. A target without that
// module or export (not .NET, or a runtime before .NET 9) is
// runtime-not-found, naming what is missing; a structure that is not one
// is runtime-descriptor-invalid at its target address.
Expected<ContractDescriptor> readContractDescriptor(const TargetMemory& target);

// The descriptor structure at `address` (a caller that found it itself).
Expected<ContractDescriptor> readContractDescriptorAt(const TargetMemory& target, std::uint64_t address);

}  // namespace gdmap::runtime
