// writeIlDescription: text written directly, as writeDescription does, so
// the key order is this code's and a method of 10^6 bounds costs one
// string, one line a bound.
#include <gdmap/description/il_description_json.hpp>

#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace gdmap {
namespace {

// `before` (the key, quoted, and what precedes it), then `value` in decimal.
void appendNumber(std::string_view before, std::uint32_t value, std::string& out) {
  out += before;
  out += std::to_string(value);
}

void appendIl(std::uint32_t il, std::string& out) {
  const std::string_view special = il::specialIlName(il);
  if (special.empty()) {
    out += std::to_string(il);
  } else {
    out += '"';
    out += special;
    out += '"';
  }
}

// Flags by name, low bit first; a bit without a name as "0x40", which the
// reader takes back.
void appendSource(std::uint32_t source, std::string& out) {
  out += '[';
  bool first = true;
  for (std::uint32_t bit = 1; bit != 0; bit <<= 1) {
    if ((source & bit) == 0) continue;
    if (!first) out += ", ";
    first = false;
    out += '"';
    out += il::sourceFlagName(bit);
    out += '"';
  }
  out += ']';
}

// A JSON string; type text has no control characters, but a parsed
// description may (escaped, as the reader took them).
void appendString(const std::string& text, std::string& out) {
  out += '"';
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      out += "\\u00";
      out += hexDigit(u >> 4);
      out += hexDigit(u & 0xF);
    } else {
      out += c;
    }
  }
  out += '"';
}

void appendTypes(const char* key, const std::vector<std::string>& types, std::string& out) {
  out += '"';
  out += key;
  out += "\": [";
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (i != 0) out += ", ";
    appendString(types[i], out);
  }
  out += ']';
}

// One line: `"instantiation": { "type": [...], "method": [...] }`, empty
// lists left out.
void appendInstantiation(const il::Instantiation& inst, std::string& out) {
  out += "      \"instantiation\": {";
  const char* separator = " ";
  if (!inst.typeArguments.empty()) {
    out += separator;
    appendTypes("type", inst.typeArguments, out);
    separator = ", ";
  }
  if (!inst.methodArguments.empty()) {
    out += separator;
    appendTypes("method", inst.methodArguments, out);
    separator = ", ";
  }
  const auto flag = [&](bool set, const char* key) {
    if (!set) return;
    out += separator;
    out += key;
    separator = ", ";
  };
  flag(inst.unboxingStub, "\"unboxingStub\": true");
  flag(inst.asyncVariant, "\"asyncVariant\": true");
  flag(inst.resumptionStub, "\"resumptionStub\": true");
  out += separator[0] == ' ' ? "},\n" : " },\n";
}

// `, "line": 14, "column": 13` after a bound, and its `"document"` when it is
// not the method's.
void appendLine(const il::BoundLine& line, const std::string& document, std::string& out) {
  appendNumber(", \"line\": ", line.line, out);
  if (line.column != 0) appendNumber(", \"column\": ", line.column, out);
  if (line.document.empty() || line.document == document) return;
  out += ", \"document\": ";
  appendJsonString(line.document, out);
}

void appendBounds(const std::vector<il::Bound>& bounds, const std::vector<il::BoundLine>& lines,
                  const std::string& document, std::string& out) {
  out += "      \"bounds\": [";
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    const il::Bound& b = bounds[i];
    appendNumber(i == 0 ? "\n        { \"native\": " : ",\n        { \"native\": ", b.nativeOffset, out);
    out += ", \"il\": ";
    appendIl(b.ilOffset, out);
    if (b.source != 0) {
      out += ", \"source\": ";
      appendSource(b.source, out);
    }
    if (i < lines.size() && lines[i].line != 0) appendLine(lines[i], document, out);
    out += " }";
  }
  out += bounds.empty() ? "]" : "\n      ]";
}

void appendMap(const std::vector<il::ApiEntry>& entries, std::string& out) {
  out += "      \"map\": [";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const il::ApiEntry& e = entries[i];
    out += i == 0 ? "\n        { \"il\": " : ",\n        { \"il\": ";
    appendIl(e.ilOffset, out);
    appendNumber(", \"nativeStart\": ", e.nativeStartOffset, out);
    appendNumber(", \"nativeEnd\": ", e.nativeEndOffset, out);
    out += " }";
  }
  out += entries.empty() ? "]" : "\n      ]";
}

// One line: the overrides, in the order of the bytes they shape.
void appendLayout(const il::BoundsLayout& layout, std::string& out) {
  out += "      \"layout\": {";
  const char* separator = " ";
  const auto key = [&](const char* name) {
    out += separator;
    separator = ", ";
    out += '"';
    out += name;
    out += "\": ";
  };
  const auto number = [&](const char* name, const std::optional<std::uint32_t>& value) {
    if (!value) return;
    key(name);
    out += std::to_string(*value);
  };
  number("count", layout.count);
  number("nativeBits", layout.nativeBits);
  number("ilBits", layout.ilBits);
  number("headerPadding", layout.headerPadding);
  if (!layout.nibbles.empty()) {
    key("nibbles");
    out += '{';
    for (std::size_t i = 0; i < layout.nibbles.size(); ++i) {
      const il::VarintLength& v = layout.nibbles[i];
      out += i == 0 ? " \"" : ", \"";
      out += il::varintPath(v.field, v.bound);
      out += "\": ";
      out += std::to_string(v.nibbles);
    }
    out += " }";
  }
  if (layout.verbatimSource) {
    key("verbatimSource");
    out += "true";
  }
  number("padding", layout.padding);
  if (!layout.trailing.empty()) {
    key("trailing");
    out += '"';
    appendHex(layout.trailing, out);
    out += '"';
  }
  number("truncate", layout.truncate);
  out += *separator == ' ' ? "},\n" : " },\n";
}

void appendRaw(const Bytes& raw, std::string& out) {
  out += "      \"raw\": \"";
  appendHex(raw, out);
  out += '"';
}

// The code ranges on one line: `"code": [{ "rva": "0x2120", "size": 127 }, ...],`,
// a process's as `{ "address": "0x7f66c1a0b2c0", "size": 127 }`.
void appendCode(const std::vector<il::CodeRange>& code, std::string& out) {
  out += "      \"code\": [";
  for (std::size_t i = 0; i < code.size(); ++i) {
    out += i == 0 ? "{ " : ", { ";
    if (code[i].absolute) {
      out += "\"address\": \"";
      appendShortHex(code[i].start, out);
    } else {
      out += "\"rva\": \"";
      appendHex32(static_cast<std::uint32_t>(code[i].start), out);
    }
    appendNumber("\", \"size\": ", code[i].size, out);
    out += " }";
  }
  out += "],\n";
}

// One line: `"codeVersion": { "kind": "jit", "tier": "tier1", "ilVersion": 0, "active": true },`;
// the IL version and `active` are written always, the tier when known.
void appendCodeVersion(const il::CodeVersion& version, std::string& out) {
  out += "      \"codeVersion\": { \"kind\": \"";
  out += il::codeKindName(version.kind);
  out += '"';
  if (version.tier) {
    out += ", \"tier\": \"";
    out += il::tierName(*version.tier);
    out += '"';
  }
  out += ", \"ilVersion\": ";
  out += std::to_string(version.ilVersion);
  out += version.active ? ", \"active\": true },\n" : ", \"active\": false },\n";
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

void il::appendIlDescriptionHead(std::string& out) { out += "{\n  \"methods\": ["; }

void il::appendIlDescriptionTail(std::size_t methods, std::string& out) {
  out += methods == 0 ? "]\n}\n" : "\n  ]\n}\n";
}

void il::appendIlDescriptionMethod(const il::Method& m, std::size_t index, std::string& out) {
  out += index == 0 ? "\n    {\n" : ",\n    {\n";
  if (!m.module.empty()) {
    out += "      \"module\": ";
    appendJsonString(m.module, out);
    out += ",\n";
  }
  out += "      \"token\": \"";
  appendHex32(m.token, out);
  out += "\",\n";
  if (m.codeSize) {
    appendNumber("      \"codeSize\": ", *m.codeSize, out);
    out += ",\n";
  }
  if (!m.component.empty()) {
    out += "      \"component\": ";
    appendJsonString(m.component, out);
    out += ",\n";
  }
  if (m.methodDesc) {
    out += "      \"methodDesc\": \"";
    appendShortHex(*m.methodDesc, out);
    out += "\",\n";
  }
  if (m.dynamicMethod) out += "      \"dynamic\": true,\n";
  if (m.codeVersion) appendCodeVersion(*m.codeVersion, out);
  if (!m.name.empty()) {
    out += "      \"name\": ";
    appendJsonString(m.name, out);
    out += ",\n";
  }
  if (!m.signature.empty()) {
    out += "      \"signature\": ";
    appendJsonString(m.signature, out);
    out += ",\n";
  }
  if (!m.document.empty()) {
    out += "      \"document\": ";
    appendJsonString(m.document, out);
    out += ",\n";
  }
  if (m.instantiation) appendInstantiation(*m.instantiation, out);
  if (!m.code.empty()) appendCode(m.code, out);
  if (m.layout && m.layout->raw) {
    appendRaw(*m.layout->raw, out);
  } else {
    if (m.layout) appendLayout(*m.layout, out);
    if (m.verbatimMap) appendMap(m.map, out);
    else appendBounds(m.bounds, m.lines, m.document, out);
  }
  out += "\n    }";
}

}  // namespace gdmap
