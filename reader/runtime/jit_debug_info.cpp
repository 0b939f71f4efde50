// The debug info of JIT-compiled code (docs/runtime-contracts.md, section
// 3), which the runtime writes differently from R2R's:
//
// .NET 10 (FlagByte): a flag byte (bit 0: patchpoint info follows, bit 1:
// rich debug info follows); the PatchpointInfo (40 bytes, then 4 per local,
// the local count a u32 at 16); the rich info (a u32 size, then the
// bytes); then nibble varints cbBounds (0xFFFFFFFF: instrumented bounds,
// then cbBounds and cbUninstrumentedBounds follow) and cbVars, padded to a
// byte; then the bounds (packed2), the uninstrumented bounds, the vars.
//
// .NET 11 (FatHeader): nibble varints cbBounds, cbVars, or 0 and six sizes
// (bounds, vars, uninstrumented bounds, patchpoint, rich, async), padded to
// a byte; then the parts in that order, the bounds packed3.
//
// Every size is bounded before anything is read, and the bounds are
// decoded by gdmap's strict reader of the packed forms.
#include "runtime_state.hpp"

#include <gdmap/internal/nibble_cursor.hpp>
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

namespace gdmap::runtime {
namespace {

constexpr std::uint8_t kFlagPatchpoint = 0x1;
constexpr std::uint8_t kFlagRich = 0x2;
constexpr std::uint64_t kPatchpointFixed = 40;  // .NET 10's PatchpointInfo before its locals
constexpr std::uint64_t kPatchpointLocalCountAt = 16;
constexpr std::uint32_t kMaxPatchpointLocals = 1u << 16;
constexpr std::uint32_t kHasInstrumentedBounds = 0xFFFFFFFFu;
constexpr std::size_t kMaxHeaderBytes = 40;  // seven varints of at most 11 nibbles

Error invalid(std::uint64_t at, const std::string& message) {
  return Error(static_cast<std::size_t>(at), message, rules::kRuntimeDebugInfoInvalid);
}

struct Header {
  std::uint64_t bytes = 0;  // the header's length
  std::uint32_t cbBounds = 0;
  std::uint32_t cbVars = 0;
  std::uint32_t cbUninstrumented = 0;
  std::uint64_t beforeUninstrumented = 0;  // bytes of parts between the bounds' end and the uninstrumented bounds
};

Expected<Header> readHeader(const TargetPages& pages, std::uint64_t at, JitDebugInfoForm form,
                            const std::string& what) {
  std::uint8_t raw[kMaxHeaderBytes];
  const std::size_t got = pages.readSome(at, MutableByteSpan(raw, sizeof raw));
  if (got == 0) {
    if (Status s = pages.read(at, MutableByteSpan(raw, 1), what + " header"); !s) return s.error();
  }
  NibbleCursor nibbles(ByteSpan(raw, got));
  std::optional<Error> problem;
  const auto next = [&](const char* name) -> std::uint32_t {
    if (problem) return 0;
    const NibbleCursor::Varint v = nibbles.varint();
    if (!nibbles.ok()) {
      problem = invalid(at + v.at / 2, what + " header." + name + ": " +
                                           (nibbles.problem() == NibbleCursor::Problem::Truncated
                                                ? "the readable memory ends inside it"
                                                : "not a nibble varint of 32 bits"));
    }
    return v.value;
  };
  Header h;
  if (form == JitDebugInfoForm::FlagByte) {
    h.cbBounds = next("cbBounds");
    if (h.cbBounds == kHasInstrumentedBounds) {
      h.cbBounds = next("cbBounds");
      h.cbUninstrumented = next("cbUninstrumentedBounds");
    }
    h.cbVars = next("cbVars");
    h.beforeUninstrumented = 0;  // bounds, uninstrumented bounds, vars
  } else {
    const std::uint32_t first = next("cbBounds (or the fat marker 0)");
    if (first != 0) {
      h.cbBounds = first;
      h.cbVars = next("cbVars");
    } else {
      h.cbBounds = next("fat.cbBounds");
      h.cbVars = next("fat.cbVars");
      h.cbUninstrumented = next("fat.cbUninstrumentedBounds");
      next("fat.cbPatchpointInfo");
      next("fat.cbRichDebugInfo");
      next("fat.cbAsyncInfo");
    }
    h.beforeUninstrumented = h.cbVars;  // bounds, vars, uninstrumented bounds
  }
  if (problem) return *problem;
  h.bytes = (nibbles.position() + 1) / 2;
  if (h.cbBounds > kMaxDebugInfoPart || h.cbUninstrumented > kMaxDebugInfoPart || h.cbVars > kMaxDebugInfoPart) {
    return invalid(at, what + ": a part of " + std::to_string(std::max({h.cbBounds, h.cbUninstrumented, h.cbVars})) +
                           " bytes, more than a method's debug info holds");
  }
  return h;
}

Expected<std::vector<il::Bound>> readBounds(const TargetPages& pages, std::uint64_t at, std::uint32_t size,
                                            il::BoundsForm form, const std::string& what) {
  if (size == 0) return std::vector<il::Bound>{};
  std::vector<std::uint8_t> bytes(size);
  if (Status s = pages.read(at, bytes, what); !s) return s.error();
  Expected<il::BoundsView> view = il::openBounds(bytes, form);
  // Bytes after the last bound: the runtime reads `count` bounds and never
  // looks further, and the JIT's blobs may be padded (.NET 10: 36 bytes
  // stated, 4 used, for some tiny bodies), as R2R's are.
  if (!view && view.error().rule == rules::kIlTrailingBytes) {
    view = il::openBounds(ByteSpan(bytes).first(view.error().byteOffset()), form);
  }
  if (!view) {
    const Error& e = view.error();
    return invalid(at + e.offset, what + ": " + e.message);
  }
  return view->toVector();
}

}  // namespace

Expected<JitDebugInfo> RuntimeCode::debugInfo(const JitBody& body) const {
  const State& s = *state_;
  JitDebugInfo info;
  const JitDebugInfoForm form = s.layout.debugInfoForm;
  info.form = form == JitDebugInfoForm::FlagByte ? il::BoundsForm::Packed2 : il::BoundsForm::Packed3;
  if (body.debugInfo == 0) return info;
  const std::string what = "the debug info at " + shortHex(body.debugInfo) + " (body at " + shortHex(body.start) + ")";
  std::uint64_t at = body.debugInfo;
  if (form == JitDebugInfoForm::FlagByte) {
    Expected<std::uint8_t> flags = s.pages.u8(at, what + " flags");
    if (!flags) return flags.error();
    if (*flags & ~(kFlagPatchpoint | kFlagRich)) {
      return invalid(at, what + ": flag byte " + shortHex(*flags) + " has bits gdmap does not know");
    }
    at += 1;
    if (*flags & kFlagPatchpoint) {
      Expected<std::uint32_t> locals = s.pages.u32(at + kPatchpointLocalCountAt, what + " patchpoint local count");
      if (!locals) return locals.error();
      if (*locals > kMaxPatchpointLocals) {
        return invalid(at + kPatchpointLocalCountAt,
                       what + ": patchpoint info of " + std::to_string(*locals) + " locals");
      }
      at += kPatchpointFixed + 4ull * *locals;
    }
    if (*flags & kFlagRich) {
      Expected<std::uint32_t> size = s.pages.u32(at, what + " rich debug info size");
      if (!size) return size.error();
      if (*size > kMaxDebugInfoPart)
        return invalid(at, what + ": rich debug info of " + std::to_string(*size) + " bytes");
      at += 4ull + *size;
    }
  }
  Expected<Header> h = readHeader(s.pages, at, form, what);
  if (!h) return h.error();
  info.boundsAddress = at + h->bytes;
  Expected<std::vector<il::Bound>> bounds =
      readBounds(s.pages, info.boundsAddress, h->cbBounds, info.form, what + " bounds");
  if (!bounds) return bounds.error();
  info.bounds = std::move(*bounds);
  if (h->cbUninstrumented != 0) {
    const std::uint64_t u = info.boundsAddress + h->cbBounds + h->beforeUninstrumented;
    Expected<std::vector<il::Bound>> original =
        readBounds(s.pages, u, h->cbUninstrumented, info.form, what + " uninstrumented bounds");
    if (!original) return original.error();
    info.uninstrumentedBounds = std::move(*original);
  }
  for (std::size_t i = 0; i < info.bounds.size(); ++i) {
    if (info.bounds[i].nativeOffset > body.size) {
      return invalid(info.boundsAddress, what + ": bounds[" + std::to_string(i) + "].native " +
                                             std::to_string(info.bounds[i].nativeOffset) + " is past the body's " +
                                             std::to_string(body.size) + " bytes");
    }
  }
  return info;
}

}  // namespace gdmap::runtime
