// The runtime's native format (nativeformatreader.h) on hand-built bytes:
// integers of every length, a NativeArray with a tree and one with a single
// leaf, a NativeHashtable; reads past the region are r2r-truncated.
#include "reader/r2r/native_format.hpp"

#include <gdmap/schema/hex.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

using gdmap::Bytes;
using gdmap::r2r::NativeArray;
using gdmap::r2r::NativeRegion;

namespace {

Bytes hex(const char* text) { return gdmap::parseHex(text).value(); }

// A region of `bytes` at RVA 0x1000, file offset 0x400.
NativeRegion regionOf(const Bytes& bytes) {
  NativeRegion r;
  r.bytes = bytes;
  r.rva = 0x1000;
  r.fileOffset = 0x400;
  return r;
}

// The region's sticky error after `body` reads through it.
template <typename Body>
gdmap::Error failureOf(NativeRegion& region, Body&& body) {
  body(region);
  if (!region.ok()) return region.takeError();
  FAIL("no failure");
  return {};
}

}  // namespace

TEST_CASE("r2r native format: unsigned and signed integers of 1 to 5 bytes") {
  struct Case {
    const char* bytes;
    std::uint32_t value;
  };
  // The low bits of the first byte say the length: x0, x01, x011, x0111, 01111.
  for (const Case& c : {Case{"00", 0}, Case{"fe", 127}, Case{"01 02", 128}, Case{"fd ff", 0x3FFF},
                        Case{"03 00 02", 0x4000}, Case{"07 00 00 02", 0x200000}, Case{"0f 78 56 34 12", 0x12345678}}) {
    CAPTURE(c.bytes);
    const Bytes bytes = hex(c.bytes);
    NativeRegion r = regionOf(bytes);
    std::uint64_t at = 0x1000;
    CHECK(r.unsignedAt(at) == c.value);
    CHECK(at == 0x1000 + bytes.size());
  }
  const Bytes negative = hex("fe 7e fd fe");
  NativeRegion r = regionOf(negative);
  std::uint64_t at = 0x1000;
  CHECK(r.signedAt(at) == -1);
  CHECK(r.signedAt(at) == 63);
  CHECK(r.signedAt(at) == -65);

  const Bytes bad = hex("1f 00 00 00 00 00");
  NativeRegion badRegion = regionOf(bad);
  gdmap::Error e = failureOf(badRegion, [](NativeRegion& region) {
    std::uint64_t p = 0x1000;
    CHECK(region.unsignedAt(p) == 0);
    CHECK(p == 0x1000);  // no advance
  });
  CHECK(e.rule == "r2r-bad-varint");
  CHECK(e.offset == 0x400);
  const Bytes cut = hex("00 0f 01");  // a 5-byte integer with 2 bytes left
  NativeRegion cutRegion = regionOf(cut);
  e = failureOf(cutRegion, [](NativeRegion& region) {
    std::uint64_t p = 0x1001;
    region.unsignedAt(p);
    std::uint64_t first = 0x1000;
    CHECK(region.unsignedAt(first) == 0);  // the first error sticks: later reads fail at once
  });
  CHECK(e.rule == "r2r-truncated");
  CHECK(e.offset == 0x401);
}

TEST_CASE("r2r native format: NativeArray lookups") {
  // `10`: 2 elements, 1-byte block index; block 0's tree at base + 1. Nodes
  // for bits 8, 4, 2 (`02`: left child only), bit 1 (`16` = 3 | 2 << 2:
  // both children, the right 2 bytes on), then element 0 (`0a`) and 1 (`0c`).
  const Bytes bytes = hex("10 01 02 02 02 16 0a 0c");
  NativeRegion r = regionOf(bytes);
  const NativeArray array(r, 0x1000);
  CHECK(array.count() == 2);
  std::uint64_t at = 0;
  REQUIRE(array.tryGet(0, at));
  CHECK(at == 0x1006);
  REQUIRE(array.tryGet(1, at));
  CHECK(at == 0x1007);
  CHECK_FALSE(array.tryGet(2, at));

  // A block holding only element 5: one leaf node `28` (native 20 = 5 << 2).
  const Bytes single = hex("30 01 28 0a");  // `30`: 6 elements
  NativeRegion rs = regionOf(single);
  const NativeArray one(rs, 0x1000);
  for (std::uint32_t i = 0; i < 6; ++i) {
    CAPTURE(i);
    CHECK(one.tryGet(i, at) == (i == 5));
  }
  REQUIRE(one.tryGet(5, at));
  CHECK(at == 0x1003);

  // A right jump of 0 would never move.
  const Bytes loop = hex("10 01 02 02 02 06 0a 0c");  // `06`: native 3, both children, right at +0
  NativeRegion rl = regionOf(loop);
  const NativeArray looping(rl, 0x1000);
  const gdmap::Error e = failureOf(rl, [&](NativeRegion&) { CHECK_FALSE(looping.tryGet(1, at)); });
  CHECK(e.rule == "r2r-bad-native-array");
  CHECK(e.offset == 0x405);
}

TEST_CASE("r2r native format: NativeHashtable entries") {
  // `00`: one bucket, 1-byte offsets; bucket 0 is [base+2, base+4): one
  // entry, low hash `ab`, relative offset `04` = +2 from itself, to 0x1006.
  const Bytes bytes = hex("00 02 04 ab 04 00 55");
  NativeRegion r = regionOf(bytes);
  const auto entries = gdmap::r2r::hashtableEntries(r, 0x1000);
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].bucket == 0);
  CHECK(entries[0].lowHash == 0xab);
  CHECK(entries[0].at == 0x1006);

  const Bytes backwards = hex("00 03 02 ab 04 00 55");  // ends before it starts
  NativeRegion rb = regionOf(backwards);
  const gdmap::Error e =
      failureOf(rb, [](NativeRegion& region) { CHECK(gdmap::r2r::hashtableEntries(region, 0x1000).empty()); });
  CHECK(e.rule == "r2r-bad-hashtable");
  CHECK(e.message.find("before it starts") != std::string::npos);
}
