#include "description_builder.hpp"

#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/map_description.hpp>
#include <gdmap/schema/type_text.hpp>

#include <algorithm>
#include <utility>

namespace gdmap::description {
namespace {

std::string quoted(const std::string& s) { return '"' + s + '"'; }

// The index in `hex` of the first digit of byte `byteIndex` (white space
// between digits is allowed), so a decode error points at its digit.
std::size_t digitIndexOfByte(const std::string& hex, std::size_t byteIndex) {
  std::size_t digits = 0;
  for (std::size_t i = 0; i < hex.size(); ++i) {
    const char c = hex[i];
    const bool isDigit = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    if (!isDigit) continue;
    if (digits == 2 * byteIndex) return i;
    ++digits;
  }
  return hex.size();
}

}  // namespace

bool DescriptionBuilder::beginNamed(const std::string& name, const std::string& pointer) {
  if (names_.contains(name)) {
    diagnostics_.error("duplicate-key", pointer, "instantiation " + quoted(name) + " is defined more than once");
    currentNamed_ = SIZE_MAX;
    return false;
  }
  currentNamed_ = named_.size();
  names_.emplace(name, currentNamed_);
  named_.push_back({name, {}, std::nullopt});
  used_.push_back(false);
  return true;
}

void DescriptionBuilder::setNamedTypes(std::vector<Type> types) {
  if (currentNamed_ < named_.size()) named_[currentNamed_].types = std::move(types);
}

void DescriptionBuilder::addDictionary(DictionaryFields fields) {
  // Missing or malformed fields were reported where the JSON reader found
  // them; a dictionary with a valid RVA still takes part in the duplicate
  // check.
  if (!fields.rva) return;
  rvaKeys_.push_back(std::uint64_t{*fields.rva} << 32 | (fields.jsonIndex & 0xFFFFFFFFu));
  if (fields.forms != 1) return;

  DictionaryDescription d;
  d.rva = *fields.rva;
  if (fields.instantiation) {
    const auto it = names_.find(*fields.instantiation);
    if (it != names_.end()) {
      d.instantiation = it->second;
      used_[it->second] = true;
    } else {
      // Perhaps /instantiations comes after /dictionaries: decide at the end.
      pendingNames_.push_back({dictionaries_.size(), fields.jsonIndex, std::move(*fields.instantiation)});
    }
  } else if (fields.types) {
    d.instantiation = unnamed_.size() | kUnnamedFlag;
    unnamed_.push_back({{}, std::move(*fields.types), std::nullopt});
  } else if (fields.raw) {
    d.instantiation = unnamed_.size() | kUnnamedFlag;
    unnamed_.push_back({{}, {}, std::move(*fields.raw)});
  } else {
    return;  // the form's value was malformed, and reported
  }
  dictionaries_.push_back(std::move(d));
}

std::optional<Type> DescriptionBuilder::typeFromText(const std::string& text, const PointerFn& pointer) {
  if (const auto it = textTypes_.find(text); it != textTypes_.end()) return it->second;
  Expected<Type> parsed = parseType(text);
  if (!parsed) {
    const Error& e = parsed.error();
    diagnostics_.error("invalid-type", pointer(),
                       "invalid type " + quoted(text) + ": column " + std::to_string(e.offset + 1) + " of the type: " +
                           e.message,
                       e.offset);
    return std::nullopt;
  }
  if (textTypes_.size() < kTypeCacheLimit) textTypes_.emplace(text, *parsed);
  return std::move(parsed).value();
}

std::optional<Type> DescriptionBuilder::typeFromHex(const std::string& hex, const PointerFn& pointer) {
  if (const auto it = hexTypes_.find(hex); it != hexTypes_.end()) return it->second;
  const Expected<Bytes> bytes = parseHex(hex);
  if (!bytes) {
    diagnostics_.error("invalid-hex", pointer(),
                       "invalid hex: column " + std::to_string(bytes.error().offset + 1) + ": " + bytes.error().message,
                       bytes.error().offset);
    return std::nullopt;
  }
  if (bytes->empty()) {
    diagnostics_.error("invalid-type", pointer(), "a type needs at least one byte", 0);
    return std::nullopt;
  }
  Expected<Type> decoded = decodeTypeBlob(*bytes);
  if (!decoded) {
    const Error& e = decoded.error();
    diagnostics_.error("invalid-type", pointer(),
                       "invalid type signature " + quoted(hex) + ": byte " + std::to_string(e.offset) + ": " + e.message,
                       digitIndexOfByte(hex, e.offset));
    return std::nullopt;
  }
  if (hexTypes_.size() < kTypeCacheLimit) hexTypes_.emplace(hex, *decoded);
  return std::move(decoded).value();
}

std::optional<Bytes> DescriptionBuilder::rawFromHex(const std::string& hex, const PointerFn& pointer) {
  Expected<Bytes> bytes = parseHex(hex);
  if (!bytes) {
    diagnostics_.error("invalid-hex", pointer(),
                       "invalid hex: column " + std::to_string(bytes.error().offset + 1) + ": " + bytes.error().message,
                       bytes.error().offset);
    return std::nullopt;
  }
  return std::move(bytes).value();
}

std::optional<std::uint32_t> DescriptionBuilder::rvaFromString(const std::string& text, const PointerFn& pointer) {
  // Exactly the JSON Schema's pattern: ^0[xX][0-9a-fA-F]{1,8}$.
  const bool prefixed = text.size() >= 3 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  std::uint32_t value = 0;
  bool ok = prefixed && text.size() <= 10;
  for (std::size_t i = 2; ok && i < text.size(); ++i) {
    const char c = text[i];
    std::uint32_t digit = 0;
    if (c >= '0' && c <= '9') digit = static_cast<std::uint32_t>(c - '0');
    else if (c >= 'a' && c <= 'f') digit = static_cast<std::uint32_t>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') digit = static_cast<std::uint32_t>(c - 'A' + 10);
    else ok = false;
    value = value << 4 | digit;
  }
  if (!ok) {
    diagnostics_.error("invalid-rva", pointer(),
                       "invalid RVA " + quoted(text) + ": expected \"0x\" and 1 to 8 hex digits, or an integer");
    return std::nullopt;
  }
  return value;
}

void DescriptionBuilder::resolvePendingNames() {
  for (PendingName& p : pendingNames_) {
    const auto it = names_.find(p.name);
    if (it == names_.end()) {
      diagnostics_.error("undefined-instantiation", dictionaryPointer(p.jsonIndex) + "/instantiation",
                         "instantiation " + quoted(p.name) + " is not defined in /instantiations");
      continue;
    }
    dictionaries_[p.dictionary].instantiation = it->second;
    used_[it->second] = true;
  }
  pendingNames_.clear();
}

void DescriptionBuilder::reportDuplicateRvas() {
  // Sorting (rva, index) pairs puts each RVA's dictionaries together, the
  // first in the file first.
  std::sort(rvaKeys_.begin(), rvaKeys_.end());
  for (std::size_t i = 1, first = 0; i < rvaKeys_.size(); ++i) {
    if (rvaKeys_[i] >> 32 != rvaKeys_[first] >> 32) {
      first = i;
      continue;
    }
    const auto rva = static_cast<std::uint32_t>(rvaKeys_[i] >> 32);
    diagnostics_.error("duplicate-rva", dictionaryPointer(rvaKeys_[i] & 0xFFFFFFFFu) + "/rva",
                       "duplicate RVA " + hex32(rva) + ": " + dictionaryPointer(rvaKeys_[first] & 0xFFFFFFFFu) +
                           "/rva has it too");
  }
  rvaKeys_ = {};
}

std::optional<MapDescription> DescriptionBuilder::finish() {
  resolvePendingNames();
  reportDuplicateRvas();

  // Named instantiations first, in file order, then the inline ones in
  // dictionary order: the same result whichever of /instantiations and
  // /dictionaries comes first in the file. Assembled before the errors are
  // counted so that the unused-name warnings can take their pointers from it.
  MapDescription out;
  out.sorted = sorted_;
  const std::size_t namedCount = named_.size();
  out.instantiations = std::move(named_);
  named_ = {};
  out.instantiations.reserve(namedCount + unnamed_.size());
  for (InstantiationDescription& u : unnamed_) out.instantiations.push_back(std::move(u));
  unnamed_ = {};
  out.dictionaries = std::move(dictionaries_);
  dictionaries_ = {};
  for (DictionaryDescription& d : out.dictionaries) {
    if (d.instantiation & kUnnamedFlag) d.instantiation = (d.instantiation & ~kUnnamedFlag) + namedCount;
  }

  for (std::size_t i = 0; i < namedCount; ++i) {
    if (!used_[i]) {
      // A named instantiation's pointer is "/instantiations/<escaped name>",
      // the same the JSON reader built for its definition.
      diagnostics_.warning("unused-instantiation", instantiationPointer(out, i),
                           "instantiation " + quoted(out.instantiations[i].name) + " is not used by any dictionary");
    }
  }
  if (diagnostics_.errorCount() != 0) return std::nullopt;
  return out;
}

}  // namespace gdmap::description
