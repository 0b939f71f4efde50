#pragma once
// The code of a running .NET runtime, read from its memory (a live process,
// a core dump, or a caller's reader) through the runtime's contract
// descriptor (docs/runtime-contracts.md): the ExecutionManager's range
// sections (which part of the address space is JIT-compiled code, which a
// ReadyToRun image, which stubs), every JIT-compiled body of every code
// heap (the nibble map, the code headers), each body's method (token,
// module file, dynamic or not), its native code version (tier, IL version,
// active) and its IL-to-native bounds from the runtime's in-memory debug
// info.
//
// Supported: .NET 10 and .NET 11 on 64-bit little-endian targets, keyed on
// the exact contract versions verified against them (ExecutionManager 2 or
// "c1", and so on: supportedContracts()); any other version is
// runtime-contract-unsupported, naming the contract and the version. A
// runtime before .NET 9 has no descriptor at all (runtime-not-found).
//
// Nothing in the target is trusted: every pointer is read through bounds-
// checked target reads (a page not in a dump is target-not-in-dump at its
// address, never a crash), every list is bounded and cycle-checked, every
// count and size is checked against a limit before it is used, and a
// structure that makes no sense (a nibble map entry outside its heap, a
// code header whose unwind table runs backwards) is runtime-data-invalid
// at its target address. The work is linear in what the runtime holds.
//
// A RuntimeCode is a snapshot: the range sections are read when it is
// opened, and every page it reads is kept (up to 64 MiB). On a live process
// code compiled later may be missed or half seen; open a new one to see it.
#include <gdmap/reader/contract_descriptor.hpp>
#include <gdmap/reader/data_descriptor.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/il_map.hpp>
#include <gdmap/schema/target_memory.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gdmap::runtime {

// How the runtime writes the debug info of JIT-compiled code.
enum class JitDebugInfoForm : std::uint8_t {
  FlagByte,   // .NET 10: a flag byte, patchpoint and rich info, then the nibble header and packed2 bounds
  FatHeader,  // .NET 11 (DebugInfo "c1"): R2R 17's compact or fat nibble header, packed3 bounds
};

// One contract gdmap reads, and the versions of it it knows.
struct SupportedContract {
  const char* name;
  std::vector<std::string> versions;  // as the descriptor writes them: "2", "c1"
  bool required;                      // false: absent is fine (DebugInfo in .NET 10)
};
const std::vector<SupportedContract>& supportedContracts();

// What a range section of the ExecutionManager covers.
enum class RangeKind : std::uint8_t { JitCodeHeap, ReadyToRun, Stubs, Interpreter, Other };

struct CodeRangeSection {
  std::uint64_t address = 0;  // the RangeSection
  std::uint64_t begin = 0;
  std::uint64_t end = 0;  // past the last byte
  std::uint32_t flags = 0;
  RangeKind kind = RangeKind::Other;
  std::uint64_t heapList = 0;  // JitCodeHeap: the CodeHeapListNode
  std::uint64_t module = 0;    // ReadyToRun: the Module
};

// A module the runtime loaded (a Module), as far as gdmap needs it.
struct ManagedModule {
  std::uint64_t address = 0;    // the Module
  std::string path;             // its file; empty: none (in memory, dynamic)
  std::uint64_t imageBase = 0;  // where its image is mapped (Module.Base)
};

// A method's identity (a MethodDesc).
struct MethodIdentity {
  std::uint64_t methodDesc = 0;
  std::uint32_t token = 0;          // 0x06000000 | RID; RID 0 for a dynamic method
  std::uint64_t module = 0;         // the Module (MethodDesc -> chunk -> MethodTable -> Module)
  std::uint8_t classification = 0;  // MethodDesc.Flags & 7: 0 IL, 5 instantiated, 7 dynamic...
  bool dynamic = false;             // no metadata: a DynamicMethod (LCG) or a stub's IL
  std::string dynamicName;          // a dynamic method's own name (DynamicMethodDesc.MethodName), when published
  // Whether tiered compilation may replace its code (its first code is
  // then tier 0; otherwise its only code is fully optimized).
  bool eligibleForTiering = false;
};

// A type as the runtime holds it (a TypeHandle: a MethodTable or a
// TypeDesc), as far as naming it needs.
struct RuntimeType {
  enum class Kind : std::uint8_t {
    Class,      // a reference type: module + typeDef (+ arguments when generic)
    ValueType,  // a value type: the same
    Canon,      // System.__Canon, the placeholder of shared generic code (.NET 11 says which it is)
    SzArray,    // arguments[0][]
    Array,      // a multi-dimensional array of arguments[0]
    Pointer,    // arguments[0]*
    ByRef,      // arguments[0]&
    Other,      // a type gdmap does not name (a generic parameter, a function pointer...)
  };
  Kind kind = Kind::Other;
  std::uint64_t module = 0;   // the Module defining it (Class, ValueType, Canon)
  std::uint32_t typeDef = 0;  // 0x02xxxxxx (Class, ValueType, Canon)
  std::vector<RuntimeType> arguments;
};

// A method's generic instantiation: its owner type's arguments and its own.
struct MethodInstantiation {
  std::vector<RuntimeType> typeArguments;
  std::vector<RuntimeType> methodArguments;
};

// A block of code at an absolute address.
struct CodeBlock {
  std::uint64_t start = 0;
  std::uint32_t size = 0;
  friend bool operator==(const CodeBlock&, const CodeBlock&) = default;
};

// Which native code version of its method a body is.
struct NativeCodeVersion {
  // An explicit version (a NativeCodeVersionNode: tier-up, OSR, ReJIT), or
  // the method's default one (its first code).
  bool explicitVersion = false;
  std::uint64_t node = 0;                    // the NativeCodeVersionNode (explicit only)
  std::optional<il::OptimizationTier> tier;  // absent: the runtime does not say
  std::uint64_t ilVersion = 0;               // 0: the original IL
  bool active = false;                       // the version the runtime calls now
  // False when the method's versions could not be read (a MethodDesc not
  // in the dump): the body is listed, its version unknown.
  bool known = true;
};

// One JIT-compiled body: one native code version of a method.
struct JitBody {
  std::uint64_t start = 0;
  std::uint32_t size = 0;         // the body and its funclets (one block)
  std::vector<CodeBlock> ranges;  // each runtime function (the body, then each funclet), merged where contiguous
  std::uint64_t codeHeader = 0;   // the RealCodeHeader
  std::uint64_t methodDesc = 0;
  std::uint64_t debugInfo = 0;  // the blob; 0: none
  NativeCodeVersion version;
};

// A body's debug info, decoded.
struct JitDebugInfo {
  il::BoundsForm form = il::BoundsForm::Packed2;
  std::uint64_t boundsAddress = 0;  // of the first bounds byte
  std::vector<il::Bound> bounds;
  // When a profiler rewrote the IL: the bounds mapped back to the
  // original IL (empty otherwise).
  std::vector<il::Bound> uninstrumentedBounds;
};

class RuntimeCode {
 public:
  // Reads the descriptor, checks its contracts, resolves every layout gdmap
  // needs (an absent field is named now, not at first use) and walks the
  // range section map. `target` must outlive the object.
  static Expected<RuntimeCode> open(const TargetMemory& target);
  // The same with a descriptor the caller read (or read from the runtime's
  // file on disk: readContractDescriptorFromFile).
  static Expected<RuntimeCode> open(const TargetMemory& target, ContractDescriptor descriptor);
  // The same with the descriptor at `descriptorAddress` (an in-process
  // profiler knows it), or found as open(target) does when it is 0: what
  // the C ABI's `descriptorAddress` arguments mean.
  static Expected<RuntimeCode> openAt(const TargetMemory& target, std::uint64_t descriptorAddress);

  RuntimeCode(RuntimeCode&&) noexcept;
  RuntimeCode& operator=(RuntimeCode&&) noexcept;
  ~RuntimeCode();

  const ContractDescriptor& contractDescriptor() const;
  const DataDescriptor& dataDescriptor() const;
  JitDebugInfoForm debugInfoForm() const;
  // "10.0.12"-like when the runtime says (.NET 11: RuntimeProductVersionString); else empty.
  std::string productVersion() const;

  // Every range section, ascending by begin.
  const std::vector<CodeRangeSection>& rangeSections() const;
  // The section holding `address`, if any.
  const CodeRangeSection* sectionAt(std::uint64_t address) const;

  // Every JIT-compiled body of every code heap, ascending by start (stubs
  // left out), each labelled with its code version.
  Expected<std::vector<JitBody>> jitBodies() const;
  // The JIT-compiled body holding `address` (range section, nibble map,
  // code header), without enumerating the heaps; nothing when `address` is
  // in no code heap, in a stub, or between bodies.
  Expected<std::optional<JitBody>> jitBodyAt(std::uint64_t address) const;

  Expected<MethodIdentity> method(std::uint64_t methodDesc) const;
  // Its generic arguments (empty lists: not generic), read from the
  // MethodTable's and the InstantiatedMethodDesc's dictionaries.
  Expected<MethodInstantiation> instantiation(std::uint64_t methodDesc) const;
  Expected<ManagedModule> module(std::uint64_t moduleAddress) const;
  Expected<JitDebugInfo> debugInfo(const JitBody& body) const;

  struct State;  // the reader's own (reader/runtime/runtime_state.hpp)

 private:
  explicit RuntimeCode(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace gdmap::runtime
