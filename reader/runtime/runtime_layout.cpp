// The contracts gdmap reads and the versions verified against real
// runtimes (docs/runtime-contracts.md, sections 1.4 and 2-4). A .NET 11
// "cN" version is not the old integer N: "c1" of ExecutionManager is the
// nibble map of integer version 2, and "c1" of DebugInfo the fat header.
//
// .NET 10 leaves two fields out that the reader needs; each is taken from
// where .NET 11 publishes the same structure's field, only for .NET 10's
// exact contract version, and was checked on 10.0.12 (every blob decoded
// from offset 0; the tiers read at 36 match the runtime's perf map).
#include "runtime_layout.hpp"

#include <gdmap/schema/rules.hpp>

namespace gdmap::runtime {

const std::vector<SupportedContract>& supportedContracts() {
  static const std::vector<SupportedContract> kContracts = {
      {"ExecutionManager", {"2", "c1"}, true},
      {"CodeVersions", {"1", "c1"}, true},
      {"RuntimeTypeSystem", {"1", "c1"}, true},
      {"Loader", {"1", "c1"}, true},
      {"DebugInfo", {"c1"}, false},
  };
  return kContracts;
}

namespace {

constexpr const char* kNet10ExecutionManager = "2";

Status checkContracts(const DataDescriptor& d) {
  for (const SupportedContract& c : supportedContracts()) {
    const std::optional<std::string> version = d.contract(c.name);
    if (!version) {
      if (!c.required) continue;
      return Error(0,
                   std::string("the runtime declares no ") + c.name +
                       " contract, which gdmap needs to read its code (a runtime before .NET 10?)",
                   rules::kRuntimeContractUnsupported);
    }
    bool known = false;
    std::string list;
    for (const std::string& v : c.versions) {
      known = known || v == *version;
      list += (list.empty() ? "" : ", ") + v;
    }
    if (!known) {
      return Error(0,
                   std::string("the runtime's ") + c.name + " contract is version " + *version +
                       "; gdmap knows version(s) " + list + " (.NET 10 and 11)",
                   rules::kRuntimeContractUnsupported);
    }
  }
  // .NET 10's debug info form goes with its ExecutionManager; a runtime
  // with the newer ExecutionManager must say how its debug info is kept.
  if (!d.contract("DebugInfo") && *d.contract("ExecutionManager") != kNet10ExecutionManager) {
    return Error(0,
                 "the runtime declares no DebugInfo contract beside ExecutionManager " +
                     *d.contract("ExecutionManager") + ": gdmap cannot tell how its debug info is kept",
                 rules::kRuntimeContractUnsupported);
  }
  return Success{};
}

// Collects the first missing field: every lookup runs, the first error is kept.
class Resolver {
 public:
  explicit Resolver(const DataDescriptor& d) : d_(d) {}
  std::uint32_t offset(const char* type, const char* field) { return valueOf(d_.offset(type, field)); }
  std::optional<std::uint32_t> optionalOffset(const char* type, const char* field) {
    if (!d_.hasField(type, field)) return std::nullopt;
    return offset(type, field);
  }
  std::uint32_t size(const char* type) { return valueOf(d_.size(type)); }
  std::uint64_t global(const char* name) { return valueOf(d_.global(name)); }
  std::optional<Error> error;

 private:
  void keep(const Error& e) {
    if (!error) error = e;
  }
  // The value, or 0 and the error kept.
  template <typename T>
  T valueOf(const Expected<T>& found) {
    if (found) return *found;
    keep(found.error());
    return 0;
  }
  const DataDescriptor& d_;
};

// Where the code is: range sections, code heaps, code headers.
void resolveCodeLayout(Resolver& r, bool net10, RuntimeLayout& l) {
  l.fragment = {r.offset("RangeSectionFragment", "RangeBegin"), r.offset("RangeSectionFragment", "RangeEndOpen"),
                r.offset("RangeSectionFragment", "RangeSection"), r.offset("RangeSectionFragment", "Next")};
  l.section = {r.offset("RangeSection", "RangeBegin"),    r.offset("RangeSection", "RangeEndOpen"),
               r.offset("RangeSection", "NextForDelete"), r.offset("RangeSection", "Flags"),
               r.offset("RangeSection", "HeapList"),      r.offset("RangeSection", "R2RModule")};
  l.heap = {r.offset("CodeHeapListNode", "Next"), r.offset("CodeHeapListNode", "StartAddress"),
            r.offset("CodeHeapListNode", "EndAddress"), r.offset("CodeHeapListNode", "MapBase"),
            r.offset("CodeHeapListNode", "HeaderMap")};
  // .NET 10 does not publish RealCodeHeader.DebugInfo: the first field.
  const std::optional<std::uint32_t> debugInfo = r.optionalOffset("RealCodeHeader", "DebugInfo");
  l.codeHeader = {debugInfo ? *debugInfo : (net10 ? 0u : r.offset("RealCodeHeader", "DebugInfo")),
                  r.offset("RealCodeHeader", "MethodDesc"),
                  r.offset("RealCodeHeader", "NumUnwindInfos"),
                  r.offset("RealCodeHeader", "UnwindInfos"),
                  r.size("RuntimeFunction"),
                  r.offset("RuntimeFunction", "BeginAddress"),
                  r.offset("RuntimeFunction", "EndAddress")};
}

// What a body's MethodDesc says: its token, chunk, module and name.
void resolveMethodLayout(Resolver& r, RuntimeLayout& l) {
  l.methodDesc = {r.offset("MethodDesc", "Flags3AndTokenRemainder"), r.offset("MethodDesc", "ChunkIndex"),
                  r.offset("MethodDesc", "Flags"), r.offset("MethodDesc", "CodeData")};
  l.chunk = {r.size("MethodDescChunk"), r.offset("MethodDescChunk", "MethodTable"),
             r.offset("MethodDescChunk", "FlagsAndTokenRange")};
  l.methodTableModule = r.offset("MethodTable", "Module");
  l.dynamicMethodName = r.optionalOffset("DynamicMethodDesc", "MethodName");
}

// Optional as a whole: without them a method's instantiation is not read.
void resolveGenerics(const DataDescriptor& d, RuntimeLayout& l) {
  Resolver g(d);
  l.generics = {g.offset("MethodTable", "MTFlags"),
                g.offset("MethodTable", "MTFlags2"),
                g.offset("MethodTable", "PerInstInfo"),
                g.offset("GenericsDictInfo", "NumDicts"),
                g.offset("GenericsDictInfo", "NumTypeArgs"),
                g.offset("InstantiatedMethodDesc", "PerInstInfo"),
                g.offset("InstantiatedMethodDesc", "Flags2"),
                g.offset("InstantiatedMethodDesc", "NumGenericArgs"),
                g.offset("TypeDesc", "TypeAndFlags"),
                g.offset("ParamTypeDesc", "TypeArg"),
                std::nullopt};
  l.hasGenerics = !g.error;
  if (const Expected<std::uint64_t> canon = d.global("CanonMethodTable")) l.generics.canon = *canon;
}

// Modules and code versions (tiers).
void resolveVersionLayout(Resolver& r, bool net10, RuntimeLayout& l) {
  l.module = {r.offset("Module", "Path"), r.offset("Module", "Base")};
  l.codeData = {r.offset("MethodDescCodeData", "VersioningState"),
                r.optionalOffset("MethodDescCodeData", "OptimizationTier")};
  l.versioningState = {r.offset("MethodDescVersioningState", "Flags"),
                       r.offset("MethodDescVersioningState", "NativeCodeVersionNode")};
  std::optional<std::uint32_t> nodeTier = r.optionalOffset("NativeCodeVersionNode", "OptimizationTier");
  if (!nodeTier && net10) nodeTier = 36;  // .NET 10 keeps it there unpublished (checked on 10.0.12)
  l.node = {r.offset("NativeCodeVersionNode", "NativeCode"), r.offset("NativeCodeVersionNode", "ILVersionId"),
            r.offset("NativeCodeVersionNode", "Next"), r.offset("NativeCodeVersionNode", "Flags"), nodeTier};
}

}  // namespace

Expected<RuntimeLayout> resolveLayout(const DataDescriptor& d) {
  if (Status s = checkContracts(d); !s) return s.error();
  // Checked on x64 only: ARM64's code headers keep a function's length in
  // its unwind data (no RuntimeFunction.EndAddress), which is not read.
  if (const auto arch = d.globals.find("Architecture"); arch != d.globals.end() && arch->second.text != "x64") {
    return Error(0,
                 "the runtime is built for " + arch->second.text +
                     "; gdmap reads the code of x64 runtimes (.NET 10 and 11 on Linux were checked)",
                 rules::kRuntimeContractUnsupported);
  }
  const bool net10 = !d.contract("DebugInfo");
  RuntimeLayout l;
  l.debugInfoForm = net10 ? JitDebugInfoForm::FlagByte : JitDebugInfoForm::FatHeader;
  Resolver r(d);
  l.rangeSectionMap = r.global("ExecutionManagerCodeRangeMapAddress") + r.offset("RangeSectionMap", "TopLevelData");
  if (d.globals.count("EEJitManagerAddress")) {
    l.eeJitManager = r.global("EEJitManagerAddress");
    l.eeJitManagerAllCodeHeaps = r.offset("EEJitManager", "AllCodeHeaps");
  }
  l.stubCodeBlockLast = r.global("StubCodeBlockLast");
  l.methodDescAlignment = r.global("MethodDescAlignment");
  const std::uint64_t remainderBits = r.global("MethodDescTokenRemainderBitCount");
  if (remainderBits == 0 || remainderBits > 24) {
    return Error(0, "MethodDescTokenRemainderBitCount " + std::to_string(remainderBits) + " is not 1 to 24",
                 rules::kRuntimeDescriptorInvalid);
  }
  l.tokenRemainderBits = static_cast<std::uint32_t>(remainderBits);

  resolveCodeLayout(r, net10, l);
  resolveMethodLayout(r, l);
  resolveGenerics(d, l);
  resolveVersionLayout(r, net10, l);
  if (r.error) return *r.error;
  if (l.codeHeader.runtimeFunctionSize < 8 || l.codeHeader.runtimeFunctionSize > 64) {
    return Error(0, "RuntimeFunction of " + std::to_string(l.codeHeader.runtimeFunctionSize) + " bytes",
                 rules::kRuntimeDescriptorInvalid);
  }
  if (l.methodDescAlignment == 0 || l.methodDescAlignment > 64) {
    return Error(0, "MethodDescAlignment " + std::to_string(l.methodDescAlignment), rules::kRuntimeDescriptorInvalid);
  }
  return l;
}

}  // namespace gdmap::runtime
