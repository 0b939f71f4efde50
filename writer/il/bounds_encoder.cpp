// The bounds encoders. Validation (order, storable flags) runs before any
// byte is written, so a failure leaves nothing half-built.
#include <gdmap/schema/bounds_to_api.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/writer/bounds_encoder.hpp>

#include <gdmap/internal/nibble_writer.hpp>
#include "bit_writer.hpp"
#include "bounds_fields.hpp"

#include <algorithm>
#include <bit>
#include <string>

namespace gdmap::il {
namespace {

// An error about bound `index`'s `field`: the path and index say where,
// the message what.
Error boundError(std::size_t index, const char* field, std::string message, const char* rule) {
  Error e(0, OffsetUnit::Byte, "bounds[" + std::to_string(index) + "]." + field, std::move(message), rule);
  e.index = index;
  return e;
}

Status checkOrder(std::span<const Bound> bounds) {
  if (const auto i = firstDescendingBound(bounds)) {
    return boundError(*i, "native",
                      "native offset " + std::to_string(bounds[*i].nativeOffset) + " is below bounds[" +
                          std::to_string(*i - 1) + "]'s " + std::to_string(bounds[*i - 1].nativeOffset) +
                          "; bounds must ascend by native offset",
                      rules::kIlBoundsNotAscending);
  }
  return Success{};
}

Status checkStorable(std::span<const Bound> bounds, BoundsForm form) {
  const std::uint32_t storable = storableSource(form);
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    const std::uint32_t extra = bounds[i].source & ~storable;
    if (extra == 0) continue;
    const std::uint32_t flag = extra & (~extra + 1);  // the lowest offending bit
    return boundError(i, "source",
                      "the " + std::string(formName(form)) + " form cannot store the flag " + sourceFlagName(flag) +
                          " (it stores " + sourceText(storable) + ")",
                      rules::kIlFlagNotStorable);
  }
  return Success{};
}

Bytes encodeNibble(std::span<const Bound> bounds) {
  Bytes out;
  out.reserve(bounds.size() * 3);
  NibbleWriter w(out);
  w.u32(static_cast<std::uint32_t>(bounds.size()));
  std::uint32_t previous = 0;
  for (const Bound& b : bounds) {
    w.u32(b.nativeOffset - previous);
    previous = b.nativeOffset;
    w.u32(storedIl(b.ilOffset));
    w.u32(b.source);
  }
  w.flush();
  return out;
}

Bytes encodePacked(std::span<const Bound> bounds, unsigned sourceBits) {
  std::uint32_t maxDelta = 0;
  std::uint32_t maxIl = 0;
  std::uint32_t previous = 0;
  for (const Bound& b : bounds) {
    maxDelta = std::max(maxDelta, b.nativeOffset - previous);
    previous = b.nativeOffset;
    maxIl = std::max(maxIl, storedIl(b.ilOffset));
  }
  const unsigned nativeBits = bitLength(maxDelta);
  const unsigned ilBits = bitLength(maxIl);

  Bytes out;
  out.reserve(8 + (bounds.size() * (sourceBits + nativeBits + ilBits) + 7) / 8);
  NibbleWriter header(out);
  header.u32(static_cast<std::uint32_t>(bounds.size()));
  header.u32(nativeBits - 1);
  header.u32(ilBits - 1);
  header.flush();

  BitWriter w(out);
  previous = 0;
  for (const Bound& b : bounds) {
    std::uint32_t code = 0;
    if ((b.source & source::kCallInstruction) != 0) code |= 1;
    if ((b.source & source::kStackEmpty) != 0) code |= 2;
    if ((b.source & source::kAsync) != 0) code |= 4;
    w.bits(code, sourceBits);
    w.bits(b.nativeOffset - previous, nativeBits);
    previous = b.nativeOffset;
    w.bits(storedIl(b.ilOffset), ilBits);
  }
  return out;
}

}  // namespace

Bytes encodeApiEntries(std::span<const ApiEntry> entries) {
  Bytes out;
  out.reserve(entries.size() * kApiEntrySize);
  for (const ApiEntry& e : entries) {
    for (const std::uint32_t v : {e.ilOffset, e.nativeStartOffset, e.nativeEndOffset})
      for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  return out;
}

Expected<Bytes> encodeCompressedBounds(std::span<const Bound> bounds, BoundsForm form) {
  if (form == BoundsForm::Api)
    return Error(0, "the api form is derived from bounds with a code size; use encodeBounds",
                 rules::kIlCodeSizeRequired);
  if (bounds.empty())
    return Error(0,
                 "a " + std::string(formName(form)) +
                     " blob holds at least one bound (the runtime stores none for a method without bounds)",
                 rules::kIlEmptyBounds);
  if (Status s = checkOrder(bounds); !s) return s.error();
  if (Status s = checkStorable(bounds, form); !s) return s.error();
  switch (form) {
    case BoundsForm::Nibble: return encodeNibble(bounds);
    case BoundsForm::Packed2: return encodePacked(bounds, 2);
    case BoundsForm::Packed3: return encodePacked(bounds, 3);
    case BoundsForm::Api: break;
  }
  return Bytes{};
}

Expected<Bytes> encodeBounds(std::span<const Bound> bounds, BoundsForm form, std::optional<std::uint32_t> codeSize) {
  if (form != BoundsForm::Api) return encodeCompressedBounds(bounds, form);
  if (!codeSize)
    return Error(0, "the api form derived from bounds needs the method's code size (the last entry ends there)",
                 rules::kIlCodeSizeRequired);
  if (Status s = checkOrder(bounds); !s) return s.error();
  return encodeApiEntries(boundsToApi(bounds, *codeSize));
}

Bytes encodeNibbleU32(std::uint32_t value) {
  Bytes out;
  NibbleWriter w(out);
  w.u32(value);
  w.flush();
  return out;
}

}  // namespace gdmap::il
