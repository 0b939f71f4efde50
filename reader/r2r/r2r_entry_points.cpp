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

void readMethodDefEntryPoints(const NativeRegion& region, R2RImage& image) {
  if (region.bytes.empty()) return;
  const NativeArray array = withPath("methodDefEntryPoints", [&] { return NativeArray(region, region.rva); });
  if (array.count() > 0x00FFFFFFu) {
    fail(region.fileOffset,
         "methodDefEntryPoints: " + std::to_string(array.count()) + " elements, more than a token has MethodDef rows",
         rules::kR2rBadNativeArray);
  }
  for (std::uint32_t row = 0; row < array.count(); ++row) {
    MethodBody m;
    m.token = 0x06000000u | (row + 1);
    const auto path = [&] { return "methodDefEntryPoints[" + std::to_string(row) + "] (" + methodLabel(m) + ")"; };
    withPath(path, [&] {
      std::uint64_t at = 0;
      if (!array.tryGet(row, at)) return;
      readEntry(region, at, image, m);
      addMethod(image, std::move(m));
      ++image.summary.methodDefEntryPoints;
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

}  // namespace

void readEntryPoints(const pe::PeImage& pe, R2RImage& image, const TypeNames* names) {
  readMethodDefEntryPoints(regionOf(pe, image, section::kMethodDefEntryPoints), image);
  readInstanceEntryPoints(regionOf(pe, image, section::kInstanceMethodEntryPoints), image, names);

  std::stable_sort(image.methods.begin(), image.methods.end(), [](const MethodBody& a, const MethodBody& b) {
    return a.firstRuntimeFunction < b.firstRuntimeFunction;
  });
  const std::size_t total = image.runtimeFunctions.size();
  for (std::size_t i = 0; i < image.methods.size(); ++i) {
    MethodBody& m = image.methods[i];
    const std::size_t next = i + 1 < image.methods.size() ? image.methods[i + 1].firstRuntimeFunction : total;
    if (next == m.firstRuntimeFunction) {
      fail(image.methods[i + 1].entryPointOffset,
           methodLabel(m) + " and " + methodLabel(image.methods[i + 1]) + " both start at runtime function " +
               std::to_string(next),
           rules::kR2rBadEntryPoint);
    }
    m.runtimeFunctionCount = static_cast<std::uint32_t>(next - m.firstRuntimeFunction);
    std::uint64_t size = 0;
    for (std::size_t f = m.firstRuntimeFunction; f < next; ++f) size += image.runtimeFunctions[f].size();
    if (size > 0xFFFFFFFFu) {
      fail(m.entryPointOffset, methodLabel(m) + ": code size " + std::to_string(size) + " does not fit in 32 bits",
           rules::kR2rBadEntryPoint);
    }
    m.codeSize = static_cast<std::uint32_t>(size);
    m.entryRva = image.runtimeFunctions[m.firstRuntimeFunction].begin;
  }
  if (!image.methods.empty()) image.summary.unclaimedRuntimeFunctions = image.methods.front().firstRuntimeFunction;
}

}  // namespace gdmap::r2r
