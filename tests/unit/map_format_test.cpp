// map_format.hpp: the layout constants, u32s and field paths the writer and
// the reader share.
#include <gdmap/schema/map_format.hpp>

#include <doctest/doctest.h>

TEST_CASE("map format: offsets of the header, the directory and the heap") {
  CHECK(gdmap::directoryRvaOffset(0) == 4);
  CHECK(gdmap::directoryOffsetOffset(0) == 8);
  CHECK(gdmap::directoryRvaOffset(3) == 28);
  CHECK(gdmap::heapStartFor(2) == 20);
  // 2^31 - 1 entries: past 32 bits, computed in 64.
  CHECK(gdmap::heapStartFor(gdmap::kMaxDirectoryEntries) == 4 + 8 * 0x7FFFFFFFull);
  CHECK((gdmap::kSortedFlag | gdmap::kEntryCountMask) == 0xFFFFFFFFu);
}

TEST_CASE("map format: u32s are little-endian both ways") {
  gdmap::Bytes out;
  gdmap::appendU32(out, 0x80000003u);
  REQUIRE(out.size() == 4);
  CHECK(out == gdmap::Bytes{0x03, 0x00, 0x00, 0x80});
  CHECK(gdmap::readU32(out, 0) == 0x80000003u);
  std::uint8_t raw[4];
  gdmap::writeU32(raw, 0x12345678u);
  CHECK(raw[0] == 0x78);
  CHECK(raw[3] == 0x12);
}

TEST_CASE("map format: field paths") {
  CHECK(std::string(gdmap::kHeaderCountPath) == "header.count");
  CHECK(gdmap::directoryRvaPath(3) == "directory[3].rva");
  CHECK(gdmap::directoryOffsetPath(3) == "directory[3].offset");
  CHECK(gdmap::directoryEntryPath(0) == "directory[0]");
  CHECK(gdmap::heapPath(0) == "heap@0x0");
  CHECK(gdmap::heapPath(0x1c) == "heap@0x1c");
  CHECK(gdmap::itemLengthPath(0x1c) == "heap@0x1c.length");
  CHECK(gdmap::itemCountPath(0x1c) == "heap@0x1c.count");
  CHECK(gdmap::heapPath(0x1c) + gdmap::typeIndexPath(1) == "heap@0x1c.type[1]");
}
