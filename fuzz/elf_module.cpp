// Fuzz target: finding an export in an ELF module as loaded in a target's
// memory (elf::findExport), and reading a contract descriptor
// (runtime::readContractDescriptorAt), the target being the input mapped at 0x10000
// (a CallbackMemory). Every pointer the module holds is the fuzzer's, so
// it must never crash, hang or read outside the input, and an error is
// elf-invalid or target-unreadable; a symbol found lies in the address
// space (the base plus a value).
#include "fuzz_check.hpp"

#include <gdmap/reader/contract_descriptor.hpp>
#include <gdmap/reader/elf_module.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/schema/target_memory.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr std::uint64_t kBase = 0x10000;
  const gdmap::CallbackMemory target(
      [&](std::uint64_t address, gdmap::MutableByteSpan out) -> std::size_t {
        if (address < kBase || address - kBase >= size) return 0;
        const std::size_t n = std::min<std::size_t>(out.size(), size - (address - kBase));
        std::memcpy(out.data(), data + (address - kBase), n);
        return n;
      },
      "fuzz");
  // The input read as a contract descriptor too: its sizes and pointers are
  // the fuzzer's.
  const auto descriptor = gdmap::runtime::readContractDescriptorAt(target, kBase);
  if (!descriptor) {
    const gdmap::Error& e = descriptor.error();
    FUZZ_CHECK(e.rule == gdmap::rules::kRuntimeDescriptorInvalid || e.rule == gdmap::rules::kTargetUnreadable,
               gdmap::fuzz::describeError(e));
  } else {
    FUZZ_CHECK(descriptor->json.size() <= size && descriptor->pointerData.size() * 8 <= size,
               "a descriptor larger than the target");
  }
  for (const char* name : {"DotNetRuntimeContractDescriptor", "a", "malloc"}) {
    const auto found = gdmap::elf::findExport(target, kBase, name);
    if (!found) {
      const gdmap::Error& e = found.error();
      FUZZ_CHECK(e.rule == gdmap::rules::kElfInvalid || e.rule == gdmap::rules::kTargetUnreadable,
                 gdmap::fuzz::describeError(e));
    }
  }
  return 0;
}
