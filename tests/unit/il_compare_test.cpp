// compareIlBlobs(): where two IL-to-native blobs first differ, named by the
// entry or bound and field, in the api form and a compressed one.
#include <gdmap/reader/il_compare.hpp>
#include <gdmap/writer/bounds_encoder.hpp>

#include <doctest/doctest.h>

#include <vector>

namespace il = gdmap::il;

TEST_CASE("compareIlBlobs: identical blobs") {
  const std::vector<il::ApiEntry> entries = {{0, 0, 4}, {3, 4, 17}};
  const gdmap::Bytes bytes = il::encodeApiEntries(entries);
  const il::IlDifference d = il::compareIlBlobs(bytes, bytes, il::BoundsForm::Api);
  CHECK(d.identical);
  CHECK(d.expectedSize == bytes.size());
  CHECK(d.actualSize == bytes.size());
}

TEST_CASE("compareIlBlobs: an api entry's field and both values") {
  const gdmap::Bytes expected = il::encodeApiEntries(std::vector<il::ApiEntry>{{0, 0, 4}, {3, 4, 17}});
  const gdmap::Bytes actual = il::encodeApiEntries(std::vector<il::ApiEntry>{{0, 0, 4}, {3, 4, 18}});
  const il::IlDifference d = il::compareIlBlobs(expected, actual, il::BoundsForm::Api);
  CHECK_FALSE(d.identical);
  CHECK(d.firstOffset == 20);
  CHECK(d.field == "entries[1].nativeEndOffset");
  CHECK(d.detail == "expected 17, found 18");
}

TEST_CASE("compareIlBlobs: a missing api entry") {
  const gdmap::Bytes expected = il::encodeApiEntries(std::vector<il::ApiEntry>{{0, 0, 4}, {3, 4, 17}});
  const gdmap::Bytes actual = il::encodeApiEntries(std::vector<il::ApiEntry>{{0, 0, 4}});
  const il::IlDifference d = il::compareIlBlobs(expected, actual, il::BoundsForm::Api);
  CHECK(d.firstOffset == 12);
  CHECK(d.field == "entries[1]");
  CHECK(d.detail == "the entry is missing (2 entries expected, 1 found)");
}

TEST_CASE("compareIlBlobs: a compressed blob's first differing bound") {
  const std::vector<il::Bound> bounds = {{0, 0, 0}, {8, 3, il::source::kStackEmpty}};
  const std::vector<il::Bound> other = {{0, 0, 0}, {9, 3, il::source::kStackEmpty}};
  for (const il::BoundsForm form : {il::BoundsForm::Nibble, il::BoundsForm::Packed2, il::BoundsForm::Packed3}) {
    const gdmap::Expected<gdmap::Bytes> expected = il::encodeCompressedBounds(bounds, form);
    const gdmap::Expected<gdmap::Bytes> actual = il::encodeCompressedBounds(other, form);
    REQUIRE(expected.ok());
    REQUIRE(actual.ok());
    const il::IlDifference d = il::compareIlBlobs(*expected, *actual, form);
    CHECK_FALSE(d.identical);
    CHECK(d.detail.find("expected 8, found 9") != std::string::npos);
  }
}

TEST_CASE("compareIlBlobs: a blob that does not decode") {
  const std::vector<il::Bound> bounds = {{0, 0, 0}, {8, 3, il::source::kStackEmpty}};
  const gdmap::Expected<gdmap::Bytes> expected = il::encodeCompressedBounds(bounds, il::BoundsForm::Nibble);
  REQUIRE(expected.ok());
  const gdmap::Bytes actual = {0xFF};
  const il::IlDifference d = il::compareIlBlobs(*expected, actual, il::BoundsForm::Nibble);
  CHECK_FALSE(d.identical);
  CHECK(d.firstOffset == 0);
  CHECK(d.detail.find("the bytes differ") != std::string::npos);
}
