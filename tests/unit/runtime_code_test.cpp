// reader/runtime on a synthetic runtime: a descriptor, a range section map,
// one code heap with its nibble map, a code header, a MethodDesc with its
// chunk, MethodTable and Module, native code versions and .NET 11 debug
// info, laid out in a target made of a few blocks, so that every step of
// the walk is checked against known values and each rule is met by
// breaking one thing.
#include <gdmap/internal/nibble_writer.hpp>
#include <gdmap/reader/contract_descriptor.hpp>
#include <gdmap/reader/data_descriptor.hpp>
#include <gdmap/reader/runtime_code.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/schema/target_memory.hpp>
#include <gdmap/writer/bounds_encoder.hpp>

#include <doctest/doctest.h>

#include <cstring>
#include <map>
#include <string>

namespace gdmap::runtime {
namespace {

constexpr std::uint64_t kDescriptor = 0x10000;
constexpr std::uint64_t kJson = 0x11000;
constexpr std::uint64_t kPointers = 0x18000;
constexpr std::uint64_t kMap = 0x100000;  // the range section map's top level; the other levels follow
constexpr std::uint64_t kSection = 0x200000;
constexpr std::uint64_t kFragment = 0x200100;
constexpr std::uint64_t kHeap = 0x200200;
constexpr std::uint64_t kNibbles = 0x300000;
constexpr std::uint64_t kHeader = 0x400000;
constexpr std::uint64_t kChunk = 0x500000;
constexpr std::uint64_t kMethodDesc = kChunk + 24;
constexpr std::uint64_t kCodeData = 0x510000;
constexpr std::uint64_t kVersioning = 0x520000;
constexpr std::uint64_t kNode = 0x530000;
constexpr std::uint64_t kMethodTable = 0x600000;
constexpr std::uint64_t kModule = 0x700000;
constexpr std::uint64_t kPath = 0x700400;
constexpr std::uint64_t kDebugInfo = 0x800000;
constexpr std::uint64_t kCode = 0x7f0000010000;
constexpr std::uint64_t kBody = kCode + 0x100;   // the default version
constexpr std::uint64_t kBody2 = kCode + 0x200;  // an explicit version (tier 1)
constexpr std::uint32_t kBodySize = 0x40;

const char* kTypes = R"("types": {
  "RangeSectionMap": {"TopLevelData": 0},
  "RangeSectionFragment": {"Next": 0, "RangeBegin": 8, "RangeEndOpen": 16, "RangeSection": 24},
  "RangeSection": {"RangeBegin": 0, "RangeEndOpen": 8, "Flags": 16, "JitManager": 24, "R2RModule": 32, "HeapList": 40, "NextForDelete": 64},
  "CodeHeapListNode": {"Next": 0, "StartAddress": 16, "EndAddress": 24, "MapBase": 32, "HeaderMap": 40},
  "RealCodeHeader": {"DebugInfo": 0, "GCInfo": 16, "MethodDesc": 24, "NumUnwindInfos": 32, "UnwindInfos": 36},
  "RuntimeFunction": {"!": 12, "BeginAddress": 0, "EndAddress": 4},
  "MethodDesc": {"!": 16, "Flags3AndTokenRemainder": 0, "ChunkIndex": 2, "Flags": 6, "CodeData": 8},
  "MethodDescChunk": {"!": 24, "MethodTable": 0, "FlagsAndTokenRange": 18},
  "MethodTable": {"MTFlags": 0, "MTFlags2": 8, "Module": 24, "PerInstInfo": 48},
  "GenericsDictInfo": {"NumDicts": 4, "NumTypeArgs": 6},
  "InstantiatedMethodDesc": {"PerInstInfo": 24, "Flags2": 32, "NumGenericArgs": 34},
  "TypeDesc": {"TypeAndFlags": 0},
  "DynamicMethodDesc": {"MethodName": 32},
  "ParamTypeDesc": {"TypeArg": 16},
  "Module": {"Path": 200, "Base": 224},
  "MethodDescCodeData": {"VersioningState": 0, "OptimizationTier": 8},
  "MethodDescVersioningState": {"Flags": 8, "NativeCodeVersionNode": 16},
  "NativeCodeVersionNode": {"NativeCode": 0, "ILVersionId": 16, "Next": 24, "OptimizationTier": 36, "Flags": 52}
})";

// A target of sparse blocks, and the synthetic runtime written into it.
struct Synthetic {
  std::map<std::uint64_t, Bytes> blocks;
  std::string architecture = "x64";
  std::string contracts =
      R"({"ExecutionManager": "c1", "CodeVersions": "c1", "RuntimeTypeSystem": "c1", "Loader": "c1", "DebugInfo": "c1"})";
  std::vector<il::Bound> bounds = {{0, 0xFFFFFFFE, 2}, {5, 0, 0}, {0x20, 4, 0x10}, {0x3a, 0xFFFFFFFD, 0}};

  void put(std::uint64_t at, std::uint64_t value, unsigned width) {
    for (unsigned i = 0; i < width; ++i) bytesAt(at + i) = static_cast<std::uint8_t>(value >> (8 * i));
  }
  void putBytes(std::uint64_t at, const Bytes& b) {
    for (std::size_t i = 0; i < b.size(); ++i) bytesAt(at + i) = b[i];
  }
  // The byte at `at`, in the 64 KiB block holding it.
  std::uint8_t& bytesAt(std::uint64_t at) {
    Bytes& block = blocks[at & ~0xFFFFull];
    if (block.empty()) block.resize(0x10000);
    return block[at & 0xFFFF];
  }
  std::size_t read(std::uint64_t at, MutableByteSpan out) const {
    std::size_t n = 0;
    for (; n < out.size(); ++n) {
      const auto it = blocks.find((at + n) & ~0xFFFFull);
      if (it == blocks.end()) break;
      out[n] = it->second[(at + n) & 0xFFFF];
    }
    return n;
  }

  void build() {
    const std::string json = std::string(R"({"version": 2, "baseline": "empty", )") + kTypes +
                             R"(, "globals": {"ExecutionManagerCodeRangeMapAddress": [[1], "pointer"],
      "StubCodeBlockLast": "0xf", "MethodDescAlignment": "0x8", "MethodDescTokenRemainderBitCount": "0xc",
      "RuntimeProductVersionString": ["11.0.0", "string"], "Architecture": [")" +
                             architecture + R"(", "string"]}, "contracts": )" + contracts + "}";
    put(kDescriptor, kContractDescriptorMagic, 8);
    put(kDescriptor + 8, 1, 4);
    put(kDescriptor + 12, json.size(), 4);
    put(kDescriptor + 16, kJson, 8);
    put(kDescriptor + 24, 2, 4);
    put(kDescriptor + 32, kPointers, 8);
    putBytes(kJson, Bytes(json.begin(), json.end()));
    put(kPointers + 8, kMap, 8);
    // Five levels down to the fragment of kCode's 128 KiB chunk.
    std::uint64_t level = kMap;
    for (unsigned l = 5; l >= 1; --l) {
      const std::uint64_t index = (kCode >> (17 + 8 * (l - 1))) & 0xFF;
      const std::uint64_t next = l > 1 ? kMap + 0x1000 * (6 - l) : kFragment;
      put(level + 8 * index, next | 1, 8);  // the collectible tag bit, which readers mask
      level = next;
    }
    put(kFragment + 8, kCode, 8);
    put(kFragment + 16, kCode + 0x10000, 8);
    put(kFragment + 24, kSection, 8);
    put(kSection, kCode, 8);
    put(kSection + 8, kCode + 0x10000, 8);
    put(kSection + 16, 0x2, 4);  // a code heap
    put(kSection + 40, kHeap, 8);
    put(kHeap + 16, kCode, 8);
    put(kHeap + 24, kCode + 0x1000, 8);
    put(kHeap + 32, kCode, 8);
    put(kHeap + 40, kNibbles, 8);
    // Body 1 at bucket 8 (unit 1, first nibble), body 2 at bucket 16 (unit 2).
    put(kNibbles + 4, 0x10000000, 4);
    put(kNibbles + 8, 0x10000000, 4);
    for (const std::uint64_t body : {kBody, kBody2}) {
      put(body - 8, kHeader, 8);
    }
    put(kHeader, kDebugInfo, 8);
    put(kHeader + 24, kMethodDesc, 8);
    put(kHeader + 32, 1, 4);
    put(kHeader + 36, kBody - kCode, 4);
    put(kHeader + 40, kBody - kCode + kBodySize, 4);
    // The second body's header: the same method, its own code.
    put(kBody2 - 8, kHeader + 0x100, 8);
    put(kHeader + 0x100 + 24, kMethodDesc, 8);
    put(kHeader + 0x100 + 32, 1, 4);
    put(kHeader + 0x100 + 36, kBody2 - kCode, 4);
    put(kHeader + 0x100 + 40, kBody2 - kCode + 0x10, 4);
    put(kMethodDesc, 0x8000 | 0x005, 2);  // eligible for tiering, token remainder 5
    put(kMethodDesc + 8, kCodeData, 8);
    put(kChunk, kMethodTable, 8);
    put(kChunk + 18, 0x1, 2);  // token range 1: RID 0x1005
    put(kMethodTable + 24, kModule, 8);
    put(kModule + 200, kPath, 8);
    const std::u16string path = u"/app/App.dll";
    for (std::size_t i = 0; i <= path.size(); ++i) put(kPath + 2 * i, i < path.size() ? path[i] : 0, 2);
    put(kCodeData, kVersioning, 8);
    put(kCodeData + 8, 0xFFFFFFFF, 4);  // the default version's tier: not known yet
    put(kVersioning + 8, 0, 1);         // the default version is not the active one
    put(kVersioning + 16, kNode, 8);
    put(kNode, kBody2, 8);
    put(kNode + 16, 0, 8);
    put(kNode + 36, 1, 4);  // tier 1
    put(kNode + 52, 1, 4);  // active
    // .NET 11 debug info: the compact header, then packed3 bounds.
    Expected<Bytes> encoded = il::encodeCompressedBounds(bounds, il::BoundsForm::Packed3);
    REQUIRE_MESSAGE(encoded, (encoded ? "" : encoded.error().message));
    Bytes blob;
    il::NibbleWriter header(blob);
    header.u32(static_cast<std::uint32_t>(encoded->size()));
    header.u32(0);
    blob.insert(blob.end(), encoded->begin(), encoded->end());
    putBytes(kDebugInfo, blob);
  }

  CallbackMemory target() const {
    return CallbackMemory([this](std::uint64_t at, MutableByteSpan out) { return read(at, out); }, "synthetic");
  }
};

Expected<RuntimeCode> openSynthetic(const Synthetic&, const TargetMemory& target) {
  Expected<ContractDescriptor> d = readContractDescriptorAt(target, kDescriptor);
  if (!d) return d.error();
  return RuntimeCode::open(target, std::move(*d));
}

TEST_CASE("runtime code: a synthetic runtime's heap, method, versions and debug info") {
  Synthetic s;
  s.build();
  const CallbackMemory target = s.target();
  Expected<RuntimeCode> code = openSynthetic(s, target);
  REQUIRE_MESSAGE(code, (code ? "" : code.error().message));
  CHECK(code->productVersion() == "11.0.0");
  CHECK(code->debugInfoForm() == JitDebugInfoForm::FatHeader);
  REQUIRE(code->rangeSections().size() == 1);
  CHECK(code->rangeSections()[0].kind == RangeKind::JitCodeHeap);
  CHECK(code->sectionAt(kCode + 5) == &code->rangeSections()[0]);
  CHECK(code->sectionAt(kCode - 1) == nullptr);

  Expected<std::vector<JitBody>> bodies = code->jitBodies();
  REQUIRE_MESSAGE(bodies, (bodies ? "" : bodies.error().message));
  REQUIRE(bodies->size() == 2);
  const JitBody& first = (*bodies)[0];
  CHECK(first.start == kBody);
  CHECK(first.size == kBodySize);
  CHECK(first.methodDesc == kMethodDesc);
  CHECK(!first.version.explicitVersion);
  CHECK(first.version.tier == il::OptimizationTier::Tier0);  // not kept: a method eligible for tiering starts at tier 0
  CHECK(!first.version.active);
  const JitBody& second = (*bodies)[1];
  CHECK(second.version.explicitVersion);
  CHECK(second.version.node == kNode);
  CHECK(second.version.tier == il::OptimizationTier::Tier1);
  CHECK(second.version.active);

  Expected<MethodIdentity> m = code->method(kMethodDesc);
  REQUIRE(m);
  CHECK(m->token == 0x06001005);
  CHECK(m->eligibleForTiering);
  CHECK(!m->dynamic);
  Expected<ManagedModule> module = code->module(m->module);
  REQUIRE(module);
  CHECK(module->path == "/app/App.dll");

  Expected<JitDebugInfo> info = code->debugInfo(first);
  REQUIRE_MESSAGE(info, (info ? "" : info.error().message));
  CHECK(info->form == il::BoundsForm::Packed3);
  CHECK(info->bounds == s.bounds);

  // An address inside a body, after its end, and before any body.
  Expected<std::optional<JitBody>> at = code->jitBodyAt(kBody + 0x21);
  REQUIRE(at);
  REQUIRE(at->has_value());
  CHECK((*at)->start == kBody);
  Expected<std::optional<JitBody>> after = code->jitBodyAt(kBody + kBodySize + 4);
  REQUIRE(after);
  CHECK(!after->has_value());
  Expected<std::optional<JitBody>> before = code->jitBodyAt(kCode + 0x10);
  REQUIRE(before);
  CHECK(!before->has_value());
}

TEST_CASE("runtime code: a generic method of a generic type, its arguments read from the dictionaries") {
  Synthetic s;
  s.build();
  constexpr std::uint64_t kElement = 0x610000;    // a class, TypeDef row 7
  constexpr std::uint64_t kArray = 0x620000;      // its SzArray
  constexpr std::uint64_t kValue = 0x630000;      // a value type, row 5
  constexpr std::uint64_t kOwnerInfo = 0x640000;  // the owner's GenericsDictInfo, then PerInstInfo
  constexpr std::uint64_t kOwnerDict = 0x650000;
  constexpr std::uint64_t kMethodDict = 0x660000;
  // The owner type: generic (shared instantiation), one dictionary, one argument: Element[].
  s.put(kMethodTable, 0x20, 4);
  s.put(kMethodTable + 48, kOwnerInfo + 8, 8);
  s.put(kOwnerInfo + 4, 1, 2);
  s.put(kOwnerInfo + 6, 1, 2);
  s.put(kOwnerInfo + 8, kOwnerDict, 8);
  s.put(kOwnerDict, kArray, 8);
  s.put(kArray, 0x80000000u | 0x00080000u | 0x00020000u | 8, 4);  // component size 8, an SzArray
  s.put(kArray + 48, kElement, 8);
  s.put(kElement, 0, 4);
  s.put(kElement + 8, 7u << 8, 4);
  s.put(kElement + 24, kModule, 8);
  // The method: instantiated (classification 5, an unshared instantiation), one argument: Value.
  s.put(kMethodDesc + 6, 5, 2);
  s.put(kMethodDesc + 24, kMethodDict, 8);
  s.put(kMethodDesc + 32, 1, 2);
  s.put(kMethodDesc + 34, 1, 2);
  s.put(kMethodDict, kValue, 8);
  s.put(kValue, 0x00040000u, 4);
  s.put(kValue + 8, 5u << 8, 4);
  s.put(kValue + 24, kModule, 8);
  const CallbackMemory target = s.target();
  Expected<RuntimeCode> code = openSynthetic(s, target);
  REQUIRE(code);
  Expected<MethodInstantiation> inst = code->instantiation(kMethodDesc);
  REQUIRE_MESSAGE(inst, (inst ? "" : inst.error().message));
  REQUIRE(inst->typeArguments.size() == 1);
  CHECK(inst->typeArguments[0].kind == RuntimeType::Kind::SzArray);
  REQUIRE(inst->typeArguments[0].arguments.size() == 1);
  CHECK(inst->typeArguments[0].arguments[0].kind == RuntimeType::Kind::Class);
  CHECK(inst->typeArguments[0].arguments[0].typeDef == 0x02000007);
  CHECK(inst->typeArguments[0].arguments[0].module == kModule);
  REQUIRE(inst->methodArguments.size() == 1);
  CHECK(inst->methodArguments[0].kind == RuntimeType::Kind::ValueType);
  CHECK(inst->methodArguments[0].typeDef == 0x02000005);

  // A dictionary that claims a thousand arguments: runtime-data-invalid, not a long read.
  s.put(kMethodDesc + 34, 1000, 2);
  const CallbackMemory absurd = s.target();
  Expected<RuntimeCode> again = openSynthetic(s, absurd);
  REQUIRE(again);
  Expected<MethodInstantiation> bad = again->instantiation(kMethodDesc);
  REQUIRE(!bad);
  CHECK(bad.error().rule == "runtime-data-invalid");
}

TEST_CASE("runtime code: a dynamic method, named by the runtime when its name is there") {
  Synthetic s;
  s.build();
  constexpr std::uint64_t kName = 0x670000;
  s.put(kMethodDesc + 6, 7, 2);  // classification 7: dynamic
  s.put(kMethodDesc + 32, kName, 8);
  const std::string name = "Regex1_Scan";
  s.putBytes(kName, Bytes(name.begin(), name.end() + 1));
  const CallbackMemory target = s.target();
  Expected<RuntimeCode> code = openSynthetic(s, target);
  REQUIRE(code);
  Expected<MethodIdentity> m = code->method(kMethodDesc);
  REQUIRE(m);
  CHECK(m->dynamic);
  CHECK(m->token == 0x06000000);
  CHECK(m->dynamicName == "Regex1_Scan");
  // A dump that left the string out: the method, without its name.
  s.put(kMethodDesc + 32, 0x7e0000000000, 8);
  const CallbackMemory partial = s.target();
  Expected<RuntimeCode> again = openSynthetic(s, partial);
  REQUIRE(again);
  Expected<MethodIdentity> unnamed = again->method(kMethodDesc);
  REQUIRE(unnamed);
  CHECK(unnamed->dynamic);
  CHECK(unnamed->dynamicName.empty());
}

TEST_CASE("runtime code: a contract version gdmap does not know is named") {
  Synthetic s;
  s.contracts =
      R"({"ExecutionManager": "c9", "CodeVersions": "c1", "RuntimeTypeSystem": "c1", "Loader": "c1", "DebugInfo": "c1"})";
  s.build();
  const CallbackMemory target = s.target();
  Expected<RuntimeCode> code = openSynthetic(s, target);
  REQUIRE(!code);
  CHECK(code.error().rule == "runtime-contract-unsupported");
  CHECK(code.error().message.find("ExecutionManager contract is version c9") != std::string::npos);
}

TEST_CASE("runtime code: a runtime for another architecture is named, not misread") {
  Synthetic s;
  s.architecture = "arm64";
  s.build();
  const CallbackMemory target = s.target();
  Expected<RuntimeCode> code = openSynthetic(s, target);
  REQUIRE(!code);
  CHECK(code.error().rule == "runtime-contract-unsupported");
  CHECK(code.error().message.find("built for arm64") != std::string::npos);
}

TEST_CASE("runtime code: a fragment list that loops is runtime-data-invalid") {
  Synthetic s;
  s.build();
  s.put(kFragment, kFragment, 8);  // Next: itself
  const CallbackMemory target = s.target();
  Expected<RuntimeCode> code = openSynthetic(s, target);
  REQUIRE(!code);
  CHECK(code.error().rule == "runtime-data-invalid");
  CHECK(code.error().offset == kFragment);
}

TEST_CASE("runtime code: an absurd unwind count and a pointer into nowhere") {
  Synthetic s;
  s.build();
  s.put(kHeader + 32, 0x7FFFFFFF, 4);  // NumUnwindInfos
  const CallbackMemory target = s.target();
  Expected<RuntimeCode> code = openSynthetic(s, target);
  REQUIRE(code);
  Expected<std::vector<JitBody>> bodies = code->jitBodies();
  REQUIRE(!bodies);
  CHECK(bodies.error().rule == rules::kRuntimeDataInvalid);
  CHECK(bodies.error().offset == kHeader);

  Synthetic t;
  t.build();
  t.put(kHeader + 24, 0x7e0000000000, 8);  // MethodDesc: unmapped
  const CallbackMemory nowhere = t.target();
  Expected<RuntimeCode> again = openSynthetic(t, nowhere);
  REQUIRE(again);
  Expected<std::vector<JitBody>> b = again->jitBodies();
  REQUIRE(b);  // the versions of an unreadable MethodDesc: the body is found, its method is not
  Expected<MethodIdentity> m = again->method(0x7e0000000000);
  REQUIRE(!m);
  CHECK(m.error().rule == rules::kTargetUnreadable);
  CHECK(m.error().offset == 0x7e0000000000);
}

TEST_CASE("runtime code: debug info that claims more bytes than a method has") {
  Synthetic s;
  s.build();
  Bytes huge;
  il::NibbleWriter header(huge);
  header.u32(0x7FFFFFFF);
  header.u32(0);
  s.putBytes(kDebugInfo, huge);
  const CallbackMemory target = s.target();
  Expected<RuntimeCode> code = openSynthetic(s, target);
  REQUIRE(code);
  Expected<std::vector<JitBody>> bodies = code->jitBodies();
  REQUIRE(bodies);
  Expected<JitDebugInfo> info = code->debugInfo(bodies->front());
  REQUIRE(!info);
  CHECK(info.error().rule == "runtime-debug-info-invalid");
  CHECK(info.error().offset == kDebugInfo);
}

TEST_CASE("data descriptor: the JSON's forms, and what it lacks named") {
  ContractDescriptor d;
  d.pointerData = {0, 0x1234};
  d.json = R"({"version": 0, "types": {"T": {"!": 24, "A": 8, "B": [16, "pointer"]}},
    "globals": {"Direct": "0x10", "Typed": ["12", "uint8"], "Indirect": [[1], "pointer"], "Bare": [1],
                "Name": ["x64", "string"]},
    "contracts": {"Loader": 1, "DebugInfo": "c1"}})";
  Expected<DataDescriptor> data = readDataDescriptor(d);
  REQUIRE_MESSAGE(data, (data ? "" : data.error().message));
  CHECK(*data->size("T") == 24);
  CHECK(*data->offset("T", "B") == 16);
  CHECK(*data->global("Direct") == 0x10);
  CHECK(*data->global("Typed") == 12);
  CHECK(*data->global("Indirect") == 0x1234);
  CHECK(*data->global("Bare") == 0x1234);
  CHECK(data->globals.at("Name").text == "x64");
  CHECK(data->contract("Loader") == std::optional<std::string>("1"));
  CHECK(data->contract("DebugInfo") == std::optional<std::string>("c1"));
  const Expected<std::uint32_t> missing = data->offset("T", "C");
  REQUIRE(!missing);
  CHECK(missing.error().rule == rules::kRuntimeDescriptorInvalid);
  CHECK(missing.error().message.find("T.C") != std::string::npos);

  d.json = R"({"types": {}, "globals": {"G": [[7], "pointer"]}, "contracts": {}})";  // slot 7 of 2
  Expected<DataDescriptor> slot = readDataDescriptor(d);
  REQUIRE(!slot);
  CHECK(slot.error().rule == rules::kRuntimeDescriptorInvalid);
  CHECK(slot.error().message.find("/globals/G") != std::string::npos);

  d.json = std::string(5000, '[') + std::string(5000, ']');  // deep: refused before it costs a stack frame
  Expected<DataDescriptor> deep = readDataDescriptor(d);
  REQUIRE(!deep);
  CHECK(deep.error().message.find("nested deeper") != std::string::npos);
}

}  // namespace
}  // namespace gdmap::runtime
