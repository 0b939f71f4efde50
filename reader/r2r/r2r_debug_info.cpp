// Section 105: a NativeArray indexed by a method's first runtime function.
// An element is a native unsigned lookback: 0 means the method's blob
// follows the element; otherwise the blob starts `lookback` bytes before
// the element (an identical blob written for an earlier method). The
// runtime follows one hop and reads a blob there (readytoruninfo.cpp,
// GetDebugInfo); a lookback landing on another lookback element would be
// read as a blob header, so it is an error here (r2r-lookback-chain), and
// no chain can loop. A blob is the nibble header cbBounds, cbVars (flushed
// to a byte), then cbBounds bytes of nibble bounds, then cbVars bytes of
// variable locations (debuginfostore.cpp, CompressDebugInfo).
#include <gdmap/internal/nibble_reader.hpp>
#include "r2r_failure.hpp"
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
  std::uint32_t cbBounds = 0;
  std::uint32_t cbVars = 0;
  std::size_t firstUser = 0;     // index into elements, for error paths
  std::uint32_t lastNative = 0;  // the largest native offset of its bounds
};

std::string elementPath(const R2RImage& image, const Element& e) {
  const MethodBody& m = image.methods[e.method];
  return "debugInfo[" + std::to_string(m.firstRuntimeFunction) + "] (" + methodLabel(m) + ")";
}

// The nibble header, and the blob's extent; nothing past the section.
Blob readBlobHeader(const NativeRegion& region, std::uint64_t at) {
  Blob b;
  b.at = at;
  const ByteSpan rest = region.from(at);
  il::NibbleReader nibbles(rest);
  std::uint32_t sizes[2] = {0, 0};
  const char* names[2] = {"cbBounds", "cbVars"};
  for (int i = 0; i < 2; ++i) {
    const il::NibbleReader::Varint v = nibbles.u32();
    if (v.status == il::NibbleReader::Status::Truncated) {
      fail(region.fileOffsetOf(at) + v.at / 2, std::string("header.") + names[i] + ": the section ends inside it",
           rules::kR2rTruncated);
    }
    if (v.status != il::NibbleReader::Status::Ok) {
      fail(region.fileOffsetOf(at) + v.at / 2,
           std::string("header.") + names[i] + ": nibble varint " +
               (v.status == il::NibbleReader::Status::TooLong ? "longer than 11 nibbles" : "over 32 bits"),
           rules::kR2rBadDebugInfo);
    }
    sizes[i] = v.value;
  }
  // Flushed to a whole byte: an odd nibble count leaves a zero high half.
  if (nibbles.position() % 2 == 1 && nibbles.nibble() != 0) {
    fail(region.fileOffsetOf(at) + nibbles.position() / 2 - 1, "header: non-zero padding nibble",
         rules::kR2rBadDebugInfo);
  }
  b.headerSize = (nibbles.position() + 1) / 2;
  b.cbBounds = sizes[0];
  b.cbVars = sizes[1];
  const std::uint64_t total = b.headerSize + std::uint64_t{b.cbBounds} + b.cbVars;
  if (total > rest.size()) {
    fail(region.fileOffsetOf(at),
         "blob of " + std::to_string(total) + " bytes (cbBounds " + std::to_string(b.cbBounds) + ", cbVars " +
             std::to_string(b.cbVars) + ") runs past the end of the section (" + std::to_string(rest.size()) +
             " byte(s) left)",
         rules::kR2rTruncated);
  }
  b.end = at + total;
  return b;
}

// 1. Every method's element and the blob it names. 2. One hop only: a
// lookback must not land on another lookback.
std::vector<Element> readElements(const NativeRegion& region, const NativeArray& array, const R2RImage& image) {
  std::vector<Element> elements;
  std::unordered_set<std::uint64_t> lookbackElements;
  for (std::size_t i = 0; i < image.methods.size(); ++i) {
    Element e;
    e.method = i;
    const bool present = withPath([&] { return elementPath(image, e); },
                                  [&] {
                                    if (!array.tryGet(image.methods[i].firstRuntimeFunction, e.at)) return false;
                                    std::uint64_t after = e.at;
                                    e.lookback = region.unsignedAt(after);
                                    if (e.lookback == 0) {
                                      e.blob = after;
                                    } else if (e.lookback > e.at - region.rva) {
                                      fail(region.fileOffsetOf(e.at),
                                           "lookback " + shortHex(e.lookback) + " points " +
                                               shortHex(e.lookback - (e.at - region.rva)) + " bytes before the section",
                                           rules::kR2rLookbackOutside);
                                    } else {
                                      e.blob = e.at - e.lookback;
                                      lookbackElements.insert(e.at);
                                    }
                                    return true;
                                  });
    if (present) elements.push_back(e);
  }

  for (const Element& e : elements) {
    if (e.lookback != 0 && lookbackElements.count(e.blob) != 0) {
      fail(region.fileOffsetOf(e.at),
           elementPath(image, e) + ": lookback " + shortHex(e.lookback) + " lands on another lookback element at RVA " +
               shortHex(e.blob) + ", not on a blob",
           rules::kR2rLookbackChain);
    }
  }
  return elements;
}

// 3. Each distinct blob's header and extent (blobIndex: by RVA, its index);
// blobs must not overlap, so validating them all is linear in the section.
std::vector<Blob> readBlobs(const NativeRegion& region, const R2RImage& image, const std::vector<Element>& elements,
                            std::unordered_map<std::uint64_t, std::size_t>& blobIndex) {
  std::vector<Blob> blobs;
  for (std::size_t k = 0; k < elements.size(); ++k) {
    const Element& e = elements[k];
    if (blobIndex.count(e.blob) != 0) continue;
    Blob b = withPath([&] { return elementPath(image, e); }, [&] { return readBlobHeader(region, e.blob); });
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
      fail(region.fileOffsetOf(after.at),
           elementPath(image, elements[after.firstUser]) + ": its blob at RVA " + shortHex(after.at) +
               " overlaps the blob at RVA " + shortHex(before.at) + " (" + std::to_string(before.end - before.at) +
               " bytes)",
           rules::kR2rBadDebugInfo);
    }
  }
  return blobs;
}

// 4. The bounds of each blob must decode (FORMAT.md §3.3, strict).
void decodeBlobBounds(const NativeRegion& region, const R2RImage& image, const std::vector<Element>& elements,
                      std::vector<Blob>& blobs) {
  for (Blob& b : blobs) {
    if (b.cbBounds == 0) continue;
    const std::uint64_t boundsAt = b.at + b.headerSize;
    const ByteSpan bounds = region.from(boundsAt).first(b.cbBounds);
    const Expected<il::BoundsView> opened = il::openBounds(bounds, il::BoundsForm::Nibble);
    if (!opened) {
      const Error& p = opened.error();
      fail(region.fileOffsetOf(boundsAt) + p.byteOffset(),
           elementPath(image, elements[b.firstUser]) + ": bounds blob: " + p.path + ": " + p.message, p.rule.c_str());
    }
    il::BoundsView::Cursor cursor = opened->cursor();
    for (il::Bound bound; cursor.next(bound);) b.lastNative = std::max(b.lastNative, bound.nativeOffset);
  }
}

// 5. The methods' views.
void attachDebugInfo(const NativeRegion& region, R2RImage& image, const std::vector<Element>& elements,
                     const std::vector<Blob>& blobs, const std::unordered_map<std::uint64_t, std::size_t>& blobIndex) {
  for (const Element& e : elements) {
    MethodBody& m = image.methods[e.method];
    const Blob& b = blobs[blobIndex.at(e.blob)];
    // The code generator reports offsets inside the code (the end at most,
    // for an epilog bound); a larger one means a wrong code size or blob.
    if (b.lastNative > m.codeSize) {
      fail(region.fileOffsetOf(b.at),
           elementPath(image, e) + ": a bound at native offset " + std::to_string(b.lastNative) +
               " lies past the method's " + std::to_string(m.codeSize) + " bytes of code",
           rules::kR2rBoundPastCode);
    }
    m.hasDebugInfo = true;
    m.sharedDebugInfo = e.lookback != 0;
    m.debugInfoOffset = region.fileOffsetOf(b.at);
    m.debugInfoElementOffset = region.fileOffsetOf(e.at);
    m.debugInfo = region.from(b.at).first(static_cast<std::size_t>(b.end - b.at));
    m.bounds = m.debugInfo.subspan(b.headerSize, b.cbBounds);
    m.vars = m.debugInfo.subspan(b.headerSize + b.cbBounds, b.cbVars);
    ++image.summary.withDebugInfo;
    if (m.sharedDebugInfo) ++image.summary.sharedDebugInfo;
    if (b.cbBounds == 0) ++image.summary.withoutBounds;
  }
}

}  // namespace

void readDebugInfo(const pe::PeImage& pe, R2RImage& image) {
  const NativeRegion region = regionOf(pe, image, section::kDebugInfo);
  if (region.bytes.empty()) {
    image.summary.withoutDebugInfo = image.methods.size();
    return;
  }
  const NativeArray array = withPath("debugInfo", [&] { return NativeArray(region, region.rva); });
  const std::vector<Element> elements = readElements(region, array, image);
  std::unordered_map<std::uint64_t, std::size_t> blobIndex;
  std::vector<Blob> blobs = readBlobs(region, image, elements, blobIndex);
  decodeBlobBounds(region, image, elements, blobs);
  attachDebugInfo(region, image, elements, blobs, blobIndex);
  image.summary.distinctDebugInfoBlobs = blobs.size();
  image.summary.withoutDebugInfo = image.methods.size() - elements.size();
}

}  // namespace gdmap::r2r
