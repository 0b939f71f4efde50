// The strict readers of the IL-to-native map forms. One scanner validates a
// compressed blob front to back, reporting the first error and (when asked)
// every not-canonical detail; the view's cursor then decodes the same bytes
// again without checks, since the scan proved them good.
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <gdmap/internal/bit_cursor.hpp>
#include <gdmap/internal/diagnostic_sink.hpp>
#include <gdmap/internal/nibble_cursor.hpp>

#include <algorithm>
#include <bit>
#include <optional>
#include <string>
#include <utility>

namespace gdmap::il {
namespace {

std::string boundPath(std::uint32_t index, const char* field) {
  return "bounds[" + std::to_string(index) + "]." + field;
}

// A field path, spelled out only when a problem is reported: a million
// bounds must not cost three million strings.
struct Field {
  static constexpr std::uint32_t kHeader = 0xFFFFFFFF;  // no bound index reaches it (count <= 2^32-1)
  const char* name;
  std::uint32_t bound = kHeader;
  std::string text() const { return bound == kHeader ? std::string(name) : boundPath(bound, name); }
};

Error atNibble(std::size_t nibble, std::string path, std::string message, const char* rule) {
  return Error(nibble, OffsetUnit::Nibble, std::move(path), std::move(message), rule);
}

Error atBit(std::size_t bit, std::string path, std::string message, const char* rule) {
  return Error(bit, OffsetUnit::Bit, std::move(path), std::move(message), rule);
}

Error atByte(std::size_t byte, std::string path, std::string message, const char* rule) {
  return Error(byte, OffsetUnit::Byte, std::move(path), std::move(message), rule);
}

unsigned bitLength(std::uint32_t value) { return value == 0 ? 1u : static_cast<unsigned>(std::bit_width(value)); }

unsigned sourceBitsOf(BoundsForm form) { return form == BoundsForm::Packed3 ? 3u : 2u; }

std::uint32_t sourceFromPacked(std::uint32_t code) {
  std::uint32_t s = 0;
  if ((code & 1) != 0) s |= source::kCallInstruction;
  if ((code & 2) != 0) s |= source::kStackEmpty;
  if ((code & 4) != 0) s |= source::kAsync;
  return s;
}

// Collects not-canonical details (warnings), capped and counted, each
// built only when kept.
struct Notes {
  std::optional<internal::DiagnosticSink<Error>> sink;  // empty: not wanted
  bool wanted() const { return sink.has_value(); }
  template <typename Build>
  void add(Build&& build) {
    sink->add(Severity::Warning, std::forward<Build>(build));
  }
  std::size_t count() const { return sink ? sink->total() : 0; }
};

}  // namespace

// Friend of BoundsView: fills it in while validating.
struct BoundsScanner {
  ByteSpan bytes;
  BoundsForm form;
  Notes notes;
  BoundsView view;
  std::optional<Error> error;

  bool fail(Error p) {
    error = std::move(p);
    return false;
  }

  // A varint that must be readable; notes a non-minimal one. Three a
  // bound: what reports a problem stays out of line.
  bool varint(NibbleCursor& r, const Field& field, std::uint32_t& out) {
    const NibbleCursor::Varint v = r.varint();
    if (!r.ok()) [[unlikely]]
      return varintFailed(r, field);
    if (!v.minimal && notes.wanted()) [[unlikely]]
      noteNonMinimal(v, field);
    out = v.value;
    return true;
  }

  [[gnu::cold, gnu::noinline]] bool varintFailed(NibbleCursor& r, const Field& field) {
    Error e = r.takeError();
    e.path = field.text();
    return fail(std::move(e));
  }

  [[gnu::noinline]] void noteNonMinimal(const NibbleCursor::Varint& v, const Field& field) {
    notes.add([&] {
      return atNibble(v.start, field.text(),
                      "the value " + std::to_string(v.value) + " takes " + std::to_string(v.nibbles) +
                          " nibbles; the writer writes the shortest varint (no leading nibble 8)",
                      rules::kIlNonMinimalVarint);
    });
  }

  bool count(NibbleCursor& r, std::size_t& countNibble) {
    countNibble = r.position();
    std::uint32_t n = 0;
    if (!varint(r, Field{"header.count"}, n)) return false;
    if (n == 0)
      return fail(atNibble(countNibble, "header.count",
                           "the count is 0; a blob holds at least one bound (the runtime stores none for a method "
                           "without bounds)",
                           rules::kIlEmptyBounds));
    view.count_ = n;
    return true;
  }

  // An odd nibble before a byte boundary must be zero.
  bool padding(NibbleCursor& r, const char* path) {
    if (r.position() % 2 == 0) return true;
    const std::size_t at = r.position();
    if (r.nibble() != 0)
      return fail(
          atNibble(at, path, "the padding nibble that completes the last byte is not zero", rules::kIlNonzeroPadding));
    return true;
  }

  bool noTrailing(std::size_t used) {
    if (bytes.size() == used) return true;
    return fail(atByte(used, "trailing",
                       std::to_string(bytes.size() - used) +
                           " byte(s) after the blob's last bound (the blob ends at byte " + std::to_string(used) + ")",
                       rules::kIlTrailingBytes));
  }

  bool nibbleForm() {
    NibbleCursor r(bytes);
    std::size_t countNibble = 0;
    if (!count(r, countNibble)) return false;
    // Three varints of at least one nibble each per bound.
    const std::uint64_t needed = std::uint64_t{view.count_} * 3;
    if (needed > r.remaining())
      return fail(atNibble(countNibble, "header.count",
                           "the count " + std::to_string(view.count_) + " needs at least " + std::to_string(needed) +
                               " nibbles of bounds, only " + std::to_string(r.remaining()) + " are left",
                           rules::kIlCountExceedsBytes));
    view.dataStart_ = r.position();
    std::uint64_t native = 0;
    for (std::uint32_t i = 0; i < view.count_; ++i) {
      const std::size_t deltaAt = r.position();
      std::uint32_t delta = 0, il = 0, src = 0;
      if (!varint(r, Field{"native", i}, delta)) return false;
      native += delta;
      if (native > 0xFFFFFFFFu)
        return fail(atNibble(deltaAt, boundPath(i, "native"),
                             "the native offset (previous + delta " + std::to_string(delta) + ") exceeds 32 bits",
                             rules::kIlNativeOverflow));
      if (!varint(r, Field{"il", i}, il)) return false;
      const std::size_t sourceAt = r.position();
      if (!varint(r, Field{"source", i}, src)) return false;
      if ((src & ~0x1Fu) != 0)
        return fail(atNibble(sourceAt, boundPath(i, "source"),
                             "source " + shortHex(src) + " has bits outside 0x1f (" + sourceText(src & ~0x1Fu) +
                                 "), which the nibble form does not store",
                             rules::kIlInvalidSource));
    }
    if (!padding(r, "padding")) return false;
    return noTrailing(r.position() / 2);
  }

  bool width(NibbleCursor& r, const char* path, unsigned& out) {
    const std::size_t at = r.position();
    std::uint32_t stored = 0;
    if (!varint(r, Field{path}, stored)) return false;
    // Checked before adding 1, so that 2^32-1 cannot wrap to 0.
    if (stored > 31)
      return fail(atNibble(at, path, "a width of " + std::to_string(std::uint64_t{stored} + 1) + " bits; at most 32",
                           rules::kIlWidthTooLarge));
    out = stored + 1;
    return true;
  }

  bool packedForm() {
    NibbleCursor r(bytes);
    std::size_t countNibble = 0;
    if (!count(r, countNibble)) return false;
    const std::size_t nativeAt = r.position();
    if (!width(r, "header.nativeBits", view.nativeBits_)) return false;
    const std::size_t ilAt = r.position();
    if (!width(r, "header.ilBits", view.ilBits_)) return false;
    if (!padding(r, "header.padding")) return false;

    const unsigned sourceBits = sourceBitsOf(form);
    const std::uint64_t entryBits = sourceBits + view.nativeBits_ + view.ilBits_;
    const std::size_t dataByte = r.position() / 2;
    const std::uint64_t bitsLeft = std::uint64_t{bytes.size() - dataByte} * 8;
    const std::uint64_t needed = std::uint64_t{view.count_} * entryBits;
    if (needed > bitsLeft)
      return fail(atNibble(countNibble, "header.count",
                           "the count " + std::to_string(view.count_) + " needs " + std::to_string(needed) +
                               " bits of " + std::to_string(entryBits) + "-bit entries, only " +
                               std::to_string(bitsLeft) + " are left",
                           rules::kIlCountExceedsBytes));
    view.dataStart_ = dataByte * 8;

    // The count check above proves every read inside. The loop's state in
    // locals: a million bounds run through it.
    const std::uint32_t count = view.count_;
    const unsigned nativeBits = view.nativeBits_, ilBits = view.ilBits_;
    std::size_t bit = view.dataStart_;
    std::uint64_t native = 0;
    std::uint32_t maxDelta = 0, maxIl = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
      bit += sourceBits;
      const std::uint32_t delta = readBits(bytes, bit, nativeBits);
      native += delta;
      if (native > 0xFFFFFFFFu) [[unlikely]]
        return nativeOverflow(bit, i, delta);
      bit += nativeBits;
      maxDelta = std::max(maxDelta, delta);
      maxIl = std::max(maxIl, readBits(bytes, bit, ilBits));
      bit += ilBits;
    }
    if (bit % 8 != 0 && readBits(bytes, bit, static_cast<unsigned>(8 - bit % 8)) != 0)
      return fail(
          atBit(bit, "padding", "the padding bits after the last bound are not zero", rules::kIlNonzeroPadding));
    if (!noTrailing((bit + 7) / 8)) return false;

    noteWide(nativeAt, "header.nativeBits", "native deltas take ", view.nativeBits_, "; the largest (", maxDelta);
    noteWide(ilAt, "header.ilBits", "IL offsets take ", view.ilBits_, "; the largest stored value (", maxIl);
    return true;
  }

  [[gnu::cold, gnu::noinline]] bool nativeOverflow(std::size_t bit, std::uint32_t i, std::uint32_t delta) {
    return fail(atBit(bit, boundPath(i, "native"),
                      "the native offset (previous + delta " + std::to_string(delta) + ") exceeds 32 bits",
                      rules::kIlNativeOverflow));
  }

  // A width field wider than its largest value needs (il-wide-field).
  void noteWide(std::size_t at, const char* path, const char* what, unsigned bits, const char* largest,
                std::uint32_t max) {
    if (!notes.wanted() || bits <= bitLength(max)) return;
    notes.add([&] {
      return atNibble(at, path,
                      what + std::to_string(bits) + " bits" + largest + std::to_string(max) + ") needs " +
                          std::to_string(bitLength(max)),
                      rules::kIlWideField);
    });
  }

  bool run() {
    view.bytes_ = bytes;
    view.form_ = form;
    if (form == BoundsForm::Api)
      return fail(atByte(0, "", "the api form holds entries, not bounds (read it with openApiMap)", rules::kUsage));
    return form == BoundsForm::Nibble ? nibbleForm() : packedForm();
  }
};

BoundsView::Cursor::Cursor(const BoundsView& view)
    : bytes_(view.bytes_),
      form_(view.form_),
      count_(view.count_),
      nativeBits_(view.nativeBits_),
      ilBits_(view.ilBits_),
      position_(view.dataStart_) {}

bool BoundsView::Cursor::next(Bound& out) {
  if (index_ >= count_) return false;
  ++index_;
  // The view's scan proved every read inside.
  if (form_ == BoundsForm::Nibble) {
    std::size_t at = position_;
    native_ += readProvenVarint(bytes_, at);
    out.nativeOffset = native_;
    out.ilOffset = readProvenVarint(bytes_, at) - 3;
    out.source = readProvenVarint(bytes_, at);
    position_ = at;
    return true;
  }
  const unsigned sourceBits = sourceBitsOf(form_);
  out.source = sourceFromPacked(readBits(bytes_, position_, sourceBits));
  position_ += sourceBits;
  native_ += readBits(bytes_, position_, nativeBits_);
  position_ += nativeBits_;
  out.nativeOffset = native_;
  out.ilOffset = readBits(bytes_, position_, ilBits_) - 3;
  position_ += ilBits_;
  return true;
}

std::vector<Bound> BoundsView::toVector() const {
  std::vector<Bound> out;
  out.reserve(count_);  // proven by the scan to fit in the blob
  Cursor c = cursor();
  Bound b;
  while (c.next(b)) out.push_back(b);
  return out;
}

Expected<BoundsView> openBounds(ByteSpan blob, BoundsForm form) {
  BoundsScanner scan{blob, form, {}, {}, {}};
  if (scan.run()) return scan.view;
  return std::move(*scan.error);
}

ApiEntry ApiMapView::entry(std::size_t index) const {
  ByteCursor in(bytes_.subspan(index * kApiEntrySize, kApiEntrySize));
  ApiEntry e;
  e.ilOffset = in.u32();
  e.nativeStartOffset = in.u32();
  e.nativeEndOffset = in.u32();
  return e;
}

std::vector<ApiEntry> ApiMapView::toVector() const {
  std::vector<ApiEntry> out;
  out.reserve(count());
  for (std::size_t i = 0; i < count(); ++i) out.push_back(entry(i));
  return out;
}

Expected<ApiMapView> openApiMap(ByteSpan blob) {
  if (blob.size() % kApiEntrySize == 0) return ApiMapView(blob);
  const std::size_t whole = blob.size() - blob.size() % kApiEntrySize;
  return atByte(whole, "entries[" + std::to_string(whole / kApiEntrySize) + "]",
                "the api form is 12-byte entries; " + std::to_string(blob.size()) + " byte(s) leave " +
                    std::to_string(blob.size() % kApiEntrySize) + " over",
                rules::kIlApiLength);
}

BoundsCanonicalReport checkBoundsCanonical(ByteSpan blob, BoundsForm form, std::size_t maxReasons) {
  BoundsCanonicalReport report;
  if (form == BoundsForm::Api) {
    Expected<ApiMapView> api = openApiMap(blob);
    report.valid = report.canonical = api.ok();
    if (!api) {
      report.reasons.push_back(api.error());
      report.reasonCount = 1;
    }
    return report;
  }
  BoundsScanner scan{blob, form, {}, {}, {}};
  scan.notes.sink.emplace(report.reasons, maxReasons);
  report.valid = scan.run();
  if (!report.valid) {
    report.reasons.clear();
    report.reasons.push_back(std::move(*scan.error));
    report.reasonCount = 1;
    return report;
  }
  report.reasonCount = scan.notes.count();
  report.canonical = scan.notes.count() == 0;
  return report;
}

CheckReport checkBounds(ByteSpan blob, BoundsForm form, const CheckOptions& options) {
  CheckReport report;
  const BoundsCanonicalReport canonical = checkBoundsCanonical(blob, form, options.maxDiagnostics);
  if (!canonical.valid) {
    report.diagnostics.push_back(binaryDiagnostic(canonical.reasons.front(), {}, 0, Severity::Error));
    report.errors = 1;
    return report;
  }
  // --strict asks for the canonical bytes: what is not is an error, as
  // checkMap()'s strict makes its warnings errors.
  const Severity severity = options.strict ? Severity::Error : Severity::Warning;
  for (const Error& p : canonical.reasons) report.diagnostics.push_back(binaryDiagnostic(p, {}, 0, severity));
  (options.strict ? report.errors : report.warnings) = canonical.reasonCount;
  report.truncated = canonical.reasonCount > canonical.reasons.size();
  report.valid = report.errors == 0;
  return report;
}

}  // namespace gdmap::il
