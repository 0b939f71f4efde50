// A body's method and code version (docs/runtime-contracts.md, section 4).
//
// Identity: a MethodDesc sits ChunkIndex x MethodDescAlignment bytes after
// the end of its MethodDescChunk header; the token's RID is the chunk's
// token range (high bits) and the MethodDesc's remainder (low
// MethodDescTokenRemainderBitCount bits); the chunk's MethodTable names the
// Module, whose Path is a NUL-terminated UTF-16 string.
//
// Versions: MethodDesc.CodeData -> MethodDescCodeData.VersioningState ->
// the list of NativeCodeVersionNodes (tier-up, OSR, ReJIT), each with the
// start of its code. A body that no node names is the method's default
// version, its first code.
#include "runtime_state.hpp"

#include <gdmap/internal/utf8_encode.hpp>

#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <cstring>
#include <unordered_set>

namespace gdmap::runtime {
namespace {

constexpr std::uint32_t kClassificationMask = 0x7;
constexpr std::uint32_t kDynamicClassification = 7;
constexpr std::uint16_t kEligibleForTiering = 0x8000;  // Flags3AndTokenRemainder
constexpr std::uint32_t kNodeActive = 0x1;
constexpr std::uint8_t kDefaultVersionActive = 0x4;
constexpr std::uint32_t kLastTier = static_cast<std::uint32_t>(il::OptimizationTier::Tier1Instrumented);

std::optional<il::OptimizationTier> tierOf(std::uint32_t value) {
  if (value > kLastTier) return std::nullopt;  // e.g. 0xFFFFFFFF: not known yet
  return static_cast<il::OptimizationTier>(value);
}

// A MethodDesc's Flags, and where its chunk starts: ChunkIndex alignment
// units and the chunk's own header before it.
struct DescChunk {
  std::uint16_t flags = 0;
  std::uint64_t chunk = 0;
};

Expected<DescChunk> descChunk(const RuntimeCode::State& s, std::uint64_t methodDesc, const std::string& what) {
  const RuntimeLayout& l = s.layout;
  Expected<std::uint8_t> chunkIndex = s.pages.u8(methodDesc + l.methodDesc.chunkIndex, what + " ChunkIndex");
  if (!chunkIndex) return chunkIndex.error();
  Expected<std::uint16_t> flags = s.pages.u16(methodDesc + l.methodDesc.flags, what + " Flags");
  if (!flags) return flags.error();
  const std::uint64_t back = std::uint64_t{*chunkIndex} * l.methodDescAlignment + l.chunk.size;
  if (back > methodDesc) return dataInvalid(methodDesc, what + ": its chunk would start below address 0");
  return DescChunk{*flags, methodDesc - back};
}

}  // namespace

Expected<MethodIdentity> RuntimeCode::method(std::uint64_t methodDesc) const {
  const State& s = *state_;
  const RuntimeLayout& l = s.layout;
  const std::string what = "MethodDesc " + shortHex(methodDesc);
  Expected<std::uint16_t> remainder = s.pages.u16(methodDesc + l.methodDesc.flags3AndTokenRemainder, what);
  if (!remainder) return remainder.error();
  const Expected<DescChunk> desc = descChunk(s, methodDesc, what);
  if (!desc) return desc.error();
  const std::uint64_t chunk = desc->chunk;
  const std::string chunkWhat = "MethodDescChunk " + shortHex(chunk) + " (of " + what + ")";
  Expected<std::uint64_t> methodTable = s.pages.u64(chunk + l.chunk.methodTable, chunkWhat + " MethodTable");
  if (!methodTable) return methodTable.error();
  Expected<std::uint16_t> range = s.pages.u16(chunk + l.chunk.flagsAndTokenRange, chunkWhat + " FlagsAndTokenRange");
  if (!range) return range.error();
  Expected<std::uint64_t> module = s.pages.u64(*methodTable + l.methodTableModule,
                                               "MethodTable " + shortHex(*methodTable) + " Module (of " + what + ")");
  if (!module) return module.error();
  const std::uint32_t bits = l.tokenRemainderBits;
  const std::uint32_t remainderMask = 0xFFFFFFu >> (24 - bits);
  const std::uint32_t rangeMask = 0xFFFFFFu >> bits;
  MethodIdentity m;
  m.methodDesc = methodDesc;
  m.classification = static_cast<std::uint8_t>(desc->flags & kClassificationMask);
  m.dynamic = m.classification == kDynamicClassification;
  m.eligibleForTiering = (*remainder & kEligibleForTiering) != 0;
  m.token = 0x06000000u | ((std::uint32_t{*range} & rangeMask) << bits) | (std::uint32_t{*remainder} & remainderMask);
  if (m.dynamic) m.token = 0x06000000u;  // no metadata: the bits are not a RID
  m.module = *module;
  // A dynamic method's name is for people: a dump that left its string
  // out (createdump --withheap keeps the MethodDesc, not always the name)
  // costs the name, not the method.
  if (m.dynamic && l.dynamicMethodName) {
    Expected<std::uint64_t> name = s.pages.u64(methodDesc + *l.dynamicMethodName, what + " MethodName");
    if (name && *name != 0) {
      if (Expected<std::string> text = s.readString(*name, what + " name")) m.dynamicName = std::move(*text);
    }
  }
  return m;
}

namespace {

// MethodTable flags (RuntimeTypeSystem, version 1): the low 16 bits hold
// the generics kind unless the type has a component size (a string or an
// array); the category bits say array, value type or interface.
constexpr std::uint32_t kHasComponentSize = 0x80000000u;
constexpr std::uint32_t kGenericsMask = 0x30u;
constexpr std::uint32_t kCategoryArrayMask = 0x000C0000u;
constexpr std::uint32_t kCategoryArray = 0x00080000u;
constexpr std::uint32_t kCategoryValueType = 0x00040000u;
constexpr std::uint32_t kIfArrayThenSzArray = 0x00020000u;
constexpr unsigned kTypeDefRidShift = 8;  // of MTFlags2
constexpr std::uint64_t kTypeDescBit = 0x2;
constexpr std::uint8_t kElementPointer = 0x0F;
constexpr std::uint8_t kElementByRef = 0x10;
constexpr int kMaxTypeDepth = 8;
constexpr std::uint32_t kMaxGenericArgs = 64;
constexpr std::uint16_t kInstantiatedKindMask = 0x7;  // InstantiatedMethodDesc.Flags2
constexpr std::uint16_t kGenericMethodDefinition = 0;
constexpr std::uint8_t kInstantiatedClassification = 5;

// The TypeHandles of a dictionary.
Expected<std::vector<std::uint64_t>> dictionaryArguments(const TargetPages& pages, std::uint64_t dictionary,
                                                         std::uint32_t count, const std::string& what) {
  if (count > kMaxGenericArgs)
    return dataInvalid(dictionary, what + ": " + std::to_string(count) + " generic arguments");
  std::vector<std::uint64_t> out;
  for (std::uint32_t i = 0; i < count; ++i) {
    Expected<std::uint64_t> handle = pages.u64(dictionary + 8ull * i, what + " argument " + std::to_string(i));
    if (!handle) return handle.error();
    out.push_back(*handle);
  }
  return out;
}

}  // namespace

Expected<RuntimeType> RuntimeCode::State::readType(std::uint64_t handle, int depth) const {
  const auto& g = layout.generics;
  RuntimeType t;
  if (handle == 0 || depth > kMaxTypeDepth) return t;
  if (handle & kTypeDescBit) {
    const std::uint64_t desc = handle & ~std::uint64_t{3};
    const std::string what = "TypeDesc " + shortHex(desc);
    Expected<std::uint32_t> typeAndFlags = pages.u32(desc + g.typeAndFlags, what + " TypeAndFlags");
    if (!typeAndFlags) return typeAndFlags.error();
    const auto element = static_cast<std::uint8_t>(*typeAndFlags & 0xFF);
    if (element != kElementPointer && element != kElementByRef) return t;  // a generic parameter, a function pointer
    Expected<std::uint64_t> inner = pages.u64(desc + g.typeArg, what + " TypeArg");
    if (!inner) return inner.error();
    Expected<RuntimeType> of = readType(*inner, depth + 1);
    if (!of) return of.error();
    t.kind = element == kElementPointer ? RuntimeType::Kind::Pointer : RuntimeType::Kind::ByRef;
    t.arguments.push_back(std::move(*of));
    return t;
  }
  const std::string what = "MethodTable " + shortHex(handle);
  Expected<std::uint32_t> flags = pages.u32(handle + g.flags, what + " MTFlags");
  if (!flags) return flags.error();
  Expected<std::uint32_t> flags2 = pages.u32(handle + g.flags2, what + " MTFlags2");
  if (!flags2) return flags2.error();
  Expected<std::uint64_t> module = pages.u64(handle + layout.methodTableModule, what + " Module");
  if (!module) return module.error();
  Expected<std::uint64_t> perInstInfo = pages.u64(handle + g.perInstInfo, what + " PerInstInfo");
  if (!perInstInfo) return perInstInfo.error();
  const bool componentSize = (*flags & kHasComponentSize) != 0;
  if (componentSize && (*flags & kCategoryArrayMask) == kCategoryArray) {
    // An array: PerInstInfo is its element type.
    Expected<RuntimeType> element = readType(*perInstInfo, depth + 1);
    if (!element) return element.error();
    t.kind = (*flags & kIfArrayThenSzArray) ? RuntimeType::Kind::SzArray : RuntimeType::Kind::Array;
    t.arguments.push_back(std::move(*element));
    return t;
  }
  t.module = *module;
  t.typeDef = 0x02000000u | (*flags2 >> kTypeDefRidShift);
  t.kind = (!componentSize && (*flags & kCategoryArrayMask) == kCategoryValueType) ? RuntimeType::Kind::ValueType
                                                                                   : RuntimeType::Kind::Class;
  if (canonMethodTable && handle == *canonMethodTable) t.kind = RuntimeType::Kind::Canon;
  if (componentSize || (*flags & kGenericsMask) == 0 || *perInstInfo == 0) return t;
  // Generic: the last of the dictionaries PerInstInfo points at is this
  // type's, its first NumTypeArgs entries the arguments.
  const std::uint64_t info = *perInstInfo - 8;
  Expected<std::uint16_t> dicts = pages.u16(info + g.numDicts, what + " GenericsDictInfo.NumDicts");
  if (!dicts) return dicts.error();
  Expected<std::uint16_t> count = pages.u16(info + g.numTypeArgs, what + " GenericsDictInfo.NumTypeArgs");
  if (!count) return count.error();
  if (*dicts == 0) return dataInvalid(info, what + ": generic, with no dictionary");
  Expected<std::uint64_t> dictionary = pages.u64(*perInstInfo + 8ull * (*dicts - 1u), what + " dictionary");
  if (!dictionary) return dictionary.error();
  Expected<std::vector<std::uint64_t>> handles = dictionaryArguments(pages, *dictionary, *count, what);
  if (!handles) return handles.error();
  for (const std::uint64_t h : *handles) {
    Expected<RuntimeType> arg = readType(h, depth + 1);
    if (!arg) return arg.error();
    t.arguments.push_back(std::move(*arg));
  }
  return t;
}

Expected<MethodInstantiation> RuntimeCode::instantiation(std::uint64_t methodDesc) const {
  const State& s = *state_;
  const RuntimeLayout& l = s.layout;
  MethodInstantiation out;
  if (!l.hasGenerics) return out;
  const std::string what = "MethodDesc " + shortHex(methodDesc);
  const Expected<DescChunk> desc = descChunk(s, methodDesc, what);
  if (!desc) return desc.error();
  Expected<std::uint64_t> methodTable = s.pages.u64(desc->chunk + l.chunk.methodTable, what + " MethodTable");
  if (!methodTable) return methodTable.error();
  Expected<RuntimeType> owner = s.readType(*methodTable, 0);
  if (!owner) return owner.error();
  out.typeArguments = std::move(owner->arguments);
  if ((desc->flags & kClassificationMask) != kInstantiatedClassification) return out;
  const auto& g = l.generics;
  Expected<std::uint16_t> kind = s.pages.u16(methodDesc + g.methodFlags2, what + " Flags2");
  if (!kind) return kind.error();
  if ((*kind & kInstantiatedKindMask) == kGenericMethodDefinition) return out;
  Expected<std::uint64_t> dictionary = s.pages.u64(methodDesc + g.methodPerInstInfo, what + " PerInstInfo");
  if (!dictionary) return dictionary.error();
  Expected<std::uint16_t> count = s.pages.u16(methodDesc + g.numArgs, what + " NumGenericArgs");
  if (!count) return count.error();
  if (*dictionary == 0) return out;
  Expected<std::vector<std::uint64_t>> handles = dictionaryArguments(s.pages, *dictionary, *count, what);
  if (!handles) return handles.error();
  for (const std::uint64_t h : *handles) {
    Expected<RuntimeType> arg = s.readType(h, 0);
    if (!arg) return arg.error();
    out.methodArguments.push_back(std::move(*arg));
  }
  return out;
}

Expected<ManagedModule> RuntimeCode::module(std::uint64_t moduleAddress) const {
  const State& s = *state_;
  const std::string what = "Module " + shortHex(moduleAddress);
  ManagedModule m;
  m.address = moduleAddress;
  Expected<std::uint64_t> base = s.pages.u64(moduleAddress + s.layout.module.base, what + " Base");
  if (!base) return base.error();
  m.imageBase = *base;
  Expected<std::uint64_t> path = s.pages.u64(moduleAddress + s.layout.module.path, what + " Path");
  if (!path) return path.error();
  if (*path == 0) return m;
  // The string up to its NUL, read a block at a time, bounded.
  std::vector<std::uint16_t> units;
  std::uint8_t block[256];
  for (std::uint64_t at = *path;;) {
    const std::size_t got = s.pages.readSome(at, MutableByteSpan(block, sizeof block)) & ~std::size_t{1};
    if (got == 0) {
      if (Status st = s.pages.read(at, MutableByteSpan(block, 2), what + " path at " + shortHex(*path)); !st) {
        return st.error();
      }
      return dataInvalid(at, what + " path at " + shortHex(*path) + ": unreadable at " + shortHex(at));
    }
    for (std::size_t i = 0; i < got; i += 2) {
      const std::uint16_t u = static_cast<std::uint16_t>(block[i] | (block[i + 1] << 8));
      if (u == 0) {
        m.path = utf16ToUtf8(units);
        return m;
      }
      units.push_back(u);
      if (units.size() > kMaxPathChars) {
        return dataInvalid(*path, what + ": its path at " + shortHex(*path) + " has no end within " +
                                      std::to_string(kMaxPathChars) + " characters");
      }
    }
    at += got;
  }
}

Expected<std::string> RuntimeCode::State::readString(std::uint64_t address, const std::string& what) const {
  std::string out;
  std::uint8_t block[128];
  for (std::uint64_t at = address;;) {
    const std::size_t got = pages.readSome(at, MutableByteSpan(block, sizeof block));
    if (got == 0) {
      if (Status st = pages.read(at, MutableByteSpan(block, 1), what + " at " + shortHex(address)); !st) {
        return st.error();
      }
      return dataInvalid(at, what + " at " + shortHex(address) + ": unreadable at " + shortHex(at));
    }
    const auto* end = static_cast<const std::uint8_t*>(std::memchr(block, 0, got));
    out.append(reinterpret_cast<const char*>(block), end ? static_cast<std::size_t>(end - block) : got);
    if (out.size() > kMaxNameBytes) {
      return dataInvalid(address, what + " at " + shortHex(address) + " has no end within " +
                                      std::to_string(kMaxNameBytes) + " bytes");
    }
    if (end) return out;
    at += got;
  }
}

Expected<const MethodVersions*> RuntimeCode::State::methodVersions(std::uint64_t methodDesc) const {
  if (const auto it = versions.find(methodDesc); it != versions.end()) return &it->second;
  const RuntimeLayout& l = layout;
  const std::string what = "MethodDesc " + shortHex(methodDesc);
  MethodVersions v;
  // The default version's tier, when the runtime does not keep it (.NET
  // 10; .NET 11 keeps "not known yet"): a method tiering may replace
  // starts at tier 0, any other is compiled fully optimized once (checked
  // against the runtime's perf map labels, QuickJitted and Optimized).
  Expected<std::uint16_t> flags3 = pages.u16(methodDesc + l.methodDesc.flags3AndTokenRemainder, what);
  if (!flags3) return flags3.error();
  v.defaultTier = (*flags3 & kEligibleForTiering) ? il::OptimizationTier::Tier0 : il::OptimizationTier::Optimized;
  Expected<std::uint64_t> codeData = pages.u64(methodDesc + l.methodDesc.codeData, what + " CodeData");
  if (!codeData) return codeData.error();
  if (*codeData != 0) {
    const std::string cd = "MethodDescCodeData " + shortHex(*codeData) + " (of " + what + ")";
    if (l.codeData.optimizationTier) {
      Expected<std::uint32_t> tier = pages.u32(*codeData + *l.codeData.optimizationTier, cd + " OptimizationTier");
      if (!tier) return tier.error();
      if (const std::optional<il::OptimizationTier> kept = tierOf(*tier)) v.defaultTier = kept;
    }
    Expected<std::uint64_t> state = pages.u64(*codeData + l.codeData.versioningState, cd + " VersioningState");
    if (!state) return state.error();
    if (*state != 0) {
      const std::string vs = "MethodDescVersioningState " + shortHex(*state) + " (of " + what + ")";
      Expected<std::uint8_t> flags = pages.u8(*state + l.versioningState.flags, vs + " Flags");
      if (!flags) return flags.error();
      v.defaultActive = (*flags & kDefaultVersionActive) != 0;
      Expected<std::uint64_t> first = pages.u64(*state + l.versioningState.firstNode, vs + " NativeCodeVersionNode");
      if (!first) return first.error();
      std::unordered_set<std::uint64_t> seen;
      for (std::uint64_t n = *first; n != 0;) {
        if (v.nodes.size() >= kMaxVersionNodes || !seen.insert(n).second) {
          return dataInvalid(n, what + ": its native code version list loops or holds more than " +
                                    std::to_string(kMaxVersionNodes) + " versions");
        }
        const std::string nw = "NativeCodeVersionNode " + shortHex(n) + " (of " + what + ")";
        MethodVersions::Node node;
        node.address = n;
        Expected<std::uint64_t> code = pages.u64(n + l.node.nativeCode, nw + " NativeCode");
        if (!code) return code.error();
        Expected<std::uint64_t> il = pages.u64(n + l.node.ilVersionId, nw + " ILVersionId");
        if (!il) return il.error();
        Expected<std::uint32_t> nodeFlags = pages.u32(n + l.node.flags, nw + " Flags");
        if (!nodeFlags) return nodeFlags.error();
        if (l.node.optimizationTier) {
          Expected<std::uint32_t> tier = pages.u32(n + *l.node.optimizationTier, nw + " OptimizationTier");
          if (!tier) return tier.error();
          node.tier = tierOf(*tier);
        }
        node.nativeCode = *code;
        node.ilVersion = *il;
        node.active = (*nodeFlags & kNodeActive) != 0;
        v.nodes.push_back(node);
        Expected<std::uint64_t> next = pages.u64(n + l.node.next, nw + " Next");
        if (!next) return next.error();
        n = *next;
      }
    }
  }
  return &versions.emplace(methodDesc, std::move(v)).first->second;
}

Status RuntimeCode::State::labelVersion(JitBody& body) const {
  Expected<const MethodVersions*> v = methodVersions(body.methodDesc);
  if (!v) return v.error();
  for (const MethodVersions::Node& n : (*v)->nodes) {
    if (n.nativeCode != body.start) continue;
    body.version.explicitVersion = true;
    body.version.node = n.address;
    body.version.tier = n.tier;
    body.version.ilVersion = n.ilVersion;
    body.version.active = n.active;
    return Success{};
  }
  body.version.explicitVersion = false;
  body.version.tier = (*v)->defaultTier;
  body.version.active = (*v)->defaultActive;
  return Success{};
}

}  // namespace gdmap::runtime
