#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

namespace gdmap {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Each string form is its append form into a fresh string.
template <class Value>
std::string appended(void (*append)(Value, std::string&), Value value) {
  std::string out;
  append(value, out);
  return out;
}

}  // namespace

void appendHex(ByteSpan bytes, std::string& out) {
  const std::size_t at = out.size();
  out.resize(at + bytes.size() * 2);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    out[at + 2 * i] = hexDigit(bytes[i] >> 4);
    out[at + 2 * i + 1] = hexDigit(bytes[i]);
  }
}

std::string toHex(ByteSpan bytes) { return appended(appendHex, bytes); }

Expected<Bytes> parseHex(std::string_view text) {
  Bytes out;
  out.reserve(text.size() / 2);
  int high = -1;
  std::size_t highAt = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (isSpace(c)) continue;
    const int v = hexDigitValue(c);
    if (v < 0) return Error{i, std::string("expected a hex digit, found '") + c + "'", rules::kInvalidHex};
    if (high < 0) {
      high = v;
      highAt = i;
    } else {
      out.push_back(static_cast<std::uint8_t>(high << 4 | v));
      high = -1;
    }
  }
  if (high >= 0) return Error{highAt, "odd number of hex digits: this digit has no partner", rules::kInvalidHex};
  return out;
}

void appendHex32(std::uint32_t value, std::string& out) {
  char text[10] = {'0', 'x'};
  for (int i = 0; i < 8; ++i) text[2 + i] = hexDigit(value >> (28 - 4 * i));
  out.append(text, sizeof text);
}

std::string hex32(std::uint32_t value) { return appended(appendHex32, value); }

void appendHex8(std::uint8_t value, std::string& out) {
  const char text[4] = {'0', 'x', hexDigit(value >> 4), hexDigit(value)};
  out.append(text, sizeof text);
}

std::string hex8(std::uint8_t value) { return appended(appendHex8, value); }

void appendShortHex(std::uint64_t value, std::string& out) {
  char digits[16];
  std::size_t n = 0;
  do {
    digits[n++] = hexDigit(static_cast<unsigned>(value & 0xF));
    value >>= 4;
  } while (value != 0);
  out += "0x";
  while (n > 0) out += digits[--n];
}

std::string shortHex(std::uint64_t value) { return appended(appendShortHex, value); }

std::optional<std::uint32_t> parsePrefixedHex32(std::string_view text) {
  if (text.size() < 3 || text.size() > 10 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) return std::nullopt;
  std::uint32_t value = 0;
  for (const char c : text.substr(2)) {
    const int digit = hexDigitValue(c);
    if (digit < 0) return std::nullopt;
    value = value << 4 | static_cast<std::uint32_t>(digit);
  }
  return value;
}

}  // namespace gdmap
