// annotateBounds(): an IL-to-native blob's fields as bit ranges
// (bounds_annotate.hpp), read with the strict reader's nibble reader and
// bit layout, then checkBoundsCanonical()'s problems laid over them.
#include <gdmap/internal/plural.hpp>
#include <gdmap/reader/bounds_annotate.hpp>

#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/map_format.hpp>
#include <gdmap/schema/rules.hpp>

#include <gdmap/internal/bit_cursor.hpp>
#include <gdmap/internal/nibble_cursor.hpp>
#include <gdmap/internal/range_tiler.hpp>

#include <algorithm>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>

namespace gdmap::il {
namespace {

std::string boundField(std::uint64_t index, const char* field) {
  return "bounds[" + std::to_string(index) + "]." + field;
}

// The stored IL value is il + 3 (mod 2^32), so that EPILOG is 0.
std::string ilMeaning(std::uint32_t stored) {
  return "stored " + std::to_string(stored) + " = il+3: il " + ilText(stored - 3);
}

// Packed source bits: bit 0 call_instruction, bit 1 stack_empty, bit 2 async.
std::uint32_t packedSource(std::uint32_t bits) {
  return ((bits & 1u) ? source::kCallInstruction : 0) | ((bits & 2u) ? source::kStackEmpty : 0) |
         ((bits & 4u) ? source::kAsync : 0);
}

// Where the tiler's ranges go (AnnotatedBits), and what bits no field
// covers are called.
class BitRanges {
 public:
  explicit BitRanges(std::vector<AnnotatedBits>& out) : out_(&out) {}

  void range(detail::TiledRange tiled) {
    out_->push_back(detail::toRange(std::move(tiled), &AnnotatedBits::bit, &AnnotatedBits::bits));
  }

  static detail::TiledRange gap(std::size_t from, std::size_t to) {
    return {from, to, "unknown", "bits no field covers", RangeStatus::Unreachable, {}};
  }

 private:
  std::vector<AnnotatedBits>* out_;
};

// A field read again from inside the one before is cut without a word.
constexpr detail::TileUnit kBits{};

class Annotator {
 public:
  Annotator(ByteSpan blob, std::vector<AnnotatedBits>& out)
      : blob_(blob), tiler_(blob.size() * 8, kBits, BitRanges(out)) {}

  void run(BoundsForm form) {
    if (form == BoundsForm::Api) {
      api();
    } else if (form == BoundsForm::Nibble) {
      nibble();
    } else {
      packed(form == BoundsForm::Packed3 ? 3u : 2u);
    }
  }

 private:
  void api() {
    const std::size_t whole = blob_.size() / kApiEntrySize;
    for (std::size_t i = 0; i < whole; ++i) {
      const std::size_t at = i * kApiEntrySize;
      const std::string entry = "entries[" + std::to_string(i) + "]";
      ByteCursor in(blob_.subspan(at, kApiEntrySize));
      const std::uint32_t il = in.u32();
      tiler_.add(8 * at, 8 * (at + 4), entry + ".ilOffset", hex32(il) + " (il " + ilText(il) + ")");
      tiler_.add(8 * (at + 4), 8 * (at + 8), entry + ".nativeStartOffset", std::to_string(in.u32()));
      tiler_.add(8 * (at + 8), 8 * (at + 12), entry + ".nativeEndOffset", std::to_string(in.u32()));
    }
    const std::size_t cut = whole * kApiEntrySize;
    tiler_.add(8 * cut, tiler_.total(), "entries[" + std::to_string(whole) + "]",
               "entry cut short: " + std::to_string(blob_.size() - cut) + " of 12 bytes", RangeStatus::Error,
               rules::kIlApiLength);
  }

  // One nibble varint as a range; nullopt (and the rest unread) when it
  // does not read.
  template <typename Meaning>
  std::optional<std::uint32_t> varint(NibbleCursor& r, std::string path, Meaning meaning) {
    const NibbleCursor::Varint v = r.varint();
    if (!r.ok()) {
      const bool truncated = r.problem() == NibbleCursor::Problem::Truncated;
      tiler_.add(4 * v.start, truncated ? tiler_.total() : 4 * (v.at + 1), std::move(path),
                 truncated ? "a nibble varint cut short by the blob's end" : "not a nibble varint of 32 bits",
                 RangeStatus::Error, truncated ? rules::kIlTruncated : std::string_view{});
      unread();
      return std::nullopt;
    }
    std::string text = meaning(v.value);
    if (v.nibbles > 1) text += " (" + std::to_string(v.nibbles) + " nibbles)";
    tiler_.add(4 * v.start, 4 * r.position(), std::move(path), std::move(text));
    return v.value;
  }

  // Whatever follows a field that does not read.
  void unread() {
    tiler_.add(tiler_.cursor(), tiler_.total(), "unread",
               plural(tiler_.total() - tiler_.cursor(), "bit", "bits") + " after the first problem, not read",
               RangeStatus::Unreachable);
  }

  void padNibble(NibbleCursor& r, const char* path) {
    if (r.position() % 2 == 0 || r.remaining() == 0) return;
    const std::size_t at = r.position();
    const std::uint8_t n = r.nibble();
    tiler_.add(4 * at, 4 * at + 4, path,
               n == 0 ? "zero nibble" : "nibble " + std::string(1, hexDigit(n)) + ", not zero");
  }

  void trailing() {
    if (tiler_.cursor() >= tiler_.total()) return;
    tiler_.add(tiler_.cursor(), tiler_.total(), "trailing",
               plural((tiler_.total() - tiler_.cursor()) / 8, "byte", "bytes") + " after the last bound");
  }

  void nibble() {
    NibbleCursor r(blob_);
    const auto count = varint(r, "header.count", [](std::uint32_t n) { return plural(n, "bound", "bounds"); });
    if (!count) return;
    std::uint64_t native = 0;
    // Every varint takes a nibble: the loop ends with the bytes.
    for (std::uint32_t i = 0; i < *count && r.remaining() > 0; ++i) {
      const auto delta = varint(r, boundField(i, "native"), [&](std::uint32_t d) {
        native += d;
        return "delta " + std::to_string(d) + ": native " + std::to_string(native);
      });
      if (!delta || r.remaining() == 0) return;
      if (!varint(r, boundField(i, "il"), ilMeaning) || r.remaining() == 0) return;
      if (!varint(r, boundField(i, "source"), [](std::uint32_t s) {
            // The whole value: a varint holds up to 32 bits, not a byte.
            return (s <= 0xFF ? hex8(static_cast<std::uint8_t>(s)) : shortHex(s)) + ": " + sourceText(s);
          }))
        return;
    }
    padNibble(r, "padding");
    trailing();
  }

  void packed(unsigned sourceBits) {
    NibbleCursor r(blob_);
    const auto count = varint(r, "header.count", [](std::uint32_t n) { return plural(n, "bound", "bounds"); });
    if (!count) return;
    const auto widthMeaning = [](const char* name) {
      return [name](std::uint32_t stored) {
        return "stored " + std::to_string(stored) + ", so " + name + " = " + std::to_string(std::uint64_t{stored} + 1);
      };
    };
    const auto nativeBits = varint(r, "header.nativeBits", widthMeaning("nativeBits"));
    if (!nativeBits) return;
    const auto ilBits = varint(r, "header.ilBits", widthMeaning("ilBits"));
    if (!ilBits) return;
    padNibble(r, "header.padding");
    if (*nativeBits > 31 || *ilBits > 31) {
      unread();
      return;
    }
    const unsigned widths[3] = {sourceBits, *nativeBits + 1, *ilBits + 1};
    const char* names[3] = {"source", "native", "il"};
    BitCursor in(blob_, r.position() * 4);
    std::uint64_t native = 0;
    // Every entry takes at least 4 bits: the loop ends with the bytes.
    for (std::uint32_t i = 0; i < *count && in.remaining() > 0; ++i) {
      for (int f = 0; f < 3; ++f) {
        const std::size_t bit = in.position();
        if (widths[f] > in.remaining()) {
          tiler_.add(
              bit, tiler_.total(), boundField(i, names[f]),
              "cut short: " + std::to_string(tiler_.total() - bit) + " of " + std::to_string(widths[f]) + " bits",
              RangeStatus::Error, rules::kIlCountExceedsBytes);
          return;
        }
        const std::uint32_t v = in.bits(widths[f]);
        std::string meaning;
        if (f == 0) {
          meaning = std::to_string(v) + ": " + sourceText(packedSource(v));
        } else if (f == 1) {
          native += v;
          meaning = "delta " + std::to_string(v) + ": native " + std::to_string(native);
        } else {
          meaning = ilMeaning(v);
        }
        tiler_.add(bit, bit + widths[f], boundField(i, names[f]), std::move(meaning));
      }
    }
    const std::size_t bit = in.position();
    if (bit % 8 != 0 && in.remaining() > 0) {
      const unsigned pad = static_cast<unsigned>(8 - bit % 8);
      const std::uint32_t v = in.bits(pad);
      tiler_.add(bit, bit + pad, "padding", plural(pad, "bit", "bits") + (v == 0 ? ", zero" : ", not zero"));
    }
    trailing();
  }

  ByteSpan blob_;
  detail::RangeTiler<BitRanges> tiler_;
};

std::size_t problemBit(const Error& p) {
  switch (p.unit) {
    case OffsetUnit::Nibble: return 4 * p.offset;
    case OffsetUnit::Bit: return p.offset;
    case OffsetUnit::Byte: break;
  }
  return 8 * p.offset;
}

void overlay(const Error& p, RangeStatus status, std::vector<AnnotatedBits>& ranges) {
  if (ranges.empty()) return;
  const std::size_t bit = problemBit(p);
  auto it = std::upper_bound(ranges.begin(), ranges.end(), bit,
                             [](std::size_t b, const AnnotatedBits& r) { return b < r.bit; });
  if (it == ranges.begin()) return;
  --it;
  // A field named by the problem wins over its neighbour in the same byte.
  if (!detail::isPathWithin(it->path, p.path) && !p.path.empty()) {
    for (auto other = ranges.begin() + ((it - ranges.begin()) > 4 ? (it - ranges.begin()) - 4 : 0);
         other != ranges.end() && other->bit < bit + 8; ++other) {
      if (detail::isPathWithin(other->path, p.path)) {
        it = other;
        break;
      }
    }
  }
  if (static_cast<int>(status) > static_cast<int>(it->status) || (status == it->status && it->message.empty())) {
    it->status = status;
    it->rule = p.rule;
    it->message = p.message;
  }
}

}  // namespace

BoundsAnnotation annotateBounds(ByteSpan blob, BoundsForm form) {
  BoundsAnnotation result;
  Annotator(blob, result.ranges).run(form);
  result.check = checkBounds(blob, form);
  const BoundsCanonicalReport canonical = checkBoundsCanonical(blob, form);
  for (const Error& p : canonical.reasons)
    overlay(p, canonical.valid ? RangeStatus::Warning : RangeStatus::Error, result.ranges);
  return result;
}

}  // namespace gdmap::il
