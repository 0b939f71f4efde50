// Sections 103 (MethodDef entry points, a NativeArray by MethodDef row) and
// 109 (instance entry points, a NativeHashtable keyed by signature): which
// runtime function each precompiled method starts at. A method owns the
// runtime functions from its entry up to the next method's entry: its body
// and then its funclets.
#include "r2r_errors.hpp"
#include "r2r_parts.hpp"
#include "r2r_signature.hpp"

#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <optional>
#include <utility>

namespace gdmap::r2r {
namespace {

// An entry point (readytoruninfo.cpp, GetEntryPoint): the runtime function
// index shifted left by 1, or by 2 with bit 0 set when a fixup list comes
// first (bit 1: the list is at a lookback given by a second integer).
// False, and the region's error, when it does not read.
bool readEntry(NativeRegion& region, std::uint64_t& at, const R2RImage& image, MethodBody& m) {
  const std::uint64_t start = at;
  m.entryPointOffset = region.fileOffsetOf(at);
  std::uint32_t id = region.unsignedAt(at);
  if (id & 1u) {
    m.hasFixups = true;
    if (id & 2u) region.unsignedAt(at);  // the fixup list's lookback; the bounds do not need it
    id >>= 2;
  } else {
    id >>= 1;
  }
  if (!region.ok()) return false;
  if (id >= image.runtimeFunctions.size()) {
    return region.fail(region.fileOffsetOf(start),
                       "entry point names runtime function " + std::to_string(id) + ", the table has " +
                           std::to_string(image.runtimeFunctions.size()),
                       rules::kR2rIndexOutOfRange);
  }
  m.firstRuntimeFunction = id;
  return true;
}

Status readMethodDefEntryPoints(NativeRegion region, R2RImage& image, std::uint32_t component,
                                const std::string& prefix) {
  if (region.bytes.empty()) return Success{};
  const NativeArray array(region, region.rva);
  if (!region.ok()) return withPath(prefix + "methodDefEntryPoints", region.takeError());
  if (array.count() > 0x00FFFFFFu) {
    return r2rError(
        region.fileOffset,
        "methodDefEntryPoints: " + std::to_string(array.count()) + " elements, more than a token has MethodDef rows",
        rules::kR2rBadNativeArray);
  }
  for (std::uint32_t row = 0; row < array.count(); ++row) {
    MethodBody m;
    m.token = 0x06000000u | (row + 1);
    m.component = component;
    std::uint64_t at = 0;
    const bool present = array.tryGet(row, at);
    const bool read = present && readEntry(region, at, image, m);
    if (!region.ok()) {
      return withPath(prefix + "methodDefEntryPoints[" + std::to_string(row) + "] (" + methodLabel(m) + ")",
                      region.takeError());
    }
    if (!read) continue;
    image.methods.push_back(std::move(m));
    ++image.summary.methodDefEntryPoints;
    if (!image.components.empty()) ++image.components[component].methodDefEntryPoints;
  }
  return Success{};
}

// The entry point after an instance entry's signature, which must end
// before `limit` (the next entry).
Status readInstanceEntry(NativeRegion& region, const R2RImage& image, const HashtableEntry& e, std::size_t length,
                         std::uint64_t limit, MethodBody& m) {
  std::uint64_t at = e.at + length;
  if (at >= limit) {
    return r2rError(region.fileOffsetOf(e.at), "the signature leaves no room for the entry point",
                    rules::kR2rBadHashtable);
  }
  if (!readEntry(region, at, image, m)) return region.takeError();
  if (at > limit) {
    return r2rError(region.fileOffsetOf(e.at), "the entry point runs into the next entry", rules::kR2rBadHashtable);
  }
  return Success{};
}

// What an instance entry's signature says of its method (its names moved
// out of `sig`); a composite image's instantiation belongs to the component
// whose MethodDef it is.
template <typename Where>
Status describeInstance(const R2RImage& image, InstanceSignature& sig, std::uint64_t signatureOffset,
                        const Where& where, MethodBody& m) {
  m.token = sig.token;
  m.instantiated = true;
  m.signatureFlags = sig.flags;
  m.signatureOffset = signatureOffset;
  m.ownerType = std::move(sig.ownerType);
  m.typeArguments = std::move(sig.typeArguments);
  m.methodArguments = std::move(sig.methodArguments);
  m.hasModule = sig.hasModule;
  m.module = sig.module;
  if (image.components.empty() || !sig.hasModule) return Success{};
  if (sig.module < image.componentModuleBase || sig.module - image.componentModuleBase >= image.components.size()) {
    return r2rError(signatureOffset,
                    where() + ": module " + std::to_string(sig.module) + " is no component of the " +
                        std::to_string(image.components.size()) + " (component modules are " +
                        std::to_string(image.componentModuleBase) + " to " +
                        std::to_string(image.componentModuleBase + image.components.size() - 1) + ")",
                    rules::kR2rBadComposite);
  }
  m.component = sig.module - image.componentModuleBase;
  return Success{};
}

Status readInstanceEntryPoints(NativeRegion region, R2RImage& image, const TypeNames* names) {
  if (region.bytes.empty()) return Success{};
  std::vector<HashtableEntry> entries = hashtableEntries(region, region.rva);
  if (!region.ok()) return withPath("instanceEntryPoints", region.takeError());
  // In address order each entry's bytes end where the next one's start, so
  // reading them all is linear in the section, whatever the table says.
  std::sort(entries.begin(), entries.end(),
            [](const HashtableEntry& a, const HashtableEntry& b) { return a.at < b.at; });
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const HashtableEntry& e = entries[i];
    const auto where = [&] {
      return "instanceEntryPoints@" + shortHex(e.at) + " (bucket " + std::to_string(e.bucket) + ")";
    };
    const std::uint64_t limit = i + 1 < entries.size() ? entries[i + 1].at : region.end();
    if (limit == e.at) {
      return r2rError(region.fileOffsetOf(e.at), where() + ": two hashtable entries point at the same signature",
                      rules::kR2rBadHashtable);
    }
    const ByteSpan bytes =
        region.bytes.subspan(static_cast<std::size_t>(e.at - region.rva), static_cast<std::size_t>(limit - e.at));
    Expected<InstanceSignature> sig = parseInstanceSignature(bytes, region.fileOffsetOf(e.at), names);
    if (!sig) return withPath(where(), sig.error());
    MethodBody m;
    if (Status s = describeInstance(image, *sig, region.fileOffsetOf(e.at), where, m); !s) return s;
    if (Status s = readInstanceEntry(region, image, e, sig->length, limit, m); !s) {
      return withPath(where() + " (" + methodLabel(m) + ")", s.error());
    }
    if (m.signatureFlags & method_sig::kUnboxingStub) ++image.summary.unboxingStubs;
    m.asyncVariant = (m.signatureFlags & method_sig::kAsyncVariant) != 0;
    if (m.asyncVariant) ++image.summary.asyncVariants;
    image.methods.push_back(std::move(m));
    ++image.summary.instanceEntryPoints;
  }
  return Success{};
}

// Section 120 (R2R 8.0+): pairs (cold runtime function, hot runtime
// function) of the methods split into a hot and a cold part. A cold part
// runs from its first runtime function up to the next cold part's (or the
// end of the table); it must not hold a method's entry point.
struct ColdPart {
  std::uint32_t first = 0;
  std::uint32_t count = 0;
  std::uint32_t hot = 0;
  std::uint64_t at = 0;  // file offset of its pair
};

// The pair at `i`, checked against the table and the pair before.
Expected<ColdPart> readColdPart(NativeRegion& region, std::size_t i, std::size_t total,
                                const std::vector<ColdPart>& parts) {
  const std::uint64_t at = region.rva + i * 8;
  ColdPart p;
  p.first = region.fixed(at, 4);
  p.hot = region.fixed(at + 4, 4);
  if (!region.ok()) return region.takeError();
  p.at = region.fileOffsetOf(at);
  const std::string path = "hotColdMap[" + std::to_string(i) + "]";
  if (p.first >= total || p.hot >= total) {
    return r2rError(p.at,
                    path + ": runtime function " + std::to_string(std::max(p.first, p.hot)) +
                        " is outside the table of " + std::to_string(total),
                    rules::kR2rBadHotColdMap);
  }
  if (!parts.empty() && p.first <= parts.back().first) {
    return r2rError(p.at,
                    path + ": cold runtime function " + std::to_string(p.first) +
                        " does not follow the previous pair's (" + std::to_string(parts.back().first) + ")",
                    rules::kR2rBadHotColdMap);
  }
  if (p.hot == p.first) {
    return r2rError(p.at, path + ": a method's hot and cold part are one function", rules::kR2rBadHotColdMap);
  }
  return p;
}

Expected<std::vector<ColdPart>> readHotColdMap(const pe::PeImage& pe, R2RImage& image) {
  NativeRegion region = regionOf(pe, image, section::kHotColdMap);
  std::vector<ColdPart> parts;
  if (region.bytes.empty()) return parts;
  if (region.bytes.size() % 8 != 0) {
    return r2rError(
        region.fileOffset,
        "hotColdMap: " + std::to_string(region.bytes.size()) + " bytes are not a whole number of 8-byte pairs",
        rules::kR2rBadHotColdMap);
  }
  const std::size_t total = image.runtimeFunctions.size();
  const std::size_t count = region.bytes.size() / 8;
  parts.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    Expected<ColdPart> p = readColdPart(region, i, total, parts);
    if (!p) return p.error();
    parts.push_back(*p);
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::size_t end = i + 1 < parts.size() ? parts[i + 1].first : total;
    parts[i].count = static_cast<std::uint32_t>(end - parts[i].first);
    for (std::size_t f = parts[i].first; f < end; ++f) image.runtimeFunctions[f].cold = true;
  }
  return parts;
}

// Orders the bodies by their first runtime function, keeping the order in
// which they were found among equals. A body is large (strings, vectors):
// the keys are sorted, then each body moved once.
void sortByFirstRuntimeFunction(std::vector<MethodBody>& methods) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> keys(methods.size());  // (first function, index)
  for (std::size_t i = 0; i < methods.size(); ++i) {
    keys[i] = {methods[i].firstRuntimeFunction, static_cast<std::uint32_t>(i)};
  }
  if (std::is_sorted(keys.begin(), keys.end())) return;
  std::sort(keys.begin(), keys.end());
  std::vector<MethodBody> sorted;
  sorted.reserve(methods.size());
  for (const auto& key : keys) sorted.push_back(std::move(methods[key.second]));
  methods = std::move(sorted);
}

// Runtime async (R2R 26): a resumption stub is compiled apart from its
// method but placed after the method's body and funclets, and no entry
// point lists it; its debug-info element (section 105 is indexed by
// runtime function) is what marks it. A run of runtime functions that
// some method starts therefore ends at the first later function with an
// element of its own, which starts the stub's body: the runtime counts
// neither body's bytes in the other's code. The stub takes the identity
// (token, instantiation, component) of the method whose run it ends.
// Debug info on a function no method's code precedes is an error: there
// is no method it could belong to.
// The element of runtime function `f` in section 105, if it has one: its
// file offset, checked to be a readable native integer inside the section
// (the tree may point anywhere). A problem is the region's.
class DebugInfoElements {
 public:
  DebugInfoElements(NativeRegion region) : region_(std::move(region)), array_(region_, region_.rva) {}
  DebugInfoElements(const DebugInfoElements&) = delete;
  DebugInfoElements& operator=(const DebugInfoElements&) = delete;

  NativeRegion& region() { return region_; }
  std::optional<std::uint64_t> of(std::size_t f) {
    std::uint64_t at = 0;
    if (!array_.tryGet(static_cast<std::uint32_t>(f), at)) return std::nullopt;
    std::uint64_t probe = at;
    region_.unsignedAt(probe);
    if (!region_.ok()) return std::nullopt;
    return region_.fileOffsetOf(at);
  }
  // The element's problem, if of() found one: "debugInfo[f]: " before it.
  Status status(std::size_t f) {
    if (region_.ok()) return Success{};
    return withPath("debugInfo[" + std::to_string(f) + "]", region_.takeError());
  }

 private:
  NativeRegion region_;
  NativeArray array_;
};

// Debug info on a runtime function before the first method's entry (cold
// parts aside) belongs to no method.
Status checkLeadingFunctions(const R2RImage& image, DebugInfoElements& elements) {
  const std::size_t total = image.runtimeFunctions.size();
  const std::size_t firstEntry = image.methods.empty() ? total : image.methods.front().firstRuntimeFunction;
  for (std::size_t f = 0; f < firstEntry; ++f) {
    if (image.runtimeFunctions[f].cold) continue;
    const std::optional<std::uint64_t> at = elements.of(f);
    if (Status s = elements.status(f); !s) return s;
    if (at) {
      return r2rError(*at,
                      "debugInfo[" + std::to_string(f) + "]: runtime function " + std::to_string(f) +
                          " has debug info of its own, but no method's code precedes it and no entry point names it",
                      rules::kR2rBadEntryPoint);
    }
  }
  return Success{};
}

// The stubs after the method group [i, j): runtime functions with debug
// info of their own before the next entry (or cold part).
Status findStubs(const R2RImage& image, DebugInfoElements& elements, std::size_t i, std::size_t j,
                 std::vector<MethodBody>& stubs) {
  const std::vector<RuntimeFunction>& functions = image.runtimeFunctions;
  const std::uint32_t first = image.methods[i].firstRuntimeFunction;
  const std::size_t next = j < image.methods.size() ? image.methods[j].firstRuntimeFunction : functions.size();
  for (std::size_t f = first + 1; f < next && !functions[f].cold; ++f) {
    const std::optional<std::uint64_t> at = elements.of(f);
    if (Status s = elements.status(f); !s) return s;
    if (!at) continue;
    if (!image.profile.resumptionStubs) {
      return r2rError(*at,
                      "debugInfo[" + std::to_string(f) + "]: runtime function " + std::to_string(f) +
                          " has debug info of its own but no entry point starts it (bodies no entry lists, runtime "
                          "async's resumption stubs, come with R2R 26)",
                      rules::kR2rBadEntryPoint);
    }
    MethodBody stub = image.methods[i];
    stub.resumptionStub = true;
    stub.firstRuntimeFunction = static_cast<std::uint32_t>(f);
    stub.hasFixups = false;
    stub.sharedBody = false;
    stub.entryPointOffset = *at;
    stubs.push_back(std::move(stub));
  }
  return Success{};
}

// The end of the group of methods starting at `i` that share its first
// runtime function.
std::size_t groupEnd(const std::vector<MethodBody>& methods, std::size_t i) {
  std::size_t j = i + 1;
  while (j < methods.size() && methods[j].firstRuntimeFunction == methods[i].firstRuntimeFunction) ++j;
  return j;
}

// Runtime async (R2R 26): a resumption stub is compiled apart from its
// method but placed after the method's body and funclets, and no entry
// point lists it; its debug-info element (section 105 is indexed by
// runtime function) is what marks it. A run of runtime functions that
// some method starts therefore ends at the first later function with an
// element of its own, which starts the stub's body: the runtime counts
// neither body's bytes in the other's code. The stub takes the identity
// (token, instantiation, component) of the method whose run it ends.
// Debug info on a function no method's code precedes is an error: there
// is no method it could belong to.
Status addResumptionStubs(const pe::PeImage& pe, R2RImage& image) {
  NativeRegion region = regionOf(pe, image, section::kDebugInfo);
  if (region.bytes.empty() || image.runtimeFunctions.empty()) return Success{};
  DebugInfoElements elements(std::move(region));
  if (!elements.region().ok()) return withPath("debugInfo", elements.region().takeError());
  if (Status s = checkLeadingFunctions(image, elements); !s) return s;
  std::vector<MethodBody> stubs;
  for (std::size_t i = 0; i < image.methods.size();) {
    const std::size_t j = groupEnd(image.methods, i);
    if (Status s = findStubs(image, elements, i, j, stubs); !s) return s;
    i = j;
  }
  image.summary.resumptionStubs = stubs.size();
  if (stubs.empty()) return Success{};
  for (MethodBody& stub : stubs) image.methods.push_back(std::move(stub));
  sortByFirstRuntimeFunction(image.methods);
  return Success{};
}

// Methods that start at one runtime function (a group) share its body:
// legal (.NET Core 3.1's CoreLib runs two methods with one body), and
// each of them is listed with the whole body: the body and its funclets,
// up to the next body or the first cold part.
Status sizeMethodGroups(R2RImage& image) {
  const std::vector<RuntimeFunction>& functions = image.runtimeFunctions;
  for (std::size_t i = 0; i < image.methods.size();) {
    const std::uint32_t first = image.methods[i].firstRuntimeFunction;
    const std::size_t j = groupEnd(image.methods, i);
    if (functions[first].cold) {
      return r2rError(image.methods[i].entryPointOffset,
                      methodLabel(image.methods[i]) + ": its entry, runtime function " + std::to_string(first) +
                          ", is the cold part of a split method",
                      rules::kR2rBadHotColdMap);
    }
    const std::size_t next = j < image.methods.size() ? image.methods[j].firstRuntimeFunction : functions.size();
    std::size_t end = first + 1;
    while (end < next && !functions[end].cold) ++end;
    for (std::size_t k = i; k < j; ++k) {
      MethodBody& m = image.methods[k];
      m.runtimeFunctionCount = static_cast<std::uint32_t>(end - first);
      m.entryRva = functions[first].begin;
      m.sharedBody = j - i > 1;
    }
    if (j - i > 1) image.summary.sharedBodies += j - i;
    i = j;
  }
  return Success{};
}

// Each cold part joins the method (group) whose hot entry it names.
Status attachColdParts(R2RImage& image, const std::vector<ColdPart>& coldParts) {
  for (const ColdPart& p : coldParts) {
    const auto it = std::lower_bound(image.methods.begin(), image.methods.end(), p.hot,
                                     [](const MethodBody& m, std::uint32_t f) { return m.firstRuntimeFunction < f; });
    if (it == image.methods.end() || it->firstRuntimeFunction != p.hot || it->resumptionStub) {
      return r2rError(p.at, "hotColdMap: hot runtime function " + std::to_string(p.hot) + " is no method's entry",
                      rules::kR2rBadHotColdMap);
    }
    if (it->coldRuntimeFunctionCount != 0) {
      return r2rError(p.at, "hotColdMap: " + methodLabel(*it) + " has two cold parts", rules::kR2rBadHotColdMap);
    }
    for (auto m = it; m != image.methods.end() && m->firstRuntimeFunction == p.hot; ++m) {
      m->firstColdRuntimeFunction = p.first;
      m->coldRuntimeFunctionCount = p.count;
    }
    ++image.summary.splitMethods;
  }
  return Success{};
}

// Each method's code size: its hot and cold runtime functions.
Status sizeMethods(R2RImage& image) {
  const std::vector<RuntimeFunction>& functions = image.runtimeFunctions;
  const auto sizeOf = [&](std::size_t first, std::size_t end) {
    std::uint64_t size = 0;
    for (std::size_t f = first; f < end; ++f) size += functions[f].size();
    return size;
  };
  for (MethodBody& m : image.methods) {
    const std::uint64_t size =
        sizeOf(m.firstRuntimeFunction, m.firstRuntimeFunction + m.runtimeFunctionCount) +
        sizeOf(m.firstColdRuntimeFunction, m.firstColdRuntimeFunction + m.coldRuntimeFunctionCount);
    if (size > 0xFFFFFFFFu) {
      return r2rError(m.entryPointOffset,
                      methodLabel(m) + ": code size " + std::to_string(size) + " does not fit in 32 bits",
                      rules::kR2rBadEntryPoint);
    }
    m.codeSize = static_cast<std::uint32_t>(size);
  }
  return Success{};
}

}  // namespace

Status readEntryPoints(const pe::PeImage& pe, R2RImage& image, const TypeNames* names) {
  // About one body per runtime function (funclets fewer, shared bodies and
  // stubs more): reserving that many spares moving every body as it grows.
  image.methods.reserve(image.runtimeFunctions.size());
  Status read = Success{};
  if (image.components.empty()) {
    read = readMethodDefEntryPoints(regionOf(pe, image, section::kMethodDefEntryPoints), image, 0, "");
  } else {
    for (std::uint32_t c = 0; c < image.components.size() && read; ++c) {
      read = readMethodDefEntryPoints(regionOf(pe, image.components[c].findSection(section::kMethodDefEntryPoints)),
                                      image, c, "componentAssemblies[" + std::to_string(c) + "].");
    }
  }
  // Memory stays linear in the image: a NativeArray's count is bounded by
  // its block index (16 elements per index entry), a hashtable's entries by
  // their distinct places in the section.
  if (read) read = readInstanceEntryPoints(regionOf(pe, image, section::kInstanceMethodEntryPoints), image, names);
  if (!read) return read;
  sortByFirstRuntimeFunction(image.methods);
  const Expected<std::vector<ColdPart>> coldParts = readHotColdMap(pe, image);
  if (!coldParts) return coldParts.error();
  if (read) read = addResumptionStubs(pe, image);
  if (read) read = sizeMethodGroups(image);
  if (read) read = attachColdParts(image, *coldParts);
  if (read) read = sizeMethods(image);
  if (!read) return read;
  if (!image.methods.empty()) image.summary.unclaimedRuntimeFunctions = image.methods.front().firstRuntimeFunction;
  return Success{};
}

}  // namespace gdmap::r2r
