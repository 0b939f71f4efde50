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

// Each method starts at its own runtime function, so there cannot be more
// methods than functions: checked as they come, which bounds the memory a
// hostile NativeArray (many indexes sharing one element) could claim.
void addMethod(R2RImage& image, MethodBody&& m) {
  if (image.methods.size() == image.runtimeFunctions.size()) {
    fail(m.entryPointOffset,
         "more entry points than the " + std::to_string(image.runtimeFunctions.size()) +
             " runtime functions: two methods would share one",
         rules::kR2rBadEntryPoint);
  }
  image.methods.push_back(std::move(m));
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
      addMethod(image, std::move(m));
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
    addMethod(image, std::move(m));
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

MethodBody* methodStartingAt(std::vector<MethodBody>& methods, std::uint32_t function) {
  const auto it = std::lower_bound(methods.begin(), methods.end(), function,
                                   [](const MethodBody& m, std::uint32_t f) { return m.firstRuntimeFunction < f; });
  return it != methods.end() && it->firstRuntimeFunction == function ? &*it : nullptr;
}

}  // namespace

void readEntryPoints(const pe::PeImage& pe, R2RImage& image, const TypeNames* names) {
  // At most one method per runtime function (addMethod checks): reserving
  // that many spares moving every body as the vector grows.
  image.methods.reserve(image.runtimeFunctions.size());
  if (image.components.empty()) {
    readMethodDefEntryPoints(regionOf(pe, image, section::kMethodDefEntryPoints), image, 0, "");
  } else {
    for (std::uint32_t c = 0; c < image.components.size(); ++c) {
      readMethodDefEntryPoints(regionOf(pe, image.components[c].findSection(section::kMethodDefEntryPoints)), image, c,
                               "componentAssemblies[" + std::to_string(c) + "].");
    }
  }
  readInstanceEntryPoints(regionOf(pe, image, section::kInstanceMethodEntryPoints), image, names);

  std::stable_sort(image.methods.begin(), image.methods.end(), [](const MethodBody& a, const MethodBody& b) {
    return a.firstRuntimeFunction < b.firstRuntimeFunction;
  });
  const std::vector<ColdPart> coldParts = readHotColdMap(pe, image);
  const std::vector<RuntimeFunction>& functions = image.runtimeFunctions;
  const std::size_t total = functions.size();
  const auto sizeOf = [&](std::size_t first, std::size_t end) {
    std::uint64_t size = 0;
    for (std::size_t f = first; f < end; ++f) size += functions[f].size();
    return size;
  };
  for (std::size_t i = 0; i < image.methods.size(); ++i) {
    MethodBody& m = image.methods[i];
    if (functions[m.firstRuntimeFunction].cold) {
      fail(m.entryPointOffset,
           methodLabel(m) + ": its entry, runtime function " + std::to_string(m.firstRuntimeFunction) +
               ", is the cold part of a split method",
           rules::kR2rBadHotColdMap);
    }
    const std::size_t next = i + 1 < image.methods.size() ? image.methods[i + 1].firstRuntimeFunction : total;
    if (next == m.firstRuntimeFunction) {
      fail(image.methods[i + 1].entryPointOffset,
           methodLabel(m) + " and " + methodLabel(image.methods[i + 1]) + " both start at runtime function " +
               std::to_string(next),
           rules::kR2rBadEntryPoint);
    }
    // The body and its funclets: up to the next method or the first cold part.
    std::size_t end = m.firstRuntimeFunction + 1;
    while (end < next && !functions[end].cold) ++end;
    m.runtimeFunctionCount = static_cast<std::uint32_t>(end - m.firstRuntimeFunction);
    m.entryRva = functions[m.firstRuntimeFunction].begin;
  }
  for (const ColdPart& p : coldParts) {
    MethodBody* hot = methodStartingAt(image.methods, p.hot);
    if (hot == nullptr) {
      fail(p.at, "hotColdMap: hot runtime function " + std::to_string(p.hot) + " is no method's entry",
           rules::kR2rBadHotColdMap);
    }
    if (hot->coldRuntimeFunctionCount != 0) {
      fail(p.at, "hotColdMap: " + methodLabel(*hot) + " has two cold parts", rules::kR2rBadHotColdMap);
    }
    hot->firstColdRuntimeFunction = p.first;
    hot->coldRuntimeFunctionCount = p.count;
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
