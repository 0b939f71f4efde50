// The ExecutionManager's view of code (docs/runtime-contracts.md, section
// 2): the range section map (a 5-level radix tree of 256-pointer arrays
// over address bits 56-17, whose leaves list RangeSectionFragments; bit 0
// of every pointer is a "collectible" tag), the code heaps (a
// CodeHeapListNode per heap), their nibble maps (one 4-bit entry per
// 32-byte bucket, 8 to a u32 unit, the first bucket in the high nibble; a
// unit whose low nibble is 9-12 is instead a pointer to the start of the
// body covering it) and the code header in the 8 bytes before each body (a
// stub kind up to StubCodeBlockLast, or the RealCodeHeader).
#include "runtime_state.hpp"

#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <unordered_set>

namespace gdmap::runtime {

Error dataInvalid(std::uint64_t at, const std::string& message) {
  return Error(static_cast<std::size_t>(at), message, rules::kRuntimeDataInvalid);
}

namespace {

constexpr std::uint64_t kTag = 1;  // the collectible bit of the map's pointers
constexpr unsigned kLevels = 5;
constexpr std::size_t kEntries = 256;

constexpr std::uint32_t kFlagCodeHeap = 0x2;
constexpr std::uint32_t kFlagRangeList = 0x4;
constexpr std::uint32_t kFlagInterpreter = 0x8;

constexpr std::uint64_t kBucketBytes = 32;
constexpr std::uint64_t kUnitBytes = 256;  // 8 buckets per u32

std::string sectionLabel(std::uint64_t at) { return "range section " + shortHex(at); }

RangeKind kindOf(std::uint32_t flags, std::uint64_t r2rModule) {
  if (flags & kFlagInterpreter) return RangeKind::Interpreter;
  if (flags & kFlagRangeList) return RangeKind::Stubs;
  if (flags & kFlagCodeHeap) return RangeKind::JitCodeHeap;
  if (r2rModule != 0) return RangeKind::ReadyToRun;
  return RangeKind::Other;
}

// A pointer unit of the nibble map: the start it points to, relative to MapBase.
bool isPointerUnit(std::uint32_t unit) { return (unit & 0xF) > 8; }
std::uint64_t pointerTarget(std::uint32_t unit) { return (unit & ~0xFu) + (((unit & 0xFu) - 9) << 2); }

struct Heap {
  std::uint64_t node = 0;
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint64_t mapBase = 0;
  std::uint64_t headerMap = 0;
};

Expected<Heap> readHeap(const RuntimeCode::State& s, std::uint64_t node) {
  const auto& l = s.layout.heap;
  const std::string what = "CodeHeapListNode " + shortHex(node);
  Heap h;
  h.node = node;
  Expected<std::uint64_t> start = s.pages.u64(node + l.startAddress, what + ".StartAddress");
  if (!start) return start.error();
  Expected<std::uint64_t> end = s.pages.u64(node + l.endAddress, what + ".EndAddress");
  if (!end) return end.error();
  Expected<std::uint64_t> mapBase = s.pages.u64(node + l.mapBase, what + ".MapBase");
  if (!mapBase) return mapBase.error();
  Expected<std::uint64_t> headerMap = s.pages.u64(node + l.headerMap, what + ".HeaderMap");
  if (!headerMap) return headerMap.error();
  h.start = *start;
  h.end = *end;
  h.mapBase = *mapBase;
  h.headerMap = *headerMap;
  if (h.mapBase > h.start || h.start > h.end || h.end - h.mapBase > kMaxHeapBytes) {
    return dataInvalid(node, what + ": map base " + shortHex(h.mapBase) + ", start " + shortHex(h.start) + ", end " +
                                 shortHex(h.end) + " are not a code heap (base <= start <= end, under 4 GiB)");
  }
  return h;
}

// The start of the body holding `pc` in `heap`, by the nibble map: at
// most two units read.
Expected<std::optional<std::uint64_t>> findStart(const RuntimeCode::State& s, const Heap& heap, std::uint64_t pc) {
  if (pc < heap.start || pc >= heap.end) return std::optional<std::uint64_t>{};
  const std::uint64_t rel = pc - heap.mapBase;
  const std::uint64_t bucket = rel / kBucketBytes;
  const std::uint64_t unitIndex = bucket / 8;
  const std::string what = "the nibble map of code heap " + shortHex(heap.node);
  Expected<std::uint32_t> unit = s.pages.u32(heap.headerMap + 4 * unitIndex, what);
  if (!unit) return unit.error();
  if (isPointerUnit(*unit)) return std::optional<std::uint64_t>(heap.mapBase + pointerTarget(*unit));
  // This unit, from pc's bucket back: in pc's own bucket only a start at
  // or before pc counts.
  const unsigned own = static_cast<unsigned>(bucket % 8);
  const std::uint32_t pcNibble = static_cast<std::uint32_t>((rel % kBucketBytes) / 4 + 1);
  for (int j = static_cast<int>(own); j >= 0; --j) {
    const std::uint32_t nibble = (*unit >> (28 - 4 * j)) & 0xF;
    if (nibble == 0 || (j == static_cast<int>(own) && nibble > pcNibble)) continue;
    return std::optional<std::uint64_t>(heap.mapBase + (unitIndex * 8 + static_cast<unsigned>(j)) * kBucketBytes +
                                        std::uint64_t{nibble - 1} * 4);
  }
  if (unitIndex == 0) return std::optional<std::uint64_t>{};
  Expected<std::uint32_t> previous = s.pages.u32(heap.headerMap + 4 * (unitIndex - 1), what);
  if (!previous) return previous.error();
  if (*previous == 0) return std::optional<std::uint64_t>{};
  if (isPointerUnit(*previous)) return std::optional<std::uint64_t>(heap.mapBase + pointerTarget(*previous));
  for (int j = 7; j >= 0; --j) {
    const std::uint32_t nibble = (*previous >> (28 - 4 * j)) & 0xF;
    if (nibble != 0) {
      return std::optional<std::uint64_t>(heap.mapBase +
                                          ((unitIndex - 1) * 8 + static_cast<unsigned>(j)) * kBucketBytes +
                                          std::uint64_t{nibble - 1} * 4);
    }
  }
  return std::optional<std::uint64_t>{};
}

}  // namespace

namespace {

// The range section at `rs`, read whole; nullopt when it is being deleted
// (the runtime's own lookup treats it as absent).
Expected<std::optional<CodeRangeSection>> readRangeSection(const RuntimeCode::State& s, std::uint64_t rs) {
  const auto& l = s.layout.section;
  const std::string label = sectionLabel(rs);
  Expected<std::uint64_t> begin = s.pages.u64(rs + l.rangeBegin, label + " RangeBegin");
  if (!begin) return begin.error();
  Expected<std::uint64_t> end = s.pages.u64(rs + l.rangeEndOpen, label + " RangeEndOpen");
  if (!end) return end.error();
  Expected<std::uint64_t> deleting = s.pages.u64(rs + l.nextForDelete, label + " NextForDelete");
  if (!deleting) return deleting.error();
  Expected<std::uint32_t> flags = s.pages.u32(rs + l.flags, label + " Flags");
  if (!flags) return flags.error();
  Expected<std::uint64_t> heapList = s.pages.u64(rs + l.heapList, label + " HeapList");
  if (!heapList) return heapList.error();
  Expected<std::uint64_t> module = s.pages.u64(rs + l.r2rModule, label + " R2RModule");
  if (!module) return module.error();
  if (*begin >= *end) {
    return dataInvalid(rs, label + ": range [" + shortHex(*begin) + ", " + shortHex(*end) + ") is empty or reversed");
  }
  if (*deleting != 0) return std::optional<CodeRangeSection>{};
  CodeRangeSection c;
  c.address = rs;
  c.begin = *begin;
  c.end = *end;
  c.flags = *flags;
  c.kind = kindOf(*flags, *module);
  c.heapList = c.kind == RangeKind::JitCodeHeap ? *heapList : 0;
  c.module = c.kind == RangeKind::ReadyToRun ? *module : 0;
  return std::optional<CodeRangeSection>(c);
}

// The fragment list of a leaf entry: each fragment's range section, once
// (`seen`), into `sections`; `fragments` counts against the limit.
Status readFragments(const RuntimeCode::State& s, std::uint64_t entry, std::size_t& fragments,
                     std::unordered_set<std::uint64_t>& seen, std::vector<CodeRangeSection>& sections) {
  std::unordered_set<std::uint64_t> chain;
  for (std::uint64_t f = entry; f != 0;) {
    if (++fragments > kMaxFragments || !chain.insert(f).second) {
      return dataInvalid(f, "range section fragment " + shortHex(f) + ": the fragment list loops or is longer than " +
                                std::to_string(kMaxFragments));
    }
    const std::string what = "RangeSectionFragment " + shortHex(f);
    Expected<std::uint64_t> section = s.pages.u64(f + s.layout.fragment.rangeSection, what + ".RangeSection");
    if (!section) return section.error();
    Expected<std::uint64_t> next = s.pages.u64(f + s.layout.fragment.next, what + ".Next");
    if (!next) return next.error();
    if (*section != 0 && seen.insert(*section).second) {
      Expected<std::optional<CodeRangeSection>> c = readRangeSection(s, *section);
      if (!c) return c.error();
      if (*c) sections.push_back(**c);
    }
    f = *next & ~kTag;
  }
  return Success{};
}

}  // namespace

Status RuntimeCode::State::readRangeSections() {
  // Every non-null entry of every level, then every fragment of every
  // leaf; each array and fragment counted against its limit, so a map
  // whose pointers make a huge tree (or loop back) ends with an error.
  struct Pending {
    std::uint64_t array;
    unsigned level;
  };
  std::vector<Pending> pending{{layout.rangeSectionMap, kLevels}};
  std::size_t arrays = 0;
  std::size_t fragments = 0;
  std::unordered_set<std::uint64_t> seen;
  std::vector<std::uint8_t> raw(kEntries * 8);
  while (!pending.empty()) {
    const Pending p = pending.back();
    pending.pop_back();
    if (++arrays > kMaxRangeMapArrays) {
      return dataInvalid(p.array, "the range section map has more than " + std::to_string(kMaxRangeMapArrays) +
                                      " arrays: not a map a runtime makes");
    }
    if (Status st =
            pages.read(p.array, raw, "range section map level " + std::to_string(p.level) + " at " + shortHex(p.array));
        !st)
      return st;
    ByteCursor entries(raw);
    for (std::size_t i = 0; i < kEntries; ++i) {
      const std::uint64_t entry = entries.u64() & ~kTag;
      if (entry == 0) continue;
      if (p.level > 1) {
        pending.push_back({entry, p.level - 1});
        continue;
      }
      if (Status st = readFragments(*this, entry, fragments, seen, sections); !st) return st;
    }
  }
  std::sort(sections.begin(), sections.end(),
            [](const CodeRangeSection& a, const CodeRangeSection& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < sections.size(); ++i) {
    if (sections[i].begin < sections[i - 1].end) {
      return dataInvalid(sections[i].address,
                         sectionLabel(sections[i].address) + " overlaps " + sectionLabel(sections[i - 1].address));
    }
  }
  return Success{};
}

Expected<JitBody> RuntimeCode::State::readBody(std::uint64_t start, std::uint64_t unwindBase) const {
  const auto& l = layout.codeHeader;
  JitBody body;
  body.start = start;
  Expected<std::uint64_t> header = pages.u64(start - 8, "the code header of the body at " + shortHex(start));
  if (!header) return header.error();
  body.codeHeader = *header;
  const std::string what = "RealCodeHeader " + shortHex(*header) + " (body at " + shortHex(start) + ")";
  Expected<std::uint64_t> methodDesc = pages.u64(*header + l.methodDesc, what + " MethodDesc");
  if (!methodDesc) return methodDesc.error();
  Expected<std::uint64_t> debugInfo = pages.u64(*header + l.debugInfo, what + " DebugInfo");
  if (!debugInfo) return debugInfo.error();
  Expected<std::uint32_t> count = pages.u32(*header + l.numUnwindInfos, what + " NumUnwindInfos");
  if (!count) return count.error();
  if (*count == 0 || *count > kMaxUnwindInfos) {
    return dataInvalid(*header, what + ": " + std::to_string(*count) + " runtime functions");
  }
  body.methodDesc = *methodDesc;
  body.debugInfo = *debugInfo;
  std::vector<std::uint8_t> table(static_cast<std::size_t>(*count) * l.runtimeFunctionSize);
  if (Status s = pages.read(*header + l.unwindInfos, table, what + " UnwindInfos"); !s) return s.error();
  const auto field = [&](std::size_t i, std::uint32_t offset) {
    std::uint32_t v = 0;
    for (unsigned b = 0; b < 4; ++b) v |= std::uint32_t{table[i * l.runtimeFunctionSize + offset + b]} << (8 * b);
    return v;
  };
  // The body first, then its funclets, in one block: each runtime function
  // starts at or after the end of the one before.
  std::uint64_t previousEnd = 0;
  for (std::size_t i = 0; i < *count; ++i) {
    const std::uint64_t begin = unwindBase + field(i, l.beginAddress);
    const std::uint64_t end = unwindBase + field(i, l.endAddress);
    if (end <= begin || (i == 0 && begin != start) || (i > 0 && begin < previousEnd) || end - start > 0xFFFFFFFFu) {
      return dataInvalid(*header, what + ": runtime function " + std::to_string(i) + " [" + shortHex(begin) + ", " +
                                      shortHex(end) + ") is not " +
                                      (i == 0 ? "the body's code" : "after the one before it"));
    }
    if (!body.ranges.empty() && body.ranges.back().start + body.ranges.back().size == begin) {
      body.ranges.back().size += static_cast<std::uint32_t>(end - begin);
    } else {
      body.ranges.push_back({begin, static_cast<std::uint32_t>(end - begin)});
    }
    previousEnd = end;
  }
  body.size = static_cast<std::uint32_t>(previousEnd - start);
  return body;
}

Expected<RuntimeCode> RuntimeCode::open(const TargetMemory& target) {
  Expected<ContractDescriptor> d = readContractDescriptor(target);
  if (!d) return d.error();
  return open(target, std::move(*d));
}

Expected<RuntimeCode> RuntimeCode::openAt(const TargetMemory& target, std::uint64_t descriptorAddress) {
  if (descriptorAddress == 0) return open(target);
  Expected<ContractDescriptor> d = readContractDescriptorAt(target, descriptorAddress);
  if (!d) return d.error();
  return open(target, std::move(*d));
}

Expected<RuntimeCode> RuntimeCode::open(const TargetMemory& target, ContractDescriptor descriptor) {
  auto state = std::make_unique<State>(target);
  state->contract = std::move(descriptor);
  Expected<DataDescriptor> data = readDataDescriptor(state->contract);
  if (!data) return data.error();
  state->data = std::move(*data);
  Expected<RuntimeLayout> layout = resolveLayout(state->data);
  if (!layout) return layout.error();
  state->layout = *layout;
  if (Status s = state->readRangeSections(); !s) return s.error();
  // The __Canon MethodTable (.NET 11): the global holds where its pointer is.
  if (state->layout.generics.canon) {
    Expected<std::uint64_t> canon = state->pages.u64(*state->layout.generics.canon, "the CanonMethodTable pointer");
    if (canon && *canon != 0) state->canonMethodTable = *canon;
  }
  return RuntimeCode(std::move(state));
}

RuntimeCode::RuntimeCode(std::unique_ptr<State> state) : state_(std::move(state)) {}
RuntimeCode::RuntimeCode(RuntimeCode&&) noexcept = default;
RuntimeCode& RuntimeCode::operator=(RuntimeCode&&) noexcept = default;
RuntimeCode::~RuntimeCode() = default;

const ContractDescriptor& RuntimeCode::contractDescriptor() const { return state_->contract; }
const DataDescriptor& RuntimeCode::dataDescriptor() const { return state_->data; }
JitDebugInfoForm RuntimeCode::debugInfoForm() const { return state_->layout.debugInfoForm; }

std::string RuntimeCode::productVersion() const {
  const auto g = state_->data.globals.find("RuntimeProductVersionString");
  return g == state_->data.globals.end() ? std::string() : g->second.text;
}

const std::vector<CodeRangeSection>& RuntimeCode::rangeSections() const { return state_->sections; }

const CodeRangeSection* RuntimeCode::sectionAt(std::uint64_t address) const {
  const auto& s = state_->sections;
  auto it = std::upper_bound(s.begin(), s.end(), address,
                             [](std::uint64_t a, const CodeRangeSection& c) { return a < c.begin; });
  if (it == s.begin()) return nullptr;
  --it;
  return address < it->end ? &*it : nullptr;
}

namespace {

// The heaps: each code-heap section's node, and (.NET 11) the EE JIT
// manager's list of all heaps; the list alone is not enough in .NET 10,
// which does not publish it.
Expected<std::vector<std::uint64_t>> heapNodes(const RuntimeCode::State& s) {
  std::vector<std::uint64_t> nodes;
  std::unordered_set<std::uint64_t> seen;
  for (const CodeRangeSection& c : s.sections) {
    if (c.kind == RangeKind::JitCodeHeap && c.heapList != 0 && seen.insert(c.heapList).second)
      nodes.push_back(c.heapList);
  }
  if (!s.layout.eeJitManager) return nodes;
  Expected<std::uint64_t> manager = s.pages.u64(*s.layout.eeJitManager, "the EEJitManager pointer");
  if (!manager) return manager.error();
  Expected<std::uint64_t> first =
      s.pages.u64(*manager + s.layout.eeJitManagerAllCodeHeaps, "EEJitManager " + shortHex(*manager) + " AllCodeHeaps");
  if (!first) return first.error();
  std::size_t steps = 0;
  for (std::uint64_t n = *first; n != 0;) {
    if (++steps > kMaxCodeHeaps) {
      return dataInvalid(
          n, "the EEJitManager's code heap list loops or holds more than " + std::to_string(kMaxCodeHeaps) + " heaps");
    }
    if (seen.insert(n).second) nodes.push_back(n);
    Expected<std::uint64_t> next = s.pages.u64(n + s.layout.heap.next, "CodeHeapListNode " + shortHex(n) + ".Next");
    if (!next) return next.error();
    n = *next;
  }
  return nodes;
}

// The bodies the nibble map unit at index `unit` (value `bits`) starts.
Status unitBodies(const RuntimeCode::State& s, const Heap& heap, const CodeRangeSection& section, std::uint64_t unit,
                  std::uint32_t bits, std::vector<JitBody>& bodies) {
  for (unsigned j = 0; j < 8; ++j) {
    const std::uint32_t nibble = (bits >> (28 - 4 * j)) & 0xF;
    if (nibble == 0) continue;
    const std::uint64_t start = heap.mapBase + (unit * 8 + j) * kBucketBytes + std::uint64_t{nibble - 1} * 4;
    if (start < heap.start || start >= heap.end) continue;
    Expected<std::uint64_t> header = s.pages.u64(start - 8, "the code header of the body at " + shortHex(start));
    if (!header) return header.error();
    if (*header <= s.layout.stubCodeBlockLast) continue;  // a stub, not a method
    Expected<JitBody> body = s.readBody(start, section.begin);
    if (!body) return body.error();
    // A body whose MethodDesc is unreadable is still a body.
    if (!s.labelVersion(*body)) body->version = NativeCodeVersion{false, 0, std::nullopt, 0, false, false};
    bodies.push_back(std::move(*body));
  }
  return Success{};
}

// The bodies of the heap at `node`: its nibble map's units from the heap's
// used start to its end, read in chunks.
Status heapBodies(const RuntimeCode& code, const RuntimeCode::State& s, std::uint64_t node,
                  std::vector<std::uint8_t>& chunk, std::vector<JitBody>& bodies) {
  Expected<Heap> heap = readHeap(s, node);
  if (!heap) return heap.error();
  const CodeRangeSection* section = code.sectionAt(heap->start);
  if (!section || section->kind != RangeKind::JitCodeHeap) {
    return dataInvalid(
        node, "code heap " + shortHex(node) + " at " + shortHex(heap->start) + " lies in no code-heap range section");
  }
  if (heap->end > section->end) {
    return dataInvalid(node, "code heap " + shortHex(node) + " ends at " + shortHex(heap->end) +
                                 ", past its range section's end " + shortHex(section->end));
  }
  const std::uint64_t firstUnit = (heap->start - heap->mapBase) / kUnitBytes;
  const std::uint64_t endUnit = (heap->end - heap->mapBase + kUnitBytes - 1) / kUnitBytes;
  constexpr std::uint64_t kChunkUnits = 16384;
  for (std::uint64_t u = firstUnit; u < endUnit; u += kChunkUnits) {
    const std::uint64_t n = std::min(kChunkUnits, endUnit - u);
    chunk.resize(static_cast<std::size_t>(n * 4));
    if (Status st = s.pages.read(heap->headerMap + 4 * u, chunk, "the nibble map of code heap " + shortHex(node)); !st)
      return st.error();
    ByteCursor units(chunk);
    for (std::uint64_t k = 0; k < n; ++k) {
      const std::uint32_t bits = units.u32();
      if (bits == 0 || isPointerUnit(bits)) continue;
      if (Status st = unitBodies(s, *heap, *section, u + k, bits, bodies); !st) return st;
    }
  }
  return Success{};
}

}  // namespace

Expected<std::vector<JitBody>> RuntimeCode::jitBodies() const {
  const State& s = *state_;
  const Expected<std::vector<std::uint64_t>> nodes = heapNodes(s);
  if (!nodes) return nodes.error();
  std::vector<JitBody> bodies;
  std::vector<std::uint8_t> chunk;
  for (const std::uint64_t node : *nodes) {
    if (Status st = heapBodies(*this, s, node, chunk, bodies); !st) return st.error();
  }
  std::sort(bodies.begin(), bodies.end(), [](const JitBody& a, const JitBody& b) { return a.start < b.start; });
  for (std::size_t i = 1; i < bodies.size(); ++i) {
    if (bodies[i].start < bodies[i - 1].start + bodies[i - 1].size) {
      return dataInvalid(bodies[i].codeHeader, "the body at " + shortHex(bodies[i].start) +
                                                   " starts inside the body at " + shortHex(bodies[i - 1].start));
    }
  }
  return bodies;
}

Expected<std::optional<JitBody>> RuntimeCode::jitBodyAt(std::uint64_t address) const {
  const State& s = *state_;
  const CodeRangeSection* section = sectionAt(address);
  if (!section || section->kind != RangeKind::JitCodeHeap || section->heapList == 0) return std::optional<JitBody>{};
  Expected<Heap> heap = readHeap(s, section->heapList);
  if (!heap) return heap.error();
  Expected<std::optional<std::uint64_t>> start = findStart(s, *heap, address);
  if (!start) return start.error();
  if (!*start || **start < heap->start) return std::optional<JitBody>{};
  Expected<std::uint64_t> header = s.pages.u64(**start - 8, "the code header of the body at " + shortHex(**start));
  if (!header) return header.error();
  if (*header <= s.layout.stubCodeBlockLast) return std::optional<JitBody>{};
  Expected<JitBody> body = s.readBody(**start, section->begin);
  if (!body) return body.error();
  if (address >= body->start + body->size) return std::optional<JitBody>{};  // after the body, before the next
  if (!s.labelVersion(*body)) body->version = NativeCodeVersion{false, 0, std::nullopt, 0, false, false};
  return std::optional<JitBody>(std::move(*body));
}

}  // namespace gdmap::runtime
