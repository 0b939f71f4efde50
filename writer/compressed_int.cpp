#include <gdmap/writer/compressed_int.hpp>

namespace gdmap {

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
