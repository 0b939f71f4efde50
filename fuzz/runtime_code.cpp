// Fuzz target: reading a running runtime's code (reader/runtime) from a
// target whose every byte is the fuzzer's: the input is a recorded target
// (tests/support/target_records.hpp: the descriptor's address, then
// address/size/bytes records), seeded with the real .NET 10 and 11
// recordings of tests/data/runtime/. The contract descriptor, its JSON,
// the range section map, the code heaps and nibble maps, the code headers,
// MethodDescs, modules, code versions and debug info are all open to it.
// It must never crash, hang or read outside the records; an error is one
// of the runtime's or the target's rules; the bodies found are in order,
// disjoint, and each is found again from an address inside it.
#include "fuzz_check.hpp"
#include "tests/support/target_records.hpp"

#include <gdmap/reader/contract_descriptor.hpp>
#include <gdmap/reader/runtime_code.hpp>
#include <gdmap/schema/rules.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

bool knownRule(const std::string& rule) {
  namespace r = gdmap::rules;
  return rule == r::kRuntimeDescriptorInvalid || rule == r::kRuntimeContractUnsupported ||
         rule == r::kRuntimeDataInvalid || rule == r::kRuntimeDebugInfoInvalid || rule == r::kTargetUnreadable;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::optional<gdmap::testing::TargetRecords> records =
      gdmap::testing::TargetRecords::parse(gdmap::ByteSpan(data, size));
  if (!records) return 0;
  const gdmap::CallbackMemory target = records->target("fuzz");
  gdmap::Expected<gdmap::runtime::ContractDescriptor> d =
      gdmap::runtime::readContractDescriptorAt(target, records->descriptor);
  if (!d) {
    FUZZ_CHECK(knownRule(d.error().rule), gdmap::fuzz::describeError(d.error()));
    return 0;
  }
  gdmap::Expected<gdmap::runtime::RuntimeCode> code = gdmap::runtime::RuntimeCode::open(target, std::move(*d));
  if (!code) {
    FUZZ_CHECK(knownRule(code.error().rule), gdmap::fuzz::describeError(code.error()));
    return 0;
  }
  gdmap::Expected<std::vector<gdmap::runtime::JitBody>> bodies = code->jitBodies();
  if (!bodies) {
    FUZZ_CHECK(knownRule(bodies.error().rule), gdmap::fuzz::describeError(bodies.error()));
    return 0;
  }
  std::uint64_t end = 0;
  for (const gdmap::runtime::JitBody& b : *bodies) {
    FUZZ_CHECK(b.start >= end && b.size > 0, "bodies out of order or overlapping");
    end = b.start + b.size;
    const auto check = [](const gdmap::Error& e) { FUZZ_CHECK(knownRule(e.rule), gdmap::fuzz::describeError(e)); };
    if (const gdmap::Expected<gdmap::runtime::MethodIdentity> m = code->method(b.methodDesc); !m) {
      check(m.error());
    } else if (const gdmap::Expected<gdmap::runtime::ManagedModule> module = code->module(m->module); !module) {
      check(module.error());
    }
    if (const gdmap::Expected<gdmap::runtime::JitDebugInfo> info = code->debugInfo(b); !info) check(info.error());
    if (const gdmap::Expected<gdmap::runtime::MethodInstantiation> inst = code->instantiation(b.methodDesc); !inst) {
      check(inst.error());
    }
    const gdmap::Expected<std::optional<gdmap::runtime::JitBody>> again = code->jitBodyAt(b.start + b.size / 2);
    if (again && *again) FUZZ_CHECK((*again)->start <= b.start + b.size / 2, "a body found after the address");
  }
  return 0;
}
