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

// UTF-16 (surrogate pairs joined; a lone surrogate becomes U+FFFD) to UTF-8.
std::string utf8(const std::vector<std::uint16_t>& units) {
  std::string out;
  for (std::size_t i = 0; i < units.size(); ++i) {
    std::uint32_t c = units[i];
    if (c >= 0xD800 && c < 0xDC00 && i + 1 < units.size() && units[i + 1] >= 0xDC00 && units[i + 1] < 0xE000) {
      c = 0x10000 + ((c - 0xD800) << 10) + (units[i + 1] - 0xDC00);
      ++i;
    } else if (c >= 0xD800 && c < 0xE000) {
      c = 0xFFFD;
    }
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

}  // namespace

Expected<MethodIdentity> RuntimeCode::method(std::uint64_t methodDesc) const {
  const State& s = *state_;
  const RuntimeLayout& l = s.layout;
  const std::string what = "MethodDesc " + shortHex(methodDesc);
  Expected<std::uint16_t> remainder = s.pages.u16(methodDesc + l.methodDesc.flags3AndTokenRemainder, what);
  if (!remainder) return remainder.error();
  Expected<std::uint8_t> chunkIndex = s.pages.u8(methodDesc + l.methodDesc.chunkIndex, what + " ChunkIndex");
  if (!chunkIndex) return chunkIndex.error();
  Expected<std::uint16_t> flags = s.pages.u16(methodDesc + l.methodDesc.flags, what + " Flags");
  if (!flags) return flags.error();
  const std::uint64_t back = std::uint64_t{*chunkIndex} * l.methodDescAlignment + l.chunk.size;
  if (back > methodDesc) return dataInvalid(methodDesc, what + ": its chunk would start below address 0");
  const std::uint64_t chunk = methodDesc - back;
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
  m.classification = static_cast<std::uint8_t>(*flags & kClassificationMask);
  m.dynamic = m.classification == kDynamicClassification;
  m.eligibleForTiering = (*remainder & kEligibleForTiering) != 0;
  m.token = 0x06000000u | ((std::uint32_t{*range} & rangeMask) << bits) | (std::uint32_t{*remainder} & remainderMask);
  if (m.dynamic) m.token = 0x06000000u;  // no metadata: the bits are not a RID
  m.module = *module;
  if (m.dynamic && l.dynamicMethodName) {
    Expected<std::uint64_t> name = s.pages.u64(methodDesc + *l.dynamicMethodName, what + " MethodName");
    if (!name) return name.error();
    if (*name != 0) {
      Expected<std::string> text = s.readString(*name, what + " name");
      if (!text) return text.error();
      m.dynamicName = std::move(*text);
    }
  }
  return m;
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
        m.path = utf8(units);
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
