#pragma once
// ByteCursor: the one bounds-checked cursor gdmap's binary readers share
// (the map reader, the PE/metadata reader). In the spirit of LLVM's
// DataExtractor::Cursor:
//
//   ByteCursor in(bytes);
//   const std::uint32_t rva = in.u32();
//   const std::uint32_t offset = in.u32();
//   if (!in.ok()) return in.error();   // one check for the whole sequence
//
// - Every read is bounds-checked without overflow (a count is compared with
//   the bytes left, never added to the position first).
// - A failed read returns 0 (or an empty span) and does not advance; it
//   records an Error carrying the absolute byte offset of the read and a
//   rule id. The first error sticks: later reads fail at once and keep it,
//   so the error names the first thing that went wrong.
// - Offsets in errors are absolute: `base` is the offset of bytes[0] in the
//   whole input (a cursor over one heap item reports map offsets).
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/compressed_int.hpp>
#include <gdmap/schema/expected.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace gdmap {

namespace detail {
// The error convention of gdmap's cursors (ByteCursor here; NibbleCursor
// and BitCursor in schema/internal): the first failure sticks, later ones
// are dropped, and reading it is never undefined (an empty Error while ok).
class StickyError {
 public:
  bool ok() const { return !error_.has_value(); }
  const Error& get() const {
    static const Error none;
    return error_ ? *error_ : none;
  }
  Status status() const {
    if (error_) return *error_;
    return Success{};
  }
  Error take() {
    if (!error_) return Error{};
    Error e = std::move(*error_);
    error_.reset();
    return e;
  }
  // Kept unless an earlier error is.
  void set(Error e) {
    if (!error_) error_.emplace(std::move(e));
  }

 private:
  std::optional<Error> error_;
};
}  // namespace detail

class ByteCursor {
 public:
  // `rule` is the rule id of a read past the end (a caller may override it
  // per read); `base` the absolute offset of bytes[0].
  explicit ByteCursor(ByteSpan bytes, std::size_t base = 0, std::string_view rule = {})
      : bytes_(bytes), base_(base), rule_(rule) {}

  // Position relative to the cursor's bytes, and as an absolute offset.
  std::size_t position() const { return position_; }
  std::size_t offset() const { return base_ + position_; }
  std::size_t size() const { return bytes_.size(); }
  std::size_t remaining() const { return bytes_.size() - position_; }
  bool atEnd() const { return position_ == bytes_.size(); }
  ByteSpan bytes() const { return bytes_; }
  // What follows the position (empty at the end).
  ByteSpan rest() const { return bytes_.subspan(position_); }

  // Success until a read fails; then the first failure, for good.
  bool ok() const { return error_.ok(); }
  explicit operator bool() const { return ok(); }
  // The first failure; while ok(), an empty Error (offset 0, no message,
  // no rule), so that reading it is never undefined.
  const Error& error() const { return error_.get(); }
  Status status() const { return error_.status(); }
  // Moves the error out (for `return in.takeError();`) and clears it; an
  // empty Error while ok().
  Error takeError() { return error_.take(); }

  // Fixed-width little-endian integers. On failure: 0, no advance.
  std::uint8_t u8(std::string_view rule = {}) { return static_cast<std::uint8_t>(littleEndian(1, rule)); }
  std::uint16_t u16(std::string_view rule = {}) { return static_cast<std::uint16_t>(littleEndian(2, rule)); }
  std::uint32_t u32(std::string_view rule = {}) { return static_cast<std::uint32_t>(littleEndian(4, rule)); }
  std::uint64_t u64(std::string_view rule = {}) { return littleEndian(8, rule); }
  // A 1- to 8-byte little-endian integer (metadata heap and table indexes
  // are 2 or 4 bytes wide).
  std::uint64_t uint(unsigned width, std::string_view rule = {}) {
    if (width == 0 || width > 8) {
      fail(offset(), "internal: an integer of " + std::to_string(width) + " bytes", rule);
      return 0;
    }
    return littleEndian(width, rule);
  }

  // ECMA-335 II.23.2 compressed integers. `decoded`, when given, receives
  // the width and whether the form was the shortest. On failure: 0, no
  // advance; the error's message says why (describe(CompressedIntError)).
  std::uint32_t compressedUInt(std::string_view rule = {}, DecodedUInt* decoded = nullptr) {
    return compressed<decodeCompressedUInt>(rule, decoded);
  }
  std::int32_t compressedInt(std::string_view rule = {}, DecodedInt* decoded = nullptr) {
    return compressed<decodeCompressedInt>(rule, decoded);
  }

  // The next `count` bytes (empty span and no advance on failure).
  ByteSpan take(std::size_t count, std::string_view rule = {}) {
    if (!require(count, rule)) return {};
    const ByteSpan out = bytes_.subspan(position_, count);
    position_ += count;
    return out;
  }
  bool skip(std::size_t count, std::string_view rule = {}) {
    if (!require(count, rule)) return false;
    position_ += count;
    return true;
  }

  // Moves to `position` (relative; at most size()). Fails past the end.
  bool seek(std::size_t position, std::string_view rule = {}) {
    if (!ok()) return false;
    if (position > bytes_.size()) {
      fail(offset(),
           "offset " + std::to_string(base_ + position) + " is past the end of the " + std::to_string(bytes_.size()) +
               "-byte input",
           rule);
      return false;
    }
    position_ = position;
    return true;
  }

  // Records a failure found by the caller (a value out of range, a bad
  // signature): at `at` (absolute), unless an earlier error is recorded.
  void fail(std::size_t at, std::string message, std::string_view rule = {}) {
    if (!ok()) return;
    error_.set(Error(at, std::move(message), std::string(rule.empty() ? rule_ : rule)));
  }
  void fail(std::string message, std::string_view rule = {}) { fail(offset(), std::move(message), rule); }

 private:
  // Both compressed forms: decode at the position, advance on success only.
  template <auto decode, typename Decoded>
  auto compressed(std::string_view rule, Decoded* decoded) -> decltype(Decoded{}.value) {
    Decoded v;
    if (!ok()) return 0;
    const CompressedIntError e = decode(rest(), v);
    if (e != CompressedIntError::None) {
      fail(offset(), std::string(describe(e)), rule);
      return 0;
    }
    position_ += v.length;
    if (decoded != nullptr) *decoded = v;
    return v.value;
  }

  bool require(std::size_t count, std::string_view rule) {
    if (!ok()) return false;
    if (count <= remaining()) return true;
    fail(offset(), "needs " + std::to_string(count) + " byte(s), only " + std::to_string(remaining()) + " left", rule);
    return false;
  }
  std::uint64_t littleEndian(unsigned width, std::string_view rule) {
    if (!require(width, rule)) return 0;
    std::uint64_t value = 0;
    for (unsigned i = 0; i < width; ++i) value |= std::uint64_t{bytes_[position_ + i]} << (8 * i);
    position_ += width;
    return value;
  }

  ByteSpan bytes_;
  std::size_t base_ = 0;
  std::string_view rule_;  // a constant from rules.hpp (static storage), or empty
  std::size_t position_ = 0;
  detail::StickyError error_;
};

}  // namespace gdmap
