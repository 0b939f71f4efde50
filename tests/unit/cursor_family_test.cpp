// The cursor family's shared conventions (byte_cursor.hpp): NibbleCursor and
// BitCursor fail without passing the end, return 0, keep the first Error
// (offset in their unit, rule id) and fail every later read at once.
#include <gdmap/internal/bit_cursor.hpp>
#include <gdmap/internal/nibble_cursor.hpp>
#include <gdmap/schema/hex.hpp>

#include <doctest/doctest.h>

using gdmap::BitCursor;
using gdmap::Bytes;
using gdmap::NibbleCursor;
using gdmap::OffsetUnit;

TEST_CASE("cursor family: a nibble varint cut short is il-truncated at the end, and sticks") {
  const Bytes bytes = *gdmap::parseHex("97");  // 7 (no continuation), then 9: a continuation with nothing after
  NibbleCursor in(bytes);
  CHECK(in.varint().value == 7);
  const NibbleCursor::Varint cut = in.varint();
  CHECK_FALSE(in.ok());
  CHECK(in.problem() == NibbleCursor::Problem::Truncated);
  CHECK(cut.value == 0);
  CHECK(cut.start == 1);
  CHECK(cut.at == 2);
  CHECK(in.error().rule == "il-truncated");
  CHECK(in.error().unit == OffsetUnit::Nibble);
  CHECK(in.error().offset == 2);
  CHECK(in.nibble() == 0);  // later reads fail at once and keep the first error
  CHECK(in.takeError().offset == 2);
}

TEST_CASE("cursor family: nibble varints too long or over 32 bits") {
  const Bytes twelve = *gdmap::parseHex("88 88 88 88 88 08");  // 12 nibbles
  NibbleCursor longer(twelve);
  longer.varint();
  CHECK(longer.problem() == NibbleCursor::Problem::TooLong);
  CHECK(longer.error().rule == "il-varint-too-long");
  CHECK(longer.error().offset == 11);

  const Bytes wide = *gdmap::parseHex("ff ff ff ff ff 07 00");  // 11 nibbles of 7: 33 bits
  NibbleCursor over(wide);
  over.varint();
  CHECK(over.problem() == NibbleCursor::Problem::Overflow);
  CHECK(over.error().rule == "il-varint-overflow");
}

TEST_CASE("cursor family: bit fields, and a read past the end") {
  const Bytes bytes = *gdmap::parseHex("a5 0f");  // bits, low first: 1010 0101 1111 0000
  BitCursor in(bytes, 0, "il-count-exceeds-bytes");
  CHECK(in.bits(3) == 5);
  CHECK(in.bits(9) == 0x1F4);
  CHECK(in.remaining() == 4);
  CHECK(gdmap::readBits(bytes, 4, 8) == 0xFA);
  CHECK(in.bits(5) == 0);
  CHECK_FALSE(in.ok());
  CHECK(in.position() == 12);  // no advance
  CHECK(in.error().unit == OffsetUnit::Bit);
  CHECK(in.error().offset == 12);
  CHECK(in.error().rule == "il-count-exceeds-bytes");
  CHECK(in.error().message == "needs 5 bit(s), only 4 left");
  CHECK(in.bits(1) == 0);  // sticky
  CHECK(in.error().offset == 12);
}
