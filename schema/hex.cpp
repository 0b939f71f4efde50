#include <gdmap/schema/hex.hpp>

namespace gdmap {
namespace {

constexpr char kDigits[] = "0123456789abcdef";

int digitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

}  // namespace

std::string toHex(ByteSpan bytes) {
  std::string out;
  out.resize(bytes.size() * 2);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 0x0F];
  }
  return out;
}

Expected<Bytes> parseHex(std::string_view text) {
  Bytes out;
  out.reserve(text.size() / 2);
  int high = -1;
  std::size_t highAt = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (isSpace(c)) continue;
    const int v = digitValue(c);
    if (v < 0) return Error{i, std::string("expected a hex digit, found '") + c + "'"};
    if (high < 0) {
      high = v;
      highAt = i;
    } else {
      out.push_back(static_cast<std::uint8_t>(high << 4 | v));
      high = -1;
    }
  }
  if (high >= 0) return Error{highAt, "odd number of hex digits: this digit has no partner"};
  return out;
}

std::string hex32(std::uint32_t value) {
  std::string out = "0x00000000";
  for (int i = 9; i >= 2; --i, value >>= 4) out[static_cast<std::size_t>(i)] = kDigits[value & 0xF];
  return out;
}

std::string hex8(std::uint8_t value) {
  std::string out = "0x";
  out += kDigits[value >> 4];
  out += kDigits[value & 0x0F];
  return out;
}

}  // namespace gdmap
