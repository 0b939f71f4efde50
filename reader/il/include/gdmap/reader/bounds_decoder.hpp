#pragma once
// Strict, zero-copy readers of the IL-to-native map's binary forms
// (FORMAT.md §3.1, §3.3, "Settled"). Opening a blob validates all of it in
// one linear pass without allocating; the view then decodes bounds on the
// fly from the caller's bytes, which must outlive it.
//
// Nothing is trusted before it is checked against what is left: the count of
// a compressed blob is compared with the nibbles or bits after it before any
// bound is read (a count of 2^32-1 fails at once), widths before they are
// used, every varint against 11 nibbles and 32 bits.
//
// Every problem is located: the byte, the nibble (nibble form, packed
// header) or bit (packed entries) from the start of the blob, and the field
// ("header.count", "header.ilBits", "bounds[3].native", "padding",
// "trailing"), with a stable rule id (docs/errors.md, "IL-to-native maps").
// Non-minimal varints and wider-than-needed widths are valid: checkBounds
// reports them as warnings, checkBoundsCanonical as the reasons the bytes
// are not the writer's.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/check_report.hpp>
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/il_map.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gdmap::il {

// A problem is an Error located in its own unit (OffsetUnit::Nibble in the
// nibble form and the packed header, Bit in packed entries, Byte for
// trailing bytes and the API form) with its field as the path;
// binaryDiagnostic() (schema/diagnostic.hpp) prints it, the byte offset
// kept and the message prefixed with the nibble or bit ("nibble 7: ...").

// A valid compressed blob (Nibble, Packed2 or Packed3).
class BoundsView {
 public:
  BoundsForm form() const { return form_; }
  std::uint32_t count() const { return count_; }
  // Packed forms: the header's widths; 0 for the nibble form.
  unsigned nativeBits() const { return nativeBits_; }
  unsigned ilBits() const { return ilBits_; }
  ByteSpan bytes() const { return bytes_; }

  // Forward decoding, one bound per next(); false after the last. A cursor
  // copies what it needs of the view, so it may outlive the view (not the
  // bytes).
  class Cursor {
   public:
    bool next(Bound& out);

   private:
    friend class BoundsView;
    explicit Cursor(const BoundsView& view);
    ByteSpan bytes_;
    BoundsForm form_;
    std::uint32_t count_;
    unsigned nativeBits_;
    unsigned ilBits_;
    std::uint32_t index_ = 0;
    std::size_t position_;  // nibble index (nibble form) or bit index (packed)
    std::uint32_t native_ = 0;
  };
  Cursor cursor() const { return Cursor(*this); }
  std::vector<Bound> toVector() const;

 private:
  friend struct BoundsScanner;
  ByteSpan bytes_;
  BoundsForm form_ = BoundsForm::Nibble;
  std::uint32_t count_ = 0;
  unsigned nativeBits_ = 0;
  unsigned ilBits_ = 0;
  std::size_t dataStart_ = 0;  // nibble index (nibble form) or bit index (packed) of bounds[0]
};

// `form` must be a compressed form (Api: use openApiMap).
Expected<BoundsView> openBounds(ByteSpan blob, BoundsForm form);

// An API array: 12-byte entries, read in place.
class ApiMapView {
 public:
  explicit ApiMapView(ByteSpan bytes) : bytes_(bytes) {}
  std::size_t count() const { return bytes_.size() / kApiEntrySize; }
  ApiEntry entry(std::size_t index) const;  // index < count()
  std::vector<ApiEntry> toVector() const;
  ByteSpan bytes() const { return bytes_; }

 private:
  ByteSpan bytes_;
};

// Valid iff the length is a multiple of 12 (empty included): il-api-length.
Expected<ApiMapView> openApiMap(ByteSpan blob);

// Whether the bytes are exactly what the writer gives for their content,
// and if not, why (one reason per non-minimal varint or too-wide width, at
// most `maxReasons` listed, all counted). An invalid blob is neither valid
// nor canonical; its error is the only reason. The API form is canonical
// whenever it is valid.
struct BoundsCanonicalReport {
  bool valid = false;
  bool canonical = false;
  std::vector<Error> reasons;
  std::size_t reasonCount = 0;
};
BoundsCanonicalReport checkBoundsCanonical(ByteSpan blob, BoundsForm form, std::size_t maxReasons = 100);

// `gdmap il check`: the first error (a blob is read in sequence, so nothing
// after it can be judged) and the not-canonical warnings, as diagnostics.
// With options.strict those are errors instead, as checkMap()'s warnings
// are, and make the blob invalid.
CheckReport checkBounds(ByteSpan blob, BoundsForm form, const CheckOptions& options = {});

}  // namespace gdmap::il
