// ByteCursor: bounds-checked little-endian reads whose first failure sticks,
// does not advance, and carries its absolute offset and rule.
#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/rules.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

using gdmap::ByteCursor;
using gdmap::Bytes;

TEST_CASE("byte cursor: little-endian integers of every width") {
  const Bytes bytes = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F};
  ByteCursor in(bytes);
  CHECK(in.u8() == 0x01);
  CHECK(in.u16() == 0x0302);
  CHECK(in.u32() == 0x07060504u);
  CHECK(in.u64() == 0x0F0E0D0C0B0A0908ull);
  CHECK(in.ok());
  CHECK(in.atEnd());
  CHECK(in.position() == 15);
}

TEST_CASE("byte cursor: a failed read returns 0, does not advance, and sticks") {
  const Bytes bytes = {0xAA, 0xBB, 0xCC};
  ByteCursor in(bytes, 100, gdmap::rules::kStreamTooShort);
  CHECK(in.u8() == 0xAA);
  CHECK(in.u32() == 0);  // 2 bytes left
  CHECK(in.position() == 1);
  REQUIRE_FALSE(in.ok());
  CHECK(in.error().offset == 101);  // absolute: base 100 + position 1
  CHECK(in.error().rule == "stream-too-short");
  CHECK(in.error().message == "needs 4 byte(s), only 2 left");
  // Later reads fail too, even ones that would fit, and keep the first error.
  CHECK(in.u8() == 0);
  CHECK(in.position() == 1);
  CHECK(in.error().offset == 101);
  const gdmap::Status s = in.status();
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message == "needs 4 byte(s), only 2 left");
}

TEST_CASE("byte cursor: a read can name its own rule") {
  const Bytes bytes = {0x01};
  ByteCursor in(bytes, 0, gdmap::rules::kStreamTooShort);
  (void)in.u16(gdmap::rules::kDirectoryTruncated);
  REQUIRE_FALSE(in.ok());
  CHECK(in.error().rule == "directory-truncated");
}

TEST_CASE("byte cursor: counts near SIZE_MAX do not wrap the bounds check") {
  const Bytes bytes = {0x01, 0x02, 0x03, 0x04};
  ByteCursor in(bytes);
  CHECK(in.skip(1));
  CHECK(in.take(std::numeric_limits<std::size_t>::max()).empty());
  CHECK_FALSE(in.ok());
  CHECK(in.position() == 1);

  ByteCursor seeker(bytes);
  CHECK_FALSE(seeker.seek(std::numeric_limits<std::size_t>::max()));
  CHECK(seeker.position() == 0);
  ByteCursor end(bytes);
  CHECK(end.seek(4));  // the end itself is a position
  CHECK(end.atEnd());
  CHECK(end.ok());
}

TEST_CASE("byte cursor: take gives spans into the input") {
  const Bytes bytes = {0x10, 0x20, 0x30, 0x40};
  ByteCursor in(bytes, 8);
  const gdmap::ByteSpan a = in.take(3);
  REQUIRE(a.size() == 3);
  CHECK(a.data() == bytes.data());
  CHECK(in.offset() == 11);
  CHECK(in.take(0).empty());
  CHECK(in.ok());
  CHECK(in.rest().size() == 1);
  CHECK(in.take(2).empty());
  CHECK_FALSE(in.ok());
  CHECK(in.error().offset == 11);
}

TEST_CASE("byte cursor: compressed integers, signed and unsigned") {
  const Bytes bytes = {0x03, 0x80, 0x80, 0xC0, 0x00, 0x40, 0x00, 0x7B};
  ByteCursor in(bytes);
  gdmap::DecodedUInt d;
  CHECK(in.compressedUInt({}, &d) == 3);
  CHECK(d.length == 1);
  CHECK(in.compressedUInt() == 0x80);
  CHECK(in.compressedUInt({}, &d) == 0x4000);
  CHECK(d.length == 4);
  CHECK(in.compressedInt() == -3);  // 0x7B: 1111011, rotated
  CHECK(in.ok());
  CHECK(in.atEnd());
}

TEST_CASE("byte cursor: a bad compressed integer fails in place with its reason") {
  const Bytes truncated = {0x01, 0xC0, 0x00};
  ByteCursor in(truncated, 0x20, gdmap::rules::kInvalidCompressedInt);
  CHECK(in.u8() == 0x01);
  CHECK(in.compressedUInt() == 0);
  REQUIRE_FALSE(in.ok());
  CHECK(in.position() == 1);
  CHECK(in.error().offset == 0x21);
  CHECK(in.error().rule == "invalid-compressed-int");
  CHECK(in.error().message.find("truncated") != std::string::npos);

  const Bytes invalid = {0xE0};
  ByteCursor bad(invalid);
  CHECK(bad.compressedInt(gdmap::rules::kInvalidCompressedInt) == 0);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().rule == "invalid-compressed-int");
  CHECK(bad.position() == 0);
}

TEST_CASE("byte cursor: a caller's own failure, and taking the error") {
  const Bytes bytes = {0x4D, 0x5A};
  ByteCursor in(bytes);
  if (in.u16() != 0x1234) in.fail(0, "no signature", gdmap::rules::kInvalidType);
  REQUIRE_FALSE(in.ok());
  CHECK(in.error().message == "no signature");
  in.fail(1, "a second failure is not recorded");
  const gdmap::Error e = in.takeError();
  CHECK(e.offset == 0);
  CHECK(e.rule == "invalid-type");
  CHECK(in.ok());
}

TEST_CASE("byte cursor: error() and takeError() are an empty Error while nothing failed") {
  const Bytes bytes = {0x01, 0x02};
  ByteCursor in(bytes, 100, gdmap::rules::kInvalidType);
  CHECK(in.u8() == 0x01);
  REQUIRE(in.ok());
  CHECK(in.error().offset == 0);
  CHECK(in.error().message.empty());
  CHECK(in.error().rule.empty());
  CHECK(in.error().unit == gdmap::OffsetUnit::Byte);
  const gdmap::Error none = in.takeError();
  CHECK(none.message.empty());
  CHECK(in.ok());
  CHECK(in.u8() == 0x02);
}

TEST_CASE("byte cursor: uint reads 1 to 8 bytes and refuses other widths") {
  const Bytes bytes = {0x01, 0x02, 0x03};
  ByteCursor in(bytes);
  CHECK(in.uint(2) == 0x0201);
  CHECK(in.uint(0) == 0);
  CHECK_FALSE(in.ok());
}
