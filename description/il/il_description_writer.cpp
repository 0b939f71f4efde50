// writeIlDescription: text written directly, as writeDescription does, so
// the key order is this code's and a method of 10^6 bounds costs one
// string, one line a bound. It goes through the one JsonWriter, with the
// keys of il_description_keys.hpp, the reader's.
#include <gdmap/description/il_description_json.hpp>

#include "il_description_keys.hpp"

#include <gdmap/description/json_writer.hpp>
#include <gdmap/schema/hex.hpp>

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

namespace gdmap {
namespace {

namespace il_key = description::il_key;
using Layout = JsonWriter::Layout;

// An IL offset: a number, or the name of a special one (the special
// offsets are the three highest, so that a bound's offset is seldom looked up).
void writeIl(JsonWriter& w, std::uint32_t il) {
  const std::string_view special = il < il::kEpilog ? std::string_view() : il::specialIlName(il);
  if (special.empty()) {
    w.member(il_key::kIl, il);
    return;
  }
  w.key(il_key::kIl);
  w.plainString(special);
}

// Flags by name, low bit first; a bit without a name as "0x40", which the
// reader takes back. The known flags' names are made once (most bounds
// have a flag), each set bit visited once.
void writeSource(JsonWriter& w, std::uint32_t source) {
  static const std::array<std::string, std::bit_width(il::source::kKnown)> kKnownNames = [] {
    std::array<std::string, std::bit_width(il::source::kKnown)> names;
    for (std::size_t i = 0; i < names.size(); ++i) names[i] = il::sourceFlagName(std::uint32_t{1} << i);
    return names;
  }();
  w.beginArray(Layout::Inline);
  for (; source != 0; source &= source - 1) {
    const auto index = static_cast<std::size_t>(std::countr_zero(source));
    if (index < kKnownNames.size()) w.plainString(kKnownNames[index]);
    else w.plainString(il::sourceFlagName(std::uint32_t{1} << index));
  }
  w.endArray();
}

// Type text has no control characters, but a parsed description may
// (escaped, as the reader took them): written with \u00XX escapes.
void writeTypes(JsonWriter& w, std::string_view key, const std::vector<std::string>& types) {
  w.key(key);
  w.beginArray(Layout::Inline);
  for (const std::string& type : types) w.string(type, JsonWriter::Escape::Controls);
  w.endArray();
}

// One line: the type and method arguments, empty lists left out, and the
// flags that are set.
void writeInstantiation(JsonWriter& w, const il::Instantiation& inst) {
  w.key(il_key::kInstantiation);
  w.beginObject(Layout::Spaced);
  if (!inst.typeArguments.empty()) writeTypes(w, il_key::kType, inst.typeArguments);
  if (!inst.methodArguments.empty()) writeTypes(w, il_key::kMethod, inst.methodArguments);
  const auto flag = [&](bool set, std::string_view key) {
    if (!set) return;
    w.key(key);
    w.boolean(true);
  };
  flag(inst.unboxingStub, il_key::kUnboxingStub);
  flag(inst.asyncVariant, il_key::kAsyncVariant);
  flag(inst.resumptionStub, il_key::kResumptionStub);
  w.endObject();
}

// A bound's line and column, and its document when it is not the method's.
void writeLine(JsonWriter& w, const il::BoundLine& line, const std::string& document) {
  w.member(il_key::kLine, line.line);
  if (line.column != 0) {
    w.member(il_key::kColumn, line.column);
  }
  if (line.document.empty() || line.document == document) return;
  w.key(il_key::kDocument);
  w.string(line.document);
}

void writeBounds(JsonWriter& w, const std::vector<il::Bound>& bounds, const std::vector<il::BoundLine>& lines,
                 const std::string& document) {
  w.key(il_key::kBounds);
  w.beginArray();
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    const il::Bound& b = bounds[i];
    w.beginObject(Layout::Spaced);
    w.member(il_key::kNative, b.nativeOffset);
    writeIl(w, b.ilOffset);
    if (b.source != 0) {
      w.key(il_key::kSource);
      writeSource(w, b.source);
    }
    if (i < lines.size() && lines[i].line != 0) writeLine(w, lines[i], document);
    w.endObject();
  }
  w.endArray();
}

void writeMap(JsonWriter& w, const std::vector<il::ApiEntry>& entries) {
  w.key(il_key::kMap);
  w.beginArray();
  for (const il::ApiEntry& e : entries) {
    w.beginObject(Layout::Spaced);
    writeIl(w, e.ilOffset);
    w.member(il_key::kNativeStart, e.nativeStartOffset);
    w.member(il_key::kNativeEnd, e.nativeEndOffset);
    w.endObject();
  }
  w.endArray();
}

void writeNumber(JsonWriter& w, std::string_view key, const std::optional<std::uint32_t>& value) {
  if (!value) return;
  w.member(key, *value);
}

// One line: the overrides, in the order of the bytes they shape.
void writeLayout(JsonWriter& w, const il::BoundsLayout& layout) {
  w.key(il_key::kLayout);
  w.beginObject(Layout::Spaced);
  writeNumber(w, il_key::kCount, layout.count);
  writeNumber(w, il_key::kNativeBits, layout.nativeBits);
  writeNumber(w, il_key::kIlBits, layout.ilBits);
  writeNumber(w, il_key::kHeaderPadding, layout.headerPadding);
  if (!layout.nibbles.empty()) {
    w.key(il_key::kNibbles);
    w.beginObject(Layout::Spaced);
    for (const il::VarintLength& v : layout.nibbles) {
      w.member(il::varintPath(v.field, v.bound), v.nibbles);
    }
    w.endObject();
  }
  if (layout.verbatimSource) {
    w.key(il_key::kVerbatimSource);
    w.boolean(true);
  }
  writeNumber(w, il_key::kPadding, layout.padding);
  if (!layout.trailing.empty()) {
    w.key(il_key::kTrailing);
    w.hexBytes(layout.trailing);
  }
  writeNumber(w, il_key::kTruncate, layout.truncate);
  w.endObject();
}

// The code ranges on one line, an image's by RVA, a process's by address.
void writeCode(JsonWriter& w, const std::vector<il::CodeRange>& code) {
  w.key(il_key::kCode);
  w.beginArray(Layout::Inline);
  for (const il::CodeRange& range : code) {
    w.beginObject(Layout::Spaced);
    if (range.absolute) {
      w.key(il_key::kAddress);
      w.shortHex(range.start);
    } else {
      w.key(il_key::kRva);
      w.hex32(static_cast<std::uint32_t>(range.start));
    }
    w.member(il_key::kSize, range.size);
    w.endObject();
  }
  w.endArray();
}

// One line: the kind, the tier when known, the IL version and whether it
// is active (those two always).
void writeCodeVersion(JsonWriter& w, const il::CodeVersion& version) {
  w.key(il_key::kCodeVersion);
  w.beginObject(Layout::Spaced);
  w.key(il_key::kKind);
  w.plainString(il::codeKindName(version.kind));
  if (version.tier) {
    w.key(il_key::kTier);
    w.plainString(il::tierName(*version.tier));
  }
  w.member(il_key::kIlVersion, version.ilVersion);
  w.key(il_key::kActive);
  w.boolean(version.active);
  w.endObject();
}

void writeString(JsonWriter& w, std::string_view key, const std::string& value) {
  if (value.empty()) return;
  w.key(key);
  w.string(value);
}

// What identifies the method and what people read: module to document.
void writeIdentity(JsonWriter& w, const il::Method& m) {
  writeString(w, il_key::kModule, m.module);
  w.key(il_key::kToken);
  w.hex32(m.token);
  writeNumber(w, il_key::kCodeSize, m.codeSize);
  writeString(w, il_key::kComponent, m.component);
  if (m.methodDesc) {
    w.key(il_key::kMethodDesc);
    w.shortHex(*m.methodDesc);
  }
  if (m.dynamicMethod) {
    w.key(il_key::kDynamic);
    w.boolean(true);
  }
  if (m.codeVersion) writeCodeVersion(w, *m.codeVersion);
  writeString(w, il_key::kName, m.name);
  writeString(w, il_key::kSignature, m.signature);
  writeString(w, il_key::kDocument, m.document);
}

// A writer inside /methods (the head written before): `any` when a method
// precedes.
void resumeInMethods(JsonWriter& w, bool any) {
  w.resume(Layout::Lines, true);
  w.resume(Layout::Lines, any);
}

}  // namespace

std::string il::writeIlDescription(std::span<const il::Method> methods) {
  std::string out;
  std::size_t lines = 0;
  for (const il::Method& m : methods) lines += 1 + (m.verbatimMap ? m.map.size() : m.bounds.size());
  out.reserve(32 + lines * 56);
  appendIlDescriptionHead(out);
  for (std::size_t i = 0; i < methods.size(); ++i) appendIlDescriptionMethod(methods[i], i, out);
  appendIlDescriptionTail(methods.size(), out);
  return out;
}

void il::appendIlDescriptionHead(std::string& out) {
  JsonWriter w(out);
  w.beginObject();
  w.key(il_key::kMethods);
  w.beginArray();
}

void il::appendIlDescriptionTail(std::size_t methods, std::string& out) {
  JsonWriter w(out);
  resumeInMethods(w, methods != 0);
  w.endArray();
  w.endObject();
  out += '\n';
}

void il::appendIlDescriptionMethod(const il::Method& m, std::size_t index, std::string& out) {
  JsonWriter w(out);
  resumeInMethods(w, index != 0);
  w.beginObject();
  writeIdentity(w, m);
  if (m.instantiation) writeInstantiation(w, *m.instantiation);
  if (!m.code.empty()) writeCode(w, m.code);
  if (m.layout && m.layout->raw) {
    w.key(il_key::kRaw);
    w.hexBytes(*m.layout->raw);
  } else {
    if (m.layout) writeLayout(w, *m.layout);
    if (m.verbatimMap) writeMap(w, m.map);
    else writeBounds(w, m.bounds, m.lines, m.document);
  }
  w.endObject();
}

}  // namespace gdmap
