// encodeExact: every check runs before a byte is written, and each finds
// all its problems, so an author fixes a layout in one round.
#include <gdmap/internal/plural.hpp>
#include <gdmap/schema/bounds_to_api.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/writer/bounds_encoder.hpp>
#include <gdmap/writer/bounds_layout.hpp>

#include <gdmap/internal/nibble_writer.hpp>
#include "bit_writer.hpp"
#include "bounds_fields.hpp"

#include <algorithm>
#include <bit>
#include <string>

namespace gdmap::il {
namespace {

constexpr unsigned kMaxVarintNibbles = 11;  // where the runtime's reader stops
constexpr unsigned kMaxWidth = 32;

std::string boundPointer(std::size_t index, const char* field) {
  return "/bounds/" + std::to_string(index) + '/' + field;
}

unsigned minimalNibbles(std::uint32_t value) {
  unsigned n = 1;
  while (n < kMaxVarintNibbles && (static_cast<std::uint64_t>(value) >> (3 * n)) != 0) ++n;
  return n;
}

class Encoder {
 public:
  Encoder(const Method& method, BoundsForm form, ExactEncoding& out)
      : m_(method), form_(form), layout_(method.layout ? *method.layout : empty_), out_(out) {}

  void run() {
    if (layout_.raw) return writeRaw();
    checkApplicable();
    Bytes bytes;
    if (form_ == BoundsForm::Api) {
      writeApi(bytes);
    } else if (m_.verbatimMap) {
      error(rules::kIlMapNotCompressible, "/map",
            "a verbatim `map` is the API form, which cannot be turned back into bounds; only the api form can be "
            "built from it");
    } else {
      checkBounds();
      if (!failed_) {
        if (form_ == BoundsForm::Nibble) writeNibble(bytes);
        else writePacked(bytes, form_ == BoundsForm::Packed2 ? 2 : 3);
      }
    }
    if (failed_) return;
    finish(bytes);
    if (!failed_) out_.bytes = std::move(bytes);
  }

 private:
  void error(const char* rule, std::string path, std::string message) {
    failed_ = true;
    add(Severity::Error, rule, std::move(path), std::move(message));
  }
  void note(std::string path, std::string message) {
    add(Severity::Note, rules::kLayoutOverride, std::move(path), std::move(message));
  }
  void add(Severity severity, const char* rule, std::string path, std::string message) {
    Diagnostic d;
    d.severity = severity;
    d.rule = rule;
    d.path = std::move(path);
    d.message = std::move(message);
    out_.diagnostics.push_back(std::move(d));
  }

  void notApplicable(const char* key, const std::string& why) {
    error(rules::kIlOverrideNotApplicable, std::string("/layout/") + key, why);
  }

  void writeRaw() {
    const BoundsLayout& l = layout_;
    if (l.count || l.nativeBits || l.ilBits || !l.nibbles.empty() || l.padding || l.headerPadding || l.verbatimSource ||
        !l.trailing.empty() || l.truncate) {
      error(rules::kIlOverrideNotApplicable, "/layout",
            "`raw` gives the whole blob verbatim; no other layout key applies to it");
      return;
    }
    note("/raw", plural(l.raw->size(), "byte", "bytes") + " written verbatim, whatever the " +
                     std::string(formName(form_)) + " form's rules");
    out_.bytes = *l.raw;
  }

  void checkApplicable() {
    const BoundsLayout& l = layout_;
    const std::string form(formName(form_));
    const bool packed = form_ == BoundsForm::Packed2 || form_ == BoundsForm::Packed3;
    if (form_ == BoundsForm::Api) {
      const std::string why = "the api form is an array of 12-byte entries; it has no ";
      if (l.count) notApplicable("count", why + "count (its length gives it)");
      if (l.nativeBits) notApplicable("nativeBits", why + "widths (only packed2 and packed3 do)");
      if (l.ilBits) notApplicable("ilBits", why + "widths (only packed2 and packed3 do)");
      if (!l.nibbles.empty()) notApplicable("nibbles", why + "varints");
      if (l.padding) notApplicable("padding", why + "padding");
      if (l.headerPadding) notApplicable("headerPadding", why + "header");
      if (l.verbatimSource) notApplicable("verbatimSource", why + "source flags");
      return;
    }
    if (!packed) {
      const std::string why = "the nibble form has no ";
      if (l.nativeBits) notApplicable("nativeBits", why + "widths (only packed2 and packed3 do)");
      if (l.ilBits) notApplicable("ilBits", why + "widths (only packed2 and packed3 do)");
      if (l.headerPadding) notApplicable("headerPadding", why + "header padding (its stream is padded at the end)");
    } else if (l.verbatimSource) {
      notApplicable("verbatimSource", "the " + form +
                                          " form stores a source code of a few bits, not the flags; only the nibble "
                                          "form writes a source value verbatim");
    }
    for (const VarintLength& v : l.nibbles) {
      const bool header =
          v.field == VarintField::Count || v.field == VarintField::NativeBits || v.field == VarintField::IlBits;
      const std::string path = "/layout/nibbles/" + varintPath(v.field, v.bound);
      if (packed && !header) {
        error(rules::kIlOverrideNotApplicable, path,
              "the " + form + " form packs bounds in bits; only its header (count, widths) has varints");
      } else if (!packed && header && v.field != VarintField::Count) {
        error(rules::kIlOverrideNotApplicable, path, "the nibble form has no widths");
      } else if (!header && v.bound >= m_.bounds.size()) {
        error(rules::kIlOverrideNotApplicable, path,
              "there is no bounds[" + std::to_string(v.bound) + "]: the method has " +
                  plural(m_.bounds.size(), "bound", "bounds"));
      } else if (v.nibbles == 0 || v.nibbles > kMaxVarintNibbles) {
        error(rules::kIlOverrideOutOfRange, path,
              "a varint is 1 to 11 nibbles long (the runtime's reader stops at 11), not " + std::to_string(v.nibbles));
      }
    }
  }

  void writeApi(Bytes& bytes) {
    if (m_.verbatimMap) {
      bytes = encodeApiEntries(m_.map);
      return;
    }
    if (!m_.codeSize) {
      error(rules::kIlCodeSizeRequired, "",
            "the api form derived from bounds needs the method's `codeSize` (the last entry ends there)");
      return;
    }
    checkOrder();
    if (!failed_) bytes = encodeApiEntries(boundsToApi(m_.bounds, *m_.codeSize));
  }

  void checkOrder() {
    if (const auto i = firstDescendingBound(m_.bounds)) {
      error(rules::kIlBoundsNotAscending, boundPointer(*i, "native"),
            "native offset " + std::to_string(m_.bounds[*i].nativeOffset) + " is below the previous bound's (" +
                std::to_string(m_.bounds[*i - 1].nativeOffset) + "): bounds ascend by native offset");
    }
  }

  void checkBounds() {
    const std::string form(formName(form_));
    if (m_.bounds.empty() && !layout_.count) {
      error(rules::kIlEmptyBounds, "/bounds",
            "a " + form +
                " blob holds at least one bound (the runtime stores none for a method without bounds); give "
                "layout.count to write a header without bounds on purpose");
    }
    checkOrder();
    const bool verbatim = form_ == BoundsForm::Nibble && layout_.verbatimSource;
    const std::uint32_t storable = storableSource(form_);
    for (std::size_t i = 0; i < m_.bounds.size(); ++i) {
      const std::uint32_t extra = m_.bounds[i].source & ~storable;
      if (extra == 0) continue;
      if (verbatim) {
        note(boundPointer(i, "source"), "source " + hex32(m_.bounds[i].source) +
                                            " is written verbatim (layout.verbatimSource); the nibble form defines "
                                            "only the bits 0x1F");
        continue;
      }
      const std::uint32_t flag = extra & (~extra + 1);  // the lowest offending bit
      error(rules::kIlFlagNotStorable, boundPointer(i, "source"),
            "the " + form + " form cannot store the flag " + sourceFlagName(flag) + " (it stores " +
                sourceText(storable) + ")");
    }
    lengths_.assign(3 + 3 * m_.bounds.size(), 0);
    for (const VarintLength& v : layout_.nibbles) {
      const std::size_t at = slot(v.field, v.bound);
      if (at < lengths_.size()) lengths_[at] = static_cast<std::uint8_t>(std::min<std::uint32_t>(v.nibbles, 0xFF));
    }
  }

  static std::size_t slot(VarintField field, std::uint32_t bound) {
    switch (field) {
      case VarintField::Count: return 0;
      case VarintField::NativeBits: return 1;
      case VarintField::IlBits: return 2;
      case VarintField::Native: return 3 + 3 * std::size_t{bound};
      case VarintField::Il: return 4 + 3 * std::size_t{bound};
      case VarintField::Source: return 5 + 3 * std::size_t{bound};
    }
    return 0;
  }

  // One varint in the nibbles the layout gives for it (the shortest
  // otherwise); a length below the shortest is an error at its key.
  void varint(NibbleWriter& w, std::uint32_t value, VarintField field, std::uint32_t bound) {
    const unsigned minimal = minimalNibbles(value);
    unsigned nibbles = lengths_[slot(field, bound)];
    if (nibbles == 0) nibbles = minimal;
    const std::string path = "/layout/nibbles/" + varintPath(field, bound);
    if (nibbles < minimal) {
      error(rules::kIlOverrideOutOfRange, path,
            "the value " + std::to_string(value) + " needs " + plural(minimal, "nibble", "nibbles") + ", not " +
                std::to_string(nibbles));
      return;
    }
    if (nibbles > minimal) {
      note(path, "the value " + std::to_string(value) + " is written in " + plural(nibbles, "nibble", "nibbles") +
                     " (leading chunks of 0, nibble 8); the shortest is " + std::to_string(minimal));
    }
    for (unsigned chunk = nibbles - 1; chunk > 0; --chunk)
      w.nibble(static_cast<std::uint8_t>(((static_cast<std::uint64_t>(value) >> (3 * chunk)) & 7) | 8));
    w.nibble(static_cast<std::uint8_t>(value & 7));
    nibblesWritten_ += nibbles;
  }

  std::uint32_t count() {
    const auto n = static_cast<std::uint32_t>(m_.bounds.size());
    if (layout_.count && *layout_.count != n) {
      note("/layout/count", "the header's count is " + std::to_string(*layout_.count) + " but the method has " +
                                plural(n, "bound", "bounds") + " (a canonical build writes " + std::to_string(n) + ")");
    }
    return layout_.count.value_or(n);
  }

  // The high half of the last byte when the nibbles end in the middle of one.
  void padNibble(NibbleWriter& w, const std::optional<std::uint32_t>& value, const char* key) {
    const std::string path = std::string("/layout/") + key;
    if (nibblesWritten_ % 2 == 0) {
      if (value && *value != 0)
        notApplicable(key, "the nibbles end on a byte boundary here: there is no padding nibble to set");
      return;
    }
    if (value && *value > 0xF) {
      error(rules::kIlOverrideOutOfRange, path,
            "the padding is one nibble, 0 to 15; " + std::to_string(*value) + " does not fit");
      return;
    }
    if (value && *value != 0)
      note(path, "the padding nibble is " + std::to_string(*value) + " (a canonical build writes 0)");
    w.nibble(static_cast<std::uint8_t>(value.value_or(0)));
    ++nibblesWritten_;
  }

  void writeNibble(Bytes& bytes) {
    bytes.reserve(3 + m_.bounds.size() * 3);
    NibbleWriter w(bytes);
    varint(w, count(), VarintField::Count, 0);
    std::uint32_t previous = 0;
    for (std::size_t i = 0; i < m_.bounds.size() && !failed_; ++i) {
      const Bound& b = m_.bounds[i];
      const auto index = static_cast<std::uint32_t>(i);
      varint(w, b.nativeOffset - previous, VarintField::Native, index);
      previous = b.nativeOffset;
      varint(w, storedIl(b.ilOffset), VarintField::Il, index);
      varint(w, b.source, VarintField::Source, index);
    }
    padNibble(w, layout_.padding, "padding");
  }

  // The width given for a field (else the minimal one); narrower than a
  // value is an error at the first bound whose value needs more.
  unsigned width(const std::optional<std::uint32_t>& given, const char* key, const char* field,
                 const std::vector<std::uint32_t>& values) {
    std::uint32_t largest = 0;
    for (const std::uint32_t v : values) largest = std::max(largest, v);
    const unsigned minimal = bitLength(largest);
    if (!given) return minimal;
    const std::string path = std::string("/layout/") + key;
    if (*given == 0 || (*given > kMaxWidth && !values.empty())) {
      error(rules::kIlOverrideOutOfRange, path,
            std::string(key) +
                " is 1 to 32 (wider only for a method without bounds, whose entries are not "
                "written), not " +
                std::to_string(*given));
      return minimal;
    }
    if (*given < minimal) {
      std::size_t i = 0;
      while (bitLength(values[i]) <= *given) ++i;
      error(rules::kIlOverrideOutOfRange, boundPointer(i, field),
            std::string(field[0] == 'n' ? "the native delta " : "the stored IL offset (IL + 3) ") +
                std::to_string(values[i]) + " needs " + plural(bitLength(values[i]), "bit", "bits") + "; layout." +
                key + " is " + std::to_string(*given));
      return minimal;
    }
    if (*given > minimal)
      note(path, std::string(key) + " is " + std::to_string(*given) + ", wider than the " +
                     plural(minimal, "bit", "bits") + " the largest value needs");
    return *given;
  }

  void writePacked(Bytes& bytes, unsigned sourceBits) {
    std::vector<std::uint32_t> deltas;
    std::vector<std::uint32_t> ils;
    deltas.reserve(m_.bounds.size());
    ils.reserve(m_.bounds.size());
    std::uint32_t previous = 0;
    for (const Bound& b : m_.bounds) {
      deltas.push_back(b.nativeOffset - previous);
      previous = b.nativeOffset;
      ils.push_back(storedIl(b.ilOffset));
    }
    const unsigned nativeBits = width(layout_.nativeBits, "nativeBits", "native", deltas);
    const unsigned ilBits = width(layout_.ilBits, "ilBits", "il", ils);
    if (failed_) return;
    bytes.reserve(8 + (m_.bounds.size() * (sourceBits + nativeBits + ilBits) + 7) / 8);
    NibbleWriter header(bytes);
    varint(header, count(), VarintField::Count, 0);
    varint(header, static_cast<std::uint32_t>(nativeBits - 1), VarintField::NativeBits, 0);
    varint(header, static_cast<std::uint32_t>(ilBits - 1), VarintField::IlBits, 0);
    padNibble(header, layout_.headerPadding, "headerPadding");
    if (failed_) return;

    BitWriter w(bytes);
    for (std::size_t i = 0; i < m_.bounds.size(); ++i) {
      const std::uint32_t s = m_.bounds[i].source;
      std::uint32_t code = 0;
      if ((s & source::kCallInstruction) != 0) code |= 1;
      if ((s & source::kStackEmpty) != 0) code |= 2;
      if ((s & source::kAsync) != 0) code |= 4;
      w.bits(code, sourceBits);
      w.bits(deltas[i], nativeBits);
      w.bits(ils[i], ilBits);
    }
    const unsigned free = w.padding();
    const std::optional<std::uint32_t>& padding = layout_.padding;
    if (free == 0) {
      if (padding && *padding != 0)
        notApplicable("padding", "the bounds end on a byte boundary here: there are no padding bits to set");
      return;
    }
    if (padding && *padding >= (1u << free)) {
      error(rules::kIlOverrideOutOfRange, "/layout/padding",
            "the padding is " + plural(free, "bit", "bits") + " here, 0 to " + std::to_string((1u << free) - 1) + "; " +
                std::to_string(*padding) + " does not fit");
      return;
    }
    if (padding && *padding != 0)
      note("/layout/padding", "the " + plural(free, "padding bit", "padding bits") + " hold " +
                                  std::to_string(*padding) + " (a canonical build writes 0)");
    w.bits(padding.value_or(0), free);
  }

  // The first bytes, enough to recognise them.
  std::string trailingText() const {
    constexpr std::size_t kShown = 16;
    const std::size_t n = std::min(kShown, layout_.trailing.size());
    std::string text = toHex(ByteSpan(layout_.trailing.data(), n));
    if (n < layout_.trailing.size()) text += "...";
    return text;
  }

  void finish(Bytes& bytes) {
    if (!layout_.trailing.empty()) {
      note("/layout/trailing", plural(layout_.trailing.size(), "byte", "bytes") + " after the blob: " + trailingText());
      bytes.insert(bytes.end(), layout_.trailing.begin(), layout_.trailing.end());
    }
    if (!layout_.truncate) return;
    if (*layout_.truncate > bytes.size()) {
      error(rules::kTruncatePastEnd, "/layout/truncate",
            "truncate " + std::to_string(*layout_.truncate) + " is past the end: the blob has " +
                plural(bytes.size(), "byte", "bytes"));
      return;
    }
    if (*layout_.truncate < bytes.size()) {
      note("/layout/truncate", "the blob is cut to " + plural(*layout_.truncate, "byte", "bytes") + " of its " +
                                   std::to_string(bytes.size()));
      bytes.resize(*layout_.truncate);
    }
  }

  static inline const BoundsLayout empty_{};
  const Method& m_;
  BoundsForm form_;
  const BoundsLayout& layout_;
  ExactEncoding& out_;
  bool failed_ = false;
  std::vector<std::uint8_t> lengths_;  // nibbles per varint slot, 0: the shortest
  std::size_t nibblesWritten_ = 0;
};

}  // namespace

ExactEncoding encodeExact(const Method& method, BoundsForm form) {
  ExactEncoding out;
  Encoder(method, form, out).run();
  return out;
}

}  // namespace gdmap::il
