#include <gdmap/schema/compressed_int.hpp>

namespace gdmap {
namespace {

// Reads the raw form (the width's payload bits) and its length.
CompressedIntError decodeRaw(ByteSpan bytes, std::uint32_t& payload, std::uint8_t& length) {
  if (bytes.empty()) return CompressedIntError::Empty;
  const std::uint8_t lead = bytes[0];
  if ((lead & 0x80) == 0) {
    payload = lead;
    length = 1;
  } else if ((lead & 0xC0) == 0x80) {
    if (bytes.size() < 2) return CompressedIntError::Truncated;
    payload = (std::uint32_t{lead} & 0x3F) << 8 | bytes[1];
    length = 2;
  } else if ((lead & 0xE0) == 0xC0) {
    if (bytes.size() < 4) return CompressedIntError::Truncated;
    payload =
        (std::uint32_t{lead} & 0x1F) << 24 | std::uint32_t{bytes[1]} << 16 | std::uint32_t{bytes[2]} << 8 | bytes[3];
    length = 4;
  } else {
    return CompressedIntError::InvalidLead;
  }
  return CompressedIntError::None;
}

}  // namespace

CompressedIntError decodeCompressedUInt(ByteSpan bytes, DecodedUInt& out) {
  const CompressedIntError e = decodeRaw(bytes, out.value, out.length);
  if (e != CompressedIntError::None) return e;
  out.minimal = out.length == (out.value <= 0x7F ? 1 : out.value <= 0x3FFF ? 2 : 4);
  return CompressedIntError::None;
}

CompressedIntError decodeCompressedInt(ByteSpan bytes, DecodedInt& out) {
  std::uint32_t payload = 0;
  const CompressedIntError e = decodeRaw(bytes, payload, out.length);
  if (e != CompressedIntError::None) return e;
  const unsigned bits = out.length == 1 ? 7 : out.length == 2 ? 14 : 29;
  // Undo the rotation: bit 0 is the sign; the rest is the value shifted by one.
  std::uint32_t twos = (payload >> 1) | ((payload & 1u) << (bits - 1));
  if (payload & 1u) twos |= ~((1u << bits) - 1);  // sign-extend from the width
  out.value = static_cast<std::int32_t>(twos);
  const std::int32_t v = out.value;
  const std::uint8_t shortest = (v >= -(1 << 6) && v < (1 << 6)) ? 1 : (v >= -(1 << 13) && v < (1 << 13)) ? 2 : 4;
  out.minimal = out.length == shortest;
  return CompressedIntError::None;
}

std::string_view describe(CompressedIntError error) {
  switch (error) {
    case CompressedIntError::None: return "no error";
    case CompressedIntError::Empty: return "expected a compressed integer, found the end of the data";
    case CompressedIntError::Truncated:
      return "truncated compressed integer: its lead byte announces more bytes than remain";
    case CompressedIntError::InvalidLead: return "invalid compressed integer: lead byte 111xxxxx has no encoding";
  }
  return "unknown error";
}

std::size_t encodeCompressedUInt(std::uint32_t value, std::uint8_t* out) {
  switch (compressedUIntSize(value)) {
    case 1: out[0] = static_cast<std::uint8_t>(value); return 1;
    case 2:
      out[0] = static_cast<std::uint8_t>(0x80 | (value >> 8));
      out[1] = static_cast<std::uint8_t>(value);
      return 2;
    case 4:
      out[0] = static_cast<std::uint8_t>(0xC0 | (value >> 24));
      out[1] = static_cast<std::uint8_t>(value >> 16);
      out[2] = static_cast<std::uint8_t>(value >> 8);
      out[3] = static_cast<std::uint8_t>(value);
      return 4;
    default: return 0;
  }
}

// II.23.2: the value's two's complement is cut to the form's width (7, 14 or
// 29 bits) and rotated left by one, so the sign bit lands in bit 0.
std::size_t encodeCompressedInt(std::int32_t value, std::uint8_t* out) {
  const std::size_t size = compressedIntSize(value);
  if (size == 0) return 0;
  const unsigned bits = size == 1 ? 7 : size == 2 ? 14 : 29;
  const std::uint32_t mask = (1u << bits) - 1;
  const std::uint32_t twos = static_cast<std::uint32_t>(value) & mask;
  const std::uint32_t rotated = ((twos << 1) | (twos >> (bits - 1))) & mask;
  const std::size_t written = encodeCompressedUInt(rotated, out);
  if (written == size) return size;
  // A small rotated value would pick a shorter unsigned form: write the
  // width's own form explicitly.
  if (size == 2) {
    out[0] = static_cast<std::uint8_t>(0x80 | (rotated >> 8));
    out[1] = static_cast<std::uint8_t>(rotated);
  } else {
    out[0] = static_cast<std::uint8_t>(0xC0 | (rotated >> 24));
    out[1] = static_cast<std::uint8_t>(rotated >> 16);
    out[2] = static_cast<std::uint8_t>(rotated >> 8);
    out[3] = static_cast<std::uint8_t>(rotated);
  }
  return size;
}

bool appendCompressedUInt(Bytes& out, std::uint32_t value) {
  std::uint8_t buffer[4];
  const std::size_t n = encodeCompressedUInt(value, buffer);
  out.insert(out.end(), buffer, buffer + n);
  return n != 0;
}

bool appendCompressedInt(Bytes& out, std::int32_t value) {
  std::uint8_t buffer[4];
  const std::size_t n = encodeCompressedInt(value, buffer);
  out.insert(out.end(), buffer, buffer + n);
  return n != 0;
}

}  // namespace gdmap
