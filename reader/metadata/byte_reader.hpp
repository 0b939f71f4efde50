#pragma once
// The metadata reader's view of gdmap::ByteCursor (the one bounds-checked
// cursor every binary read goes through): the same reads, but a failure
// throws MetadataError naming what was being read, which is how this
// library reports a malformed file.
#include <gdmap/metadata/metadata_error.hpp>
#include <gdmap/schema/byte_cursor.hpp>

#include <gdmap/schema/bytes.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace gdmap::metadata {

class ByteReader {
 public:
  ByteReader(ByteSpan bytes, std::string what) : in_(bytes), what_(std::move(what)) {}

  std::size_t position() const { return in_.position(); }
  std::size_t remaining() const { return in_.remaining(); }

  void seek(std::size_t position) { checked(in_.seek(position)); }
  void skip(std::size_t count) { checked(in_.skip(count)); }
  ByteSpan take(std::size_t count) { return checked(in_.take(count)); }
  std::uint8_t u8() { return checked(in_.u8()); }
  std::uint16_t u16() { return checked(in_.u16()); }
  std::uint32_t u32() { return checked(in_.u32()); }
  std::uint64_t u64() { return checked(in_.u64()); }
  // A 2- or 4-byte column (heap and table indexes).
  std::uint32_t index(unsigned width) { return static_cast<std::uint32_t>(checked(in_.uint(width))); }

  [[noreturn]] void fail(std::size_t at, const std::string& message) const {
    throw MetadataError(what_ + " at offset " + std::to_string(at) + ": " + message);
  }

 private:
  template <typename T>
  T checked(T value) const {
    if (!in_.ok()) fail(in_.error().offset, in_.error().message);
    return value;
  }

  ByteCursor in_;
  std::string what_;
};

}  // namespace gdmap::metadata
