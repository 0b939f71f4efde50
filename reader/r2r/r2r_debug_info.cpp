// Section 105: a NativeArray indexed by a method's first runtime function.
// An element is a native unsigned lookback: 0 means the method's blob
// follows the element; otherwise the blob starts `lookback` bytes before
// the element (an identical blob written for an earlier method). The
// runtime follows one hop and reads a blob there (readytoruninfo.cpp,
// GetDebugInfo); a lookback landing on another lookback element would be
// read as a blob header, so it is an error here (r2r-lookback-chain), and
// no chain can loop. A blob is the nibble header cbBounds, cbVars (flushed
// to a byte), then cbBounds bytes of nibble bounds, then cbVars bytes of
// variable locations (debuginfostore.cpp, CompressDebugInfo). From R2R 16
// the bounds are bit-packed (FORMAT.md §3.3); from 17 a blob whose first
// value is 0 has the "fat" header: six sizes (bounds, vars, uninstrumented
// bounds, patchpoint info, rich debug info, async info), the parts in that
// order (the cDAC's DebugInfo contract).
#include <gdmap/internal/nibble_cursor.hpp>
#include "r2r_errors.hpp"
#include "r2r_parts.hpp"

#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace gdmap::r2r {
namespace {

struct Element {
  std::size_t method = 0;  // index into image.methods
  std::uint64_t at = 0;    // RVA of the element
  std::uint32_t lookback = 0;
  std::uint64_t blob = 0;  // RVA of the blob it names
};

struct Blob {
  std::uint64_t at = 0;  // RVA
  std::uint64_t end = 0;
  std::size_t headerSize = 0;
  bool fat = false;
  std::uint32_t cbBounds = 0;
  std::uint32_t cbVars = 0;
  std::size_t firstUser = 0;            // index into elements, for error paths
  std::uint32_t lastNative = 0;         // the largest native offset of its bounds
  std::optional<std::uint32_t> lastIl;  // the largest IL offset of its bounds (prolog, epilog, no_mapping aside)
  std::uint32_t trailing = 0;           // bytes of cbBounds after the last bound
};

std::string elementPath(const R2RImage& image, const Element& e) {
  const MethodBody& m = image.methods[e.method];
  return "debugInfo[" + std::to_string(m.firstRuntimeFunction) + "] (" + methodLabel(m) + ")";
}

constexpr const char* kSizeNames[] = {"cbBounds",         "cbVars",          "cbUninstrumentedBounds",
                                      "cbPatchpointInfo", "cbRichDebugInfo", "cbAsyncInfo"};

// The nibble varint of header field `name`; false, and the region's error
// worded for the header, when it does not read.
bool headerSize(NativeRegion& region, std::uint64_t at, NibbleCursor& nibbles, const char* prefix, const char* name,
                std::uint32_t& out) {
  const NibbleCursor::Varint v = nibbles.varint();
  out = v.value;
  if (nibbles.ok()) return true;
  const std::string field = std::string("header.") + prefix + name;
  if (nibbles.problem() == NibbleCursor::Problem::Truncated) {
    return region.fail(region.fileOffsetOf(at) + v.at / 2, field + ": the section ends inside it",
                       rules::kR2rTruncated);
  }
  return region.fail(
      region.fileOffsetOf(at) + v.at / 2,
      field + ": nibble varint " +
          (nibbles.problem() == NibbleCursor::Problem::TooLong ? "longer than 11 nibbles" : "over 32 bits"),
      rules::kR2rBadDebugInfo);
}

// The nibble header, and the blob's extent; nothing past the section.
// Problems are the region's.
Blob readBlobHeader(NativeRegion& region, std::uint64_t at, const FormatProfile& profile) {
  Blob b;
  b.at = at;
  const ByteSpan rest = region.from(at);
  NibbleCursor nibbles(rest);
  std::uint32_t sizes[6] = {0, 0, 0, 0, 0, 0};
  if (!headerSize(region, at, nibbles, "", profile.fatDebugInfo ? "cbBounds (or the fat marker 0)" : "cbBounds",
                  sizes[0])) {
    return b;
  }
  std::size_t count = 2;
  if (profile.fatDebugInfo && sizes[0] == 0) {
    b.fat = true;
    count = 6;
    for (std::size_t i = 0; i < count; ++i) {
      if (!headerSize(region, at, nibbles, "fat.", kSizeNames[i], sizes[i])) return b;
    }
  } else if (!headerSize(region, at, nibbles, "", kSizeNames[1], sizes[1])) {
    return b;
  }
  // Flushed to a whole byte: an odd nibble count leaves a zero high half.
  if (nibbles.position() % 2 == 1 && nibbles.nibble() != 0) {
    region.fail(region.fileOffsetOf(at) + nibbles.position() / 2 - 1, "header: non-zero padding nibble",
                rules::kR2rBadDebugInfo);
    return b;
  }
  b.headerSize = (nibbles.position() + 1) / 2;
  b.cbBounds = sizes[0];
  b.cbVars = sizes[1];
  std::uint64_t total = b.headerSize;
  for (std::size_t i = 0; i < count; ++i) total += sizes[i];
  if (total > rest.size()) {
    std::string parts;
    for (std::size_t i = 0; i < count; ++i) {
      parts += (i == 0 ? "" : ", ") + std::string(kSizeNames[i]) + " " + std::to_string(sizes[i]);
    }
    region.fail(region.fileOffsetOf(at),
                "blob of " + std::to_string(total) + " bytes (" + parts + ") runs past the end of the section (" +
                    std::to_string(rest.size()) + " byte(s) left)",
                rules::kR2rTruncated);
    return b;
  }
  b.end = at + total;
  return b;
}

// 1. Every method's element and the blob it names. 2. One hop only: a
// lookback must not land on another lookback.
// Method `e.method`'s element, if present (the region's error otherwise).
bool readElement(NativeRegion& region, const NativeArray& array, const R2RImage& image, Element& e) {
  if (!array.tryGet(image.methods[e.method].firstRuntimeFunction, e.at)) return false;
  std::uint64_t after = e.at;
  e.lookback = region.unsignedAt(after);
  if (!region.ok()) return false;
  if (e.lookback == 0) {
    e.blob = after;
  } else if (e.lookback > e.at - region.rva) {
    return region.fail(region.fileOffsetOf(e.at),
                       "lookback " + shortHex(e.lookback) + " points " + shortHex(e.lookback - (e.at - region.rva)) +
                           " bytes before the section",
                       rules::kR2rLookbackOutside);
  } else {
    e.blob = e.at - e.lookback;
  }
  return true;
}

Expected<std::vector<Element>> readElements(NativeRegion& region, const NativeArray& array, const R2RImage& image) {
  std::vector<Element> elements;
  std::unordered_set<std::uint64_t> lookbackElements;
  for (std::size_t i = 0; i < image.methods.size(); ++i) {
    Element e;
    e.method = i;
    const bool present = readElement(region, array, image, e);
    if (!region.ok()) return withPath(elementPath(image, e), region.takeError());
    if (!present) continue;
    if (e.lookback != 0) lookbackElements.insert(e.at);
    elements.push_back(e);
  }

  for (const Element& e : elements) {
    if (e.lookback != 0 && lookbackElements.count(e.blob) != 0) {
      return r2rError(region.fileOffsetOf(e.at),
                      elementPath(image, e) + ": lookback " + shortHex(e.lookback) +
                          " lands on another lookback element at RVA " + shortHex(e.blob) + ", not on a blob",
                      rules::kR2rLookbackChain);
    }
  }
  return elements;
}

// 3. Each distinct blob's header and extent (blobIndex: by RVA, its index);
// blobs must not overlap, so validating them all is linear in the section.
Expected<std::vector<Blob>> readBlobs(NativeRegion& region, const R2RImage& image, const std::vector<Element>& elements,
                                      std::unordered_map<std::uint64_t, std::size_t>& blobIndex) {
  std::vector<Blob> blobs;
  for (std::size_t k = 0; k < elements.size(); ++k) {
    const Element& e = elements[k];
    if (blobIndex.count(e.blob) != 0) continue;
    Blob b = readBlobHeader(region, e.blob, image.profile);
    if (!region.ok()) return withPath(elementPath(image, e), region.takeError());
    b.firstUser = k;
    blobIndex.emplace(e.blob, blobs.size());
    blobs.push_back(b);
  }
  std::vector<std::size_t> order(blobs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return blobs[a].at < blobs[b].at; });
  for (std::size_t i = 1; i < order.size(); ++i) {
    const Blob& before = blobs[order[i - 1]];
    const Blob& after = blobs[order[i]];
    if (after.at < before.end) {
      return r2rError(region.fileOffsetOf(after.at),
                      elementPath(image, elements[after.firstUser]) + ": its blob at RVA " + shortHex(after.at) +
                          " overlaps the blob at RVA " + shortHex(before.at) + " (" +
                          std::to_string(before.end - before.at) + " bytes)",
                      rules::kR2rBadDebugInfo);
    }
  }
  return blobs;
}

// 4. The bounds of each blob must decode in the version's form (FORMAT.md
// §3.3, strict).
Status decodeBlobBounds(const NativeRegion& region, const R2RImage& image, const std::vector<Element>& elements,
                        std::vector<Blob>& blobs) {
  for (Blob& b : blobs) {
    if (b.cbBounds == 0) continue;
    const std::uint64_t boundsAt = b.at + b.headerSize;
    const ByteSpan bounds = region.from(boundsAt).first(b.cbBounds);
    Expected<il::BoundsView> opened = il::openBounds(bounds, image.profile.bounds);
    // Bytes after the last bound: the runtime reads `count` bounds and never
    // looks further, and crossgen2 pads some blobs (32 zero bytes after a
    // 3-bound blob in .NET 10's framework). Part of the image, so accepted
    // and kept: `il extract` describes them as a layout override.
    if (!opened && opened.error().rule == rules::kIlTrailingBytes) {
      b.trailing = static_cast<std::uint32_t>(b.cbBounds - opened.error().byteOffset());
      opened = il::openBounds(bounds.first(opened.error().byteOffset()), image.profile.bounds);
    }
    if (!opened) {
      const Error& p = opened.error();
      return r2rError(region.fileOffsetOf(boundsAt) + p.byteOffset(),
                      elementPath(image, elements[b.firstUser]) + ": bounds blob: " + p.path + ": " + p.message,
                      p.rule.c_str());
    }
    il::BoundsView::Cursor cursor = opened->cursor();
    for (il::Bound bound; cursor.next(bound);) {
      b.lastNative = std::max(b.lastNative, bound.nativeOffset);
      if (bound.ilOffset < il::kEpilog && (!b.lastIl || bound.ilOffset > *b.lastIl)) b.lastIl = bound.ilOffset;
    }
  }
  return Success{};
}

// 5. The methods' views.
Status attachDebugInfo(const NativeRegion& region, R2RImage& image, const std::vector<Element>& elements,
                       const std::vector<Blob>& blobs,
                       const std::unordered_map<std::uint64_t, std::size_t>& blobIndex) {
  for (const Element& e : elements) {
    MethodBody& m = image.methods[e.method];
    const Blob& b = blobs[blobIndex.at(e.blob)];
    // The code generator reports offsets inside the code (the end at most,
    // for an epilog bound); a larger one means a wrong code size or blob.
    if (b.lastNative > m.codeSize) {
      return r2rError(region.fileOffsetOf(b.at),
                      elementPath(image, e) + ": a bound at native offset " + std::to_string(b.lastNative) +
                          " lies past the method's " + std::to_string(m.codeSize) + " bytes of code",
                      rules::kR2rBoundPastCode);
    }
    m.hasDebugInfo = true;
    m.sharedDebugInfo = e.lookback != 0;
    m.fatDebugInfo = b.fat;
    m.boundsTrailing = b.trailing;
    m.largestIlOffset = b.lastIl;
    m.debugInfoOffset = region.fileOffsetOf(b.at);
    m.debugInfoElementOffset = region.fileOffsetOf(e.at);
    m.debugInfo = region.from(b.at).first(static_cast<std::size_t>(b.end - b.at));
    m.bounds = m.debugInfo.subspan(b.headerSize, b.cbBounds);
    m.vars = m.debugInfo.subspan(b.headerSize + b.cbBounds, b.cbVars);
    ++image.summary.withDebugInfo;
    if (m.sharedDebugInfo) ++image.summary.sharedDebugInfo;
    if (b.cbBounds == 0) ++image.summary.withoutBounds;
  }
  return Success{};
}

}  // namespace

Status readDebugInfo(const pe::PeImage& pe, R2RImage& image) {
  NativeRegion region = regionOf(pe, image, section::kDebugInfo);
  if (region.bytes.empty()) {
    image.summary.withoutDebugInfo = image.methods.size();
    return Success{};
  }
  const NativeArray array(region, region.rva);
  if (!region.ok()) return withPath("debugInfo", region.takeError());
  const Expected<std::vector<Element>> elements = readElements(region, array, image);
  if (!elements) return elements.error();
  std::unordered_map<std::uint64_t, std::size_t> blobIndex;
  Expected<std::vector<Blob>> blobs = readBlobs(region, image, *elements, blobIndex);
  if (!blobs) return blobs.error();
  if (Status s = decodeBlobBounds(region, image, *elements, *blobs); !s) return s;
  if (Status s = attachDebugInfo(region, image, *elements, *blobs, blobIndex); !s) return s;
  image.summary.distinctDebugInfoBlobs = blobs->size();
  for (const Blob& b : *blobs) {
    image.summary.fatDebugInfo += b.fat ? 1 : 0;
    image.summary.boundsWithTrailingBytes += b.trailing != 0 ? 1 : 0;
  }
  image.summary.withoutDebugInfo = image.methods.size() - elements->size();
  return Success{};
}

}  // namespace gdmap::r2r
