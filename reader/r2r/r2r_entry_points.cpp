// Sections 103 (MethodDef entry points, a NativeArray by MethodDef row) and
// 109 (instance entry points, a NativeHashtable keyed by signature): which
// runtime function each precompiled method starts at. A method owns the
// runtime functions from its entry up to the next method's entry: its body
// and then its funclets.
#include "r2r_failure.hpp"
#include "r2r_parts.hpp"
#include "r2r_signature.hpp"

#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <optional>

namespace gdmap::r2r {
namespace {

// An entry point (readytoruninfo.cpp, GetEntryPoint): the runtime function
// index shifted left by 1, or by 2 with bit 0 set when a fixup list comes
// first (bit 1: the list is at a lookback given by a second integer).
void readEntry(const NativeRegion& region, std::uint64_t& at, const R2RImage& image, MethodBody& m) {
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
  if (id >= image.runtimeFunctions.size()) {
    fail(region.fileOffsetOf(start),
         "entry point names runtime function " + std::to_string(id) + ", the table has " +
             std::to_string(image.runtimeFunctions.size()),
         rules::kR2rIndexOutOfRange);
  }
  m.firstRuntimeFunction = id;
}

void readMethodDefEntryPoints(const NativeRegion& region, R2RImage& image, std::uint32_t component,
                              const std::string& prefix) {
  if (region.bytes.empty()) return;
  const NativeArray array = withPath(prefix + "methodDefEntryPoints", [&] { return NativeArray(region, region.rva); });
  if (array.count() > 0x00FFFFFFu) {
    fail(region.fileOffset,
         "methodDefEntryPoints: " + std::to_string(array.count()) + " elements, more than a token has MethodDef rows",
         rules::kR2rBadNativeArray);
  }
  for (std::uint32_t row = 0; row < array.count(); ++row) {
    MethodBody m;
    m.token = 0x06000000u | (row + 1);
    m.component = component;
    const auto path = [&] {
      return prefix + "methodDefEntryPoints[" + std::to_string(row) + "] (" + methodLabel(m) + ")";
    };
    withPath(path, [&] {
      std::uint64_t at = 0;
      if (!array.tryGet(row, at)) return;
      readEntry(region, at, image, m);
      image.methods.push_back(std::move(m));
      ++image.summary.methodDefEntryPoints;
      if (!image.components.empty()) ++image.components[component].methodDefEntryPoints;
    });
  }
}

void readInstanceEntryPoints(const NativeRegion& region, R2RImage& image, const TypeNames* names) {
  if (region.bytes.empty()) return;
  std::vector<HashtableEntry> entries =
      withPath("instanceEntryPoints", [&] { return hashtableEntries(region, region.rva); });
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
      fail(region.fileOffsetOf(e.at), where() + ": two hashtable entries point at the same signature",
           rules::kR2rBadHashtable);
    }
    const ByteSpan bytes =
        region.bytes.subspan(static_cast<std::size_t>(e.at - region.rva), static_cast<std::size_t>(limit - e.at));
    const InstanceSignature sig =
        withPath(where, [&] { return parseInstanceSignature(bytes, region.fileOffsetOf(e.at), names); });
    MethodBody m;
    m.token = sig.token;
    m.instantiated = true;
    m.signatureFlags = sig.flags;
    m.signatureOffset = region.fileOffsetOf(e.at);
    m.ownerType = sig.ownerType;
    m.typeArguments = sig.typeArguments;
    m.methodArguments = sig.methodArguments;
    m.hasModule = sig.hasModule;
    m.module = sig.module;
    if (!image.components.empty() && sig.hasModule) {
      // A composite image's instantiation belongs to the component whose
      // MethodDef it is.
      if (sig.module < image.componentModuleBase || sig.module - image.componentModuleBase >= image.components.size()) {
        fail(region.fileOffsetOf(e.at),
             where() + ": module " + std::to_string(sig.module) + " is no component of the " +
                 std::to_string(image.components.size()) + " (component modules are " +
                 std::to_string(image.componentModuleBase) + " to " +
                 std::to_string(image.componentModuleBase + image.components.size() - 1) + ")",
             rules::kR2rBadComposite);
      }
      m.component = sig.module - image.componentModuleBase;
    }
    withPath([&] { return where() + " (" + methodLabel(m) + ")"; },
             [&] {
               std::uint64_t at = e.at + sig.length;
               if (at >= limit)
                 fail(region.fileOffsetOf(e.at), "the signature leaves no room for the entry point",
                      rules::kR2rBadHashtable);
               readEntry(region, at, image, m);
               if (at > limit) {
                 fail(region.fileOffsetOf(e.at), "the entry point runs into the next entry", rules::kR2rBadHashtable);
               }
             });
    if (m.signatureFlags & method_sig::kUnboxingStub) ++image.summary.unboxingStubs;
    m.asyncVariant = (m.signatureFlags & method_sig::kAsyncVariant) != 0;
    if (m.asyncVariant) ++image.summary.asyncVariants;
    image.methods.push_back(std::move(m));
    ++image.summary.instanceEntryPoints;
  }
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

std::vector<ColdPart> readHotColdMap(const pe::PeImage& pe, R2RImage& image) {
  const NativeRegion region = regionOf(pe, image, section::kHotColdMap);
  std::vector<ColdPart> parts;
  if (region.bytes.empty()) return parts;
  if (region.bytes.size() % 8 != 0) {
    fail(region.fileOffset,
         "hotColdMap: " + std::to_string(region.bytes.size()) + " bytes are not a whole number of 8-byte pairs",
         rules::kR2rBadHotColdMap);
  }
  const std::size_t total = image.runtimeFunctions.size();
  const std::size_t count = region.bytes.size() / 8;
  parts.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t at = region.rva + i * 8;
    ColdPart p;
    p.first = region.fixed(at, 4);
    p.hot = region.fixed(at + 4, 4);
    p.at = region.fileOffsetOf(at);
    const std::string path = "hotColdMap[" + std::to_string(i) + "]";
    if (p.first >= total || p.hot >= total) {
      fail(p.at,
           path + ": runtime function " + std::to_string(std::max(p.first, p.hot)) + " is outside the table of " +
               std::to_string(total),
           rules::kR2rBadHotColdMap);
    }
    if (!parts.empty() && p.first <= parts.back().first) {
      fail(p.at,
           path + ": cold runtime function " + std::to_string(p.first) + " does not follow the previous pair's (" +
               std::to_string(parts.back().first) + ")",
           rules::kR2rBadHotColdMap);
    }
    if (p.hot == p.first)
      fail(p.at, path + ": a method's hot and cold part are one function", rules::kR2rBadHotColdMap);
    parts.push_back(p);
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
void addResumptionStubs(const pe::PeImage& pe, R2RImage& image) {
  const NativeRegion region = regionOf(pe, image, section::kDebugInfo);
  if (region.bytes.empty() || image.runtimeFunctions.empty()) return;
  const NativeArray debugInfo = withPath("debugInfo", [&] { return NativeArray(region, region.rva); });
  const std::vector<RuntimeFunction>& functions = image.runtimeFunctions;
  const std::size_t total = functions.size();
  // The element of runtime function `f`, if it has one: its file offset,
  // checked to be a readable native integer inside the section (the tree
  // may point anywhere).
  const auto elementOf = [&](std::size_t f) -> std::optional<std::uint64_t> {
    return withPath([&] { return "debugInfo[" + std::to_string(f) + "]"; },
                    [&]() -> std::optional<std::uint64_t> {
                      std::uint64_t at = 0;
                      if (!debugInfo.tryGet(static_cast<std::uint32_t>(f), at)) return std::nullopt;
                      std::uint64_t probe = at;
                      region.unsignedAt(probe);
                      return region.fileOffsetOf(at);
                    });
  };
  const std::size_t firstEntry = image.methods.empty() ? total : image.methods.front().firstRuntimeFunction;
  for (std::size_t f = 0; f < firstEntry; ++f) {
    if (functions[f].cold) continue;
    if (const std::optional<std::uint64_t> at = elementOf(f)) {
      fail(*at,
           "debugInfo[" + std::to_string(f) + "]: runtime function " + std::to_string(f) +
               " has debug info of its own, but no method's code precedes it and no entry point names it",
           rules::kR2rBadEntryPoint);
    }
  }
  std::vector<MethodBody> stubs;
  for (std::size_t i = 0; i < image.methods.size();) {
    const std::uint32_t first = image.methods[i].firstRuntimeFunction;
    std::size_t j = i + 1;
    while (j < image.methods.size() && image.methods[j].firstRuntimeFunction == first) ++j;
    const std::size_t next = j < image.methods.size() ? image.methods[j].firstRuntimeFunction : total;
    for (std::size_t f = first + 1; f < next && !functions[f].cold; ++f) {
      const std::optional<std::uint64_t> at = elementOf(f);
      if (!at) continue;
      if (!image.profile.resumptionStubs) {
        fail(*at,
             "debugInfo[" + std::to_string(f) + "]: runtime function " + std::to_string(f) +
                 " has debug info of its own but no entry point starts it (bodies no entry lists, runtime async's "
                 "resumption stubs, come with R2R 26)",
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
    i = j;
  }
  image.summary.resumptionStubs = stubs.size();
  if (stubs.empty()) return;
  for (MethodBody& stub : stubs) image.methods.push_back(std::move(stub));
  sortByFirstRuntimeFunction(image.methods);
}

}  // namespace

void readEntryPoints(const pe::PeImage& pe, R2RImage& image, const TypeNames* names) {
  // About one body per runtime function (funclets fewer, shared bodies and
  // stubs more): reserving that many spares moving every body as it grows.
  image.methods.reserve(image.runtimeFunctions.size());
  if (image.components.empty()) {
    readMethodDefEntryPoints(regionOf(pe, image, section::kMethodDefEntryPoints), image, 0, "");
  } else {
    for (std::uint32_t c = 0; c < image.components.size(); ++c) {
      readMethodDefEntryPoints(regionOf(pe, image.components[c].findSection(section::kMethodDefEntryPoints)), image, c,
                               "componentAssemblies[" + std::to_string(c) + "].");
    }
  }
  // Memory stays linear in the image: a NativeArray's count is bounded by
  // its block index (16 elements per index entry), a hashtable's entries by
  // their distinct places in the section.
  readInstanceEntryPoints(regionOf(pe, image, section::kInstanceMethodEntryPoints), image, names);

  sortByFirstRuntimeFunction(image.methods);
  const std::vector<ColdPart> coldParts = readHotColdMap(pe, image);
  addResumptionStubs(pe, image);
  const std::vector<RuntimeFunction>& functions = image.runtimeFunctions;
  const std::size_t total = functions.size();
  const auto sizeOf = [&](std::size_t first, std::size_t end) {
    std::uint64_t size = 0;
    for (std::size_t f = first; f < end; ++f) size += functions[f].size();
    return size;
  };
  // Methods that start at one runtime function (a group) share its body:
  // legal (.NET Core 3.1's CoreLib runs two methods with one body), and
  // each of them is listed with the whole body.
  for (std::size_t i = 0; i < image.methods.size();) {
    const std::uint32_t first = image.methods[i].firstRuntimeFunction;
    std::size_t j = i + 1;
    while (j < image.methods.size() && image.methods[j].firstRuntimeFunction == first) ++j;
    if (functions[first].cold) {
      fail(image.methods[i].entryPointOffset,
           methodLabel(image.methods[i]) + ": its entry, runtime function " + std::to_string(first) +
               ", is the cold part of a split method",
           rules::kR2rBadHotColdMap);
    }
    const std::size_t next = j < image.methods.size() ? image.methods[j].firstRuntimeFunction : total;
    // The body and its funclets: up to the next body or the first cold part.
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
  for (const ColdPart& p : coldParts) {
    const auto it = std::lower_bound(image.methods.begin(), image.methods.end(), p.hot,
                                     [](const MethodBody& m, std::uint32_t f) { return m.firstRuntimeFunction < f; });
    if (it == image.methods.end() || it->firstRuntimeFunction != p.hot || it->resumptionStub) {
      fail(p.at, "hotColdMap: hot runtime function " + std::to_string(p.hot) + " is no method's entry",
           rules::kR2rBadHotColdMap);
    }
    if (it->coldRuntimeFunctionCount != 0) {
      fail(p.at, "hotColdMap: " + methodLabel(*it) + " has two cold parts", rules::kR2rBadHotColdMap);
    }
    for (auto m = it; m != image.methods.end() && m->firstRuntimeFunction == p.hot; ++m) {
      m->firstColdRuntimeFunction = p.first;
      m->coldRuntimeFunctionCount = p.count;
    }
    ++image.summary.splitMethods;
  }
  for (MethodBody& m : image.methods) {
    const std::uint64_t size =
        sizeOf(m.firstRuntimeFunction, m.firstRuntimeFunction + m.runtimeFunctionCount) +
        sizeOf(m.firstColdRuntimeFunction, m.firstColdRuntimeFunction + m.coldRuntimeFunctionCount);
    if (size > 0xFFFFFFFFu) {
      fail(m.entryPointOffset, methodLabel(m) + ": code size " + std::to_string(size) + " does not fit in 32 bits",
           rules::kR2rBadEntryPoint);
    }
    m.codeSize = static_cast<std::uint32_t>(size);
  }
  if (!image.methods.empty()) image.summary.unclaimedRuntimeFunctions = image.methods.front().firstRuntimeFunction;
}

}  // namespace gdmap::r2r
