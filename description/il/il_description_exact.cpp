// describeIlBlob: a lenient reader that keeps how each field was written.
// It reads as far as the bytes make sense and calls the rest trailing,
// never trusting a count: a loop ends when the bytes do.
#include <gdmap/description/il_description_exact.hpp>

#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/writer/bounds_layout.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>

namespace gdmap {
namespace {

constexpr unsigned kMaxVarintNibbles = 11;

unsigned minimalNibbles(std::uint32_t value) {
  unsigned n = 1;
  while (n < kMaxVarintNibbles && (static_cast<std::uint64_t>(value) >> (3 * n)) != 0) ++n;
  return n;
}

unsigned bitLength(std::uint32_t value) { return value == 0 ? 1u : static_cast<unsigned>(std::bit_width(value)); }

class NibbleCursor {
 public:
  explicit NibbleCursor(ByteSpan bytes) : bytes_(bytes) {}
  std::size_t position() const { return position_; }
  void seek(std::size_t position) { position_ = position; }
  bool atEnd() const { return position_ >= 2 * bytes_.size(); }
  std::uint8_t nibble() {
    const std::uint8_t byte = bytes_[position_ / 2];
    const auto value = static_cast<std::uint8_t>(position_ % 2 == 0 ? byte & 0xF : byte >> 4);
    ++position_;
    return value;
  }
  // A varint and how many nibbles it took; nullopt (position unchanged)
  // when it is cut off, longer than 11 nibbles or over 32 bits.
  std::optional<std::uint32_t> varint(unsigned& nibbles) {
    const std::size_t start = position_;
    std::uint64_t value = 0;
    for (nibbles = 1; nibbles <= kMaxVarintNibbles && !atEnd(); ++nibbles) {
      const std::uint8_t n = nibble();
      value = (value << 3) | (n & 7u);
      if ((n & 8) == 0) {
        if (value > 0xFFFFFFFFu) break;
        return static_cast<std::uint32_t>(value);
      }
    }
    position_ = start;
    return std::nullopt;
  }

 private:
  ByteSpan bytes_;
  std::size_t position_ = 0;  // in nibbles
};

class BitCursor {
 public:
  BitCursor(ByteSpan bytes, std::size_t position) : bytes_(bytes), position_(position) {}
  std::size_t left() const { return 8 * bytes_.size() - position_; }
  std::size_t position() const { return position_; }
  std::uint32_t bits(unsigned count) {  // count <= 32, count <= left()
    std::uint64_t value = 0;
    for (unsigned i = 0; i < count; ++i, ++position_)
      value |= static_cast<std::uint64_t>((bytes_[position_ / 8] >> (position_ % 8)) & 1u) << i;
    return static_cast<std::uint32_t>(value);
  }

 private:
  ByteSpan bytes_;
  std::size_t position_;
};

void noteLength(il::BoundsLayout& layout, il::VarintField field, std::uint32_t bound, unsigned nibbles,
                std::uint32_t value) {
  if (nibbles != minimalNibbles(value)) layout.nibbles.push_back({field, bound, nibbles});
}

Bytes rest(ByteSpan blob, std::size_t from) {
  return Bytes(blob.begin() + static_cast<std::ptrdiff_t>(from), blob.end());
}

std::optional<il::BoundsLayout> describeNibble(ByteSpan blob, il::Method& m) {
  il::BoundsLayout layout;
  NibbleCursor c(blob);
  unsigned length = 0;
  const std::optional<std::uint32_t> count = c.varint(length);
  if (!count) return std::nullopt;
  noteLength(layout, il::VarintField::Count, 0, length, *count);
  std::uint32_t native = 0;
  for (std::uint32_t i = 0; i < *count; ++i) {
    const std::size_t start = c.position();
    unsigned lengths[3] = {};
    const auto delta = c.varint(lengths[0]);
    const auto stored = delta ? c.varint(lengths[1]) : std::nullopt;
    const auto source = stored ? c.varint(lengths[2]) : std::nullopt;
    if (!source || *delta > 0xFFFFFFFFu - native) {
      c.seek(start);
      break;
    }
    native += *delta;
    m.bounds.push_back({native, *stored - 3, *source});
    noteLength(layout, il::VarintField::Native, i, lengths[0], *delta);
    noteLength(layout, il::VarintField::Il, i, lengths[1], *stored);
    noteLength(layout, il::VarintField::Source, i, lengths[2], *source);
    if ((*source & ~il::storableSource(il::BoundsForm::Nibble)) != 0) layout.verbatimSource = true;
  }
  if (*count != m.bounds.size() || m.bounds.empty()) layout.count = *count;
  if (c.position() % 2 != 0) {
    if (const std::uint8_t pad = c.nibble(); pad != 0) layout.padding = pad;
  }
  layout.trailing = rest(blob, c.position() / 2);
  return layout;
}

std::optional<il::BoundsLayout> describePacked(ByteSpan blob, il::BoundsForm form, il::Method& m) {
  il::BoundsLayout layout;
  NibbleCursor c(blob);
  unsigned lengths[3] = {};
  const auto count = c.varint(lengths[0]);
  const auto nativeStored = count ? c.varint(lengths[1]) : std::nullopt;
  const auto ilStored = nativeStored ? c.varint(lengths[2]) : std::nullopt;
  // A width of 2^32 (stored 0xFFFFFFFF) has no u32 to say it in.
  if (!ilStored || *nativeStored == 0xFFFFFFFFu || *ilStored == 0xFFFFFFFFu) return std::nullopt;
  noteLength(layout, il::VarintField::Count, 0, lengths[0], *count);
  noteLength(layout, il::VarintField::NativeBits, 0, lengths[1], *nativeStored);
  noteLength(layout, il::VarintField::IlBits, 0, lengths[2], *ilStored);
  if (c.position() % 2 != 0) {
    if (const std::uint8_t pad = c.nibble(); pad != 0) layout.headerPadding = pad;
  }
  const std::uint32_t nativeBits = *nativeStored + 1;
  const std::uint32_t ilBits = *ilStored + 1;
  const unsigned sourceBits = form == il::BoundsForm::Packed2 ? 2 : 3;
  BitCursor bits(blob, 4 * c.position());
  std::uint32_t native = 0;
  std::uint32_t maxDelta = 0;
  std::uint32_t maxIl = 0;
  if (nativeBits <= 32 && ilBits <= 32) {
    const std::size_t entry = sourceBits + nativeBits + ilBits;
    for (std::uint32_t i = 0; i < *count && bits.left() >= entry; ++i) {
      const std::size_t start = bits.position();
      const std::uint32_t code = bits.bits(sourceBits);
      const std::uint32_t delta = bits.bits(nativeBits);
      const std::uint32_t stored = bits.bits(ilBits);
      if (delta > 0xFFFFFFFFu - native) {
        bits = BitCursor(blob, start);
        break;
      }
      native += delta;
      std::uint32_t source = 0;
      if (code & 1) source |= il::source::kCallInstruction;
      if (code & 2) source |= il::source::kStackEmpty;
      if (code & 4) source |= il::source::kAsync;
      m.bounds.push_back({native, stored - 3, source});
      maxDelta = std::max(maxDelta, delta);
      maxIl = std::max(maxIl, stored);
    }
  }
  if (*count != m.bounds.size() || m.bounds.empty()) layout.count = *count;
  if (nativeBits != bitLength(maxDelta)) layout.nativeBits = nativeBits;
  if (ilBits != bitLength(maxIl)) layout.ilBits = ilBits;
  std::size_t end = bits.position();
  if (const std::size_t used = end % 8; used != 0) {
    const auto free = static_cast<unsigned>(8 - used);
    if (const std::uint32_t pad = bits.bits(free); pad != 0) layout.padding = pad;
    end += free;
  }
  layout.trailing = rest(blob, end / 8);
  return layout;
}

bool isCanonical(const il::BoundsLayout& l) {
  return !l.count && !l.nativeBits && !l.ilBits && l.nibbles.empty() && !l.padding && !l.headerPadding &&
         !l.verbatimSource && l.trailing.empty() && !l.truncate && !l.raw;
}

}  // namespace

il::ExactIlMethod il::describeIlBlob(ByteSpan blob, il::BoundsForm form) {
  ExactIlMethod out;
  il::Method& m = out.method;
  // What the runtime writes, canonical bytes, takes the strict readers'
  // fast path: no layout, nothing to rebuild.
  if (const il::BoundsCanonicalReport read = il::checkBoundsCanonical(blob, form, 0); read.valid && read.canonical) {
    if (form == il::BoundsForm::Api) {
      m.verbatimMap = true;
      m.map = il::ApiMapView(blob).toVector();
      return out;
    }
    if (const Expected<il::BoundsView> opened = il::openBounds(blob, form)) {
      m.bounds = opened->toVector();
      return out;
    }
  }
  std::optional<il::BoundsLayout> layout;
  if (form == il::BoundsForm::Api) {
    m.verbatimMap = true;
    const std::size_t entries = blob.size() / il::kApiEntrySize;
    m.map.reserve(entries);
    const auto u32 = [&](std::size_t at) {
      return static_cast<std::uint32_t>(blob[at] | (blob[at + 1] << 8) | (blob[at + 2] << 16) |
                                        (static_cast<std::uint32_t>(blob[at + 3]) << 24));
    };
    for (std::size_t i = 0; i < entries; ++i) {
      const std::size_t at = i * il::kApiEntrySize;
      m.map.push_back({u32(at), u32(at + 4), u32(at + 8)});
    }
    layout.emplace();
    layout->trailing = rest(blob, entries * il::kApiEntrySize);
  } else if (form == il::BoundsForm::Nibble) {
    layout = describeNibble(blob, m);
  } else {
    layout = describePacked(blob, form, m);
  }
  if (layout && !isCanonical(*layout)) m.layout = std::move(*layout);
  if (layout) {
    const il::ExactEncoding rebuilt = il::encodeExact(m, form);
    if (rebuilt && std::equal(rebuilt.bytes->begin(), rebuilt.bytes->end(), blob.begin(), blob.end())) return out;
  }
  // The header cannot be read (or, were the reading above wrong, the
  // rebuild differs): the bytes verbatim, the one form that always holds.
  m = {};
  m.layout.emplace();
  m.layout->raw = Bytes(blob.begin(), blob.end());
  out.raw = true;
  return out;
}

}  // namespace gdmap
