#pragma once
// A little-endian cursor over untrusted bytes: every read is bounds-checked
// and throws MetadataError instead of reading past the end.
#include <gdmap/metadata/metadata_error.hpp>

#include <gdmap/schema/bytes.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace gdmap::metadata {

class ByteReader {
 public:
  ByteReader(ByteSpan bytes, std::string what) : bytes_(bytes), what_(std::move(what)) {}

  std::size_t position() const { return position_; }
  std::size_t remaining() const { return bytes_.size() - position_; }

  void seek(std::size_t position) {
    if (position > bytes_.size()) fail(position, "offset is past the end");
    position_ = position;
  }
  void skip(std::size_t count) {
    require(count);
    position_ += count;
  }
  ByteSpan take(std::size_t count) {
    require(count);
    ByteSpan out = bytes_.subspan(position_, count);
    position_ += count;
    return out;
  }
  std::uint8_t u8() { return static_cast<std::uint8_t>(readLittleEndian(1)); }
  std::uint16_t u16() { return static_cast<std::uint16_t>(readLittleEndian(2)); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(readLittleEndian(4)); }
  std::uint64_t u64() { return readLittleEndian(8); }
  // A 2- or 4-byte column (heap and table indexes).
  std::uint32_t index(unsigned width) { return static_cast<std::uint32_t>(readLittleEndian(width)); }

  [[noreturn]] void fail(std::size_t at, const std::string& message) const {
    throw MetadataError(what_ + " at offset " + std::to_string(at) + ": " + message);
  }

 private:
  void require(std::size_t count) const {
    if (count > remaining()) {
      fail(position_, "needs " + std::to_string(count) + " bytes, only " +
                          std::to_string(remaining()) + " left");
    }
  }
  std::uint64_t readLittleEndian(unsigned width) {
    require(width);
    std::uint64_t value = 0;
    for (unsigned i = 0; i < width; ++i) {
      value |= static_cast<std::uint64_t>(bytes_[position_ + i]) << (8 * i);
    }
    position_ += width;
    return value;
  }

  ByteSpan bytes_;
  std::string what_;
  std::size_t position_ = 0;
};

}  // namespace gdmap::metadata
