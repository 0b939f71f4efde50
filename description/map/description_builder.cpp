#include "description_builder.hpp"
#include "description_keys.hpp"
#include "map_part_pointer.hpp"

#include <gdmap/internal/huge_pages.hpp>
#include <gdmap/internal/plain_hex.hpp>
#include <gdmap/internal/quiet_types.hpp>
#include <gdmap/internal/radix_sort.hpp>
#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/map_description.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/schema/type_text.hpp>
#include <gdmap/writer/type_encoder.hpp>

#include <algorithm>
#include <cstring>
#include <utility>

namespace gdmap::description {
namespace {

// How many dictionaries that name an instantiation wait for its lookup:
// enough for a prefetch to arrive from memory.
constexpr std::size_t kNamedReferencesWaiting = 8;

// The rule an error from the type parser or decoder names, or the umbrella
// rule when it names none.
std::string_view typeRule(const Error& e) {
  return e.rule.empty() ? std::string_view(rules::kInvalidType) : std::string_view(e.rule);
}

// The index in `hex` of the first digit of byte `byteIndex` (white space
// between digits is allowed), so a decode error points at its digit.
std::size_t digitIndexOfByte(std::string_view hex, std::size_t byteIndex) {
  std::size_t digits = 0;
  for (std::size_t i = 0; i < hex.size(); ++i) {
    if (hexDigitValue(hex[i]) < 0) continue;
    if (digits == 2 * byteIndex) return i;
    ++digits;
  }
  return hex.size();
}

// Decimal digits of the largest std::size_t: a bound for an index in a pointer.
constexpr std::size_t kMaxIndexDigits = 20;

// A member of /dictionaries/N, for the checks made after the whole file
// was read (the reader took that member's first occurrence).
class DictionaryMemberSite final : public Site {
 public:
  DictionaryMemberSite(DiagnosticWork& work, std::size_t index, std::string_view member)
      : Site(work), index_(index), member_(member) {}
  std::string buildPointer() const override {
    std::string out = dictionaryPointer(index_);
    out += '/';
    out += member_;
    return out;
  }
  std::size_t pointerBound() const override {
    return std::strlen("/dictionaries/") + kMaxIndexDigits + 1 + member_.size();
  }

 private:
  std::size_t index_;
  std::string_view member_;
};

// /instantiations/NAME, NAME escaped (and "" included: the empty name is a
// key like any other, "/instantiations/").
class NamedSite final : public Site {
 public:
  NamedSite(DiagnosticWork& work, std::string_view name, std::size_t keyEnd = Diagnostic::npos)
      : Site(work), name_(name), keyEnd_(keyEnd) {}
  std::string buildPointer() const override {
    std::string out = "/instantiations/";
    out += escapePointerToken(name_);
    return out;
  }
  // Escaping at most doubles a token.
  std::size_t pointerBound() const override { return std::strlen("/instantiations/") + 2 * name_.size(); }
  std::size_t keyEnd() const override { return keyEnd_; }

 private:
  std::string_view name_;
  std::size_t keyEnd_;
};

// The pointer of a part of the map a description streams into the map
// builder: with no error before the layout, its dictionary i is
// /dictionaries/i.
std::string streamedPartPointer(const MapPart& part) { return mapPartPointer(nullptr, part); }

// A fixed pointer ("/layout/count"), for notes made after the whole file
// was read.
class PointerSite final : public Site {
 public:
  PointerSite(DiagnosticWork& work, std::string pointer) : Site(work), pointer_(std::move(pointer)) {}
  std::string buildPointer() const override { return pointer_; }
  std::size_t pointerBound() const override { return pointer_.size(); }

 private:
  std::string pointer_;
};

}  // namespace

void DescriptionBuilder::setCount(std::uint32_t count, const Site&) {
  layout_.count = count;
  countGiven_ = true;
}

void DescriptionBuilder::noteCount() {
  if (!countGiven_) return;
  const std::size_t n = streaming_ ? map_.size() : dictionaries_.size();
  const std::uint32_t canonical = static_cast<std::uint32_t>(n) | (sorted_ ? 0x80000000u : 0u);
  if (*layout_.count == canonical) return;
  diagnostics_.note(rules::kLayoutOverride, PointerSite(diagnostics_.work(), "/layout/count"), [&] {
    return "the header's count word is " + hex32(*layout_.count) + " (" + std::to_string(*layout_.count & 0x7FFFFFFFu) +
           " entries, bit 31 " + ((*layout_.count & 0x80000000u) ? "set" : "clear") + "); a canonical build writes " +
           hex32(canonical) + " for these " + std::to_string(n) + " dictionaries";
  });
}

void DescriptionBuilder::setDuplicateRvas(bool allowed, const Site&) { layout_.duplicateRvas = allowed; }

void DescriptionBuilder::addFill(std::uint32_t offset, Bytes bytes, const Site& site) {
  diagnostics_.note(rules::kLayoutOverride, site, [&] {
    return std::to_string(bytes.size()) + " fill byte(s) at heap offset " + shortHex(offset) +
           ", part of no dictionary's item";
  });
  layout_.fill.push_back({offset, std::move(bytes)});
}

void DescriptionBuilder::setTrailing(Bytes bytes, const Site& site) {
  if (!bytes.empty())
    diagnostics_.note(rules::kLayoutOverride, site, [&] {
      return std::to_string(bytes.size()) + " trailing byte(s) after the heap's last placed byte";
    });
  layout_.trailing = std::move(bytes);
}

void DescriptionBuilder::setTruncate(std::uint64_t size, const Site& site) {
  diagnostics_.note(rules::kLayoutOverride, site,
                    [&] { return "the file is cut to its first " + std::to_string(size) + " byte(s)"; });
  layout_.truncate = size;
}

std::optional<Bytes> DescriptionBuilder::bytesFromHex(std::string_view hex, const Site& site) {
  Expected<Bytes> bytes = parseHex(hex);
  if (!bytes) {
    const Error& e = bytes.error();
    diagnostics_.error(
        rules::kInvalidHex, site,
        [&] { return "invalid hex: column " + std::to_string(e.offset + 1) + ": " + e.message; }, e.offset);
    return std::nullopt;
  }
  return std::move(bytes).value();
}

void DescriptionBuilder::reserveForText(std::size_t textBytes) {
  // The shortest dictionary, {"rva":0,"raw":"0"} and a comma, takes 20 bytes.
  const std::size_t dictionaries = textBytes / 20;
  rvaKeys_.reserve(dictionaries);
  if (streaming_) map_.reserve(dictionaries, textBytes / 2);
}

bool DescriptionBuilder::beginNamed(std::string_view name, const Site& site, std::size_t keyEnd) {
  if (!names_.add(name)) {
    diagnostics_.error(rules::kDuplicateKey, site,
                       [&] { return "instantiation " + quoteInput(name) + " is defined more than once"; });
    currentNamed_ = SIZE_MAX;
    return false;
  }
  currentNamed_ = names_.size() - 1;
  // A map's build keeps the name in names_ alone; the model lists it too.
  if (!streaming_) named_.push_back({std::string(name), {}, std::nullopt});
  used_.push_back(false);
  keyEnds_.push_back(keyEnd);
  if (streaming_) namedItems_.push_back(MapBuilder::kItemLater);
  return true;
}

void DescriptionBuilder::setInlineTypes(DictionaryFields& dictionary, TypeList& types) {
  if (!streaming_) {
    // Moved into the dictionary, then reset for the next list (a
    // moved-from vector is valid but unspecified).
    dictionary.types.emplace();
    std::swap(*dictionary.types, types);
    return;
  }
  if (!feeding()) return;
  // Kept for addDictionary(), which knows the RVA and whether an offset
  // places the item (the buffers trade places, so neither reallocates).
  std::swap(inlineBytes_, types.encoded);
  inlineCount_ = types.count;
  types.clear();
  dictionary.inlineTypes = true;
}

void DescriptionBuilder::setNamedTypes(TypeList& types) {
  if (currentNamed_ >= names_.size()) return;
  if (!streaming_) {
    named_[currentNamed_].types = std::move(types.types);
    types.clear();
    return;
  }
  if (!feeding()) return;
  Expected<MapBuilder::ItemId> item = map_.internEncoded(types.count, types.encoded);
  types.clear();
  if (item) {
    namedItems_[currentNamed_] = *item;
  } else {
    diagnostics_.error(item.error().rule, NamedSite(diagnostics_.work(), names_.name(currentNamed_)),
                       [&] { return item.error().message; });
  }
}

void DescriptionBuilder::addDictionary(DictionaryFields& fields) {
  // Missing or malformed fields were reported where the JSON reader found
  // them; a dictionary with a valid RVA still takes part in the duplicate
  // check.
  if (!fields.rva) return;
  rvaKeys_.push_back(std::uint64_t{*fields.rva} << 32 | (fields.jsonIndex & 0xFFFFFFFFu));
  if (fields.offsetGiven && !fields.offset) return;  // malformed, and reported
  if (fields.offset) {
    diagnostics_.note(rules::kLayoutOverride,
                      DictionaryMemberSite(diagnostics_.work(), fields.jsonIndex, map_key::kOffset), [&] {
                        return fields.forms == 0 ? "the directory entry points at heap offset " +
                                                       shortHex(*fields.offset) + "; this dictionary writes no item"
                                                 : "the item is placed at heap offset " + shortHex(*fields.offset) +
                                                       " (a canonical build places items itself)";
                      });
    if (fields.forms == 0) {
      if (!streaming_) {
        layout_.offsets.push_back({dictionaries_.size(), *fields.offset});
        dictionaries_.push_back({*fields.rva, kNoInstantiation});
      } else if (feeding()) {
        map_.addOffset(*fields.rva, *fields.offset);
      }
      return;
    }
  }
  if (fields.forms != 1) return;
  if (streaming_) streamDictionary(fields);
  else collectDictionary(fields);
}

// Straight into the map builder; names not yet defined wait as pending.
void DescriptionBuilder::streamDictionary(DictionaryFields& fields) {
  if (!feeding()) {
    // No map any more, but names are still checked (used, defined).
    if (fields.instantiation) {
      if (const std::optional<std::size_t> named = names_.find(*fields.instantiation)) used_[*named] = true;
      else addPending(SIZE_MAX, fields.jsonIndex, *fields.instantiation);
    }
    return;
  }
  Expected<MapBuilder::ItemId> item = MapBuilder::kItemLater;
  if (fields.instantiation && !fields.offset) {
    // Looked up a few dictionaries later, its slot prefetched now.
    const std::string_view name = *fields.instantiation;
    const std::uint64_t hash = NameIndex::hashOf(name);
    names_.prefetch(hash);
    namedWaiting_.push({map_.size(), fields.jsonIndex, hash}, name);
    map_.addItem(*fields.rva, MapBuilder::kItemLater);
    if (namedWaiting_.size() > kNamedReferencesWaiting) resolveNamedReference();
    return;
  }
  if (fields.instantiation) {
    if (const std::optional<std::size_t> named = names_.find(*fields.instantiation)) {
      item = namedItems_[*named];
      used_[*named] = true;
    } else {
      addPending(map_.size(), fields.jsonIndex, *fields.instantiation);
    }
  } else if (fields.inlineTypes) {
    if (!fields.offset) {
      // The common case: MapBuilder stages the item (it commits it a few
      // dictionaries later, its table slot prefetched).
      if (Status added = map_.addEncoded(*fields.rva, inlineCount_, inlineBytes_); !added)
        diagnostics_.error(added.error().rule,
                           DictionaryMemberSite(diagnostics_.work(), fields.jsonIndex, map_key::kTypes),
                           [&] { return added.error().message; });
      return;
    }
    item = map_.internEncoded(inlineCount_, inlineBytes_);
  } else if (fields.raw) {
    item = map_.internRaw(*fields.raw);
  } else {
    return;  // the form's value was malformed, and reported
  }
  if (!item) {
    diagnostics_.error(item.error().rule, DictionaryMemberSite(diagnostics_.work(), fields.jsonIndex, map_key::kTypes),
                       [&] { return item.error().message; });
    return;
  }
  if (fields.offset) map_.addItemAt(*fields.rva, *item, *fields.offset);
  else map_.addItem(*fields.rva, *item);
}

void DescriptionBuilder::resolveNamedReference() {
  // Halfway up the queue, the name the slot points to is asked for too.
  if (namedWaiting_.size() > kNamedReferencesWaiting / 2)
    names_.prefetchName(namedWaiting_.at(kNamedReferencesWaiting / 2).hash);
  const NamedReference& r = namedWaiting_.at(0);
  const std::span<const char> bytes = namedWaiting_.bytesAt(0);
  const std::string_view name(bytes.data(), bytes.size());
  if (const std::optional<std::size_t> named = names_.find(name, r.hash)) {
    used_[*named] = true;
    if (feeding()) map_.setItem(r.dictionary, namedItems_[*named]);
  } else {
    addPending(feeding() ? r.dictionary : SIZE_MAX, r.jsonIndex, name);
  }
  namedWaiting_.pop();
}

void DescriptionBuilder::endDictionaries() {
  while (!namedWaiting_.empty()) resolveNamedReference();
}

// Kept as a DictionaryDescription, for a build that needs the whole
// description first.
void DescriptionBuilder::collectDictionary(DictionaryFields& fields) {
  DictionaryDescription d;
  d.rva = *fields.rva;
  if (fields.offset) layout_.offsets.push_back({dictionaries_.size(), *fields.offset});
  if (fields.instantiation) {
    if (const std::optional<std::size_t> named = names_.find(*fields.instantiation)) {
      d.instantiation = *named;
      used_[*named] = true;
    } else {
      // Perhaps /instantiations comes after /dictionaries: decide at the end.
      addPending(dictionaries_.size(), fields.jsonIndex, *fields.instantiation);
    }
  } else if (fields.types) {
    d.instantiation = unnamed_.size() | kUnnamedFlag;
    unnamed_.push_back({{}, std::move(fields.types->types), std::nullopt});
  } else if (fields.raw) {
    d.instantiation = unnamed_.size() | kUnnamedFlag;
    unnamed_.push_back({{}, {}, std::move(*fields.raw)});
  } else {
    return;  // the form's value was malformed, and reported
  }
  dictionaries_.push_back(d);
}

bool DescriptionBuilder::addTypeText(TypeList& list, std::string_view text, const Site& site) {
  if (streaming_) {
    if (!appendEncodedText(list, text, site)) return false;
  } else {
    std::optional<Type> type = typeFromText(text, site);
    if (!type) return false;
    list.types.push_back(std::move(*type));
  }
  ++list.count;
  return true;
}

bool DescriptionBuilder::addTypeHex(TypeList& list, std::string_view hex, const Site& site) {
  if (streaming_) {
    if (!appendEncodedHex(list, hex, site)) return false;
  } else {
    std::optional<Type> type = typeFromHex(hex, site);
    if (!type) return false;
    list.types.push_back(std::move(*type));
  }
  ++list.count;
  return true;
}

namespace {

// The canonical bytes of a valid type, cached under its spelling: each
// distinct type is parsed or decoded, and encoded, once. Past the cache's
// size a type is encoded every time, into `scratch`.
template <typename Decode>
std::optional<ByteSpan> cachedEncoding(TypeBytesCache& cache, Bytes& scratch, std::string_view spelling,
                                       Decode&& decode) {
  if (std::optional<ByteSpan> cached = cache.find(spelling)) return cached;
  std::optional<Type> type = decode();
  if (!type) return std::nullopt;
  scratch.clear();
  // A type the parser or decoder accepted always encodes (both enforce
  // the encoder's limits).
  if (!encodeType(*type, scratch)) return std::nullopt;
  cache.insert(spelling, scratch);
  return ByteSpan(scratch);
}

}  // namespace

bool DescriptionBuilder::appendEncodedText(TypeList& list, std::string_view text, const Site& site) {
  const std::optional<ByteSpan> bytes =
      cachedEncoding(textBytes_, scratch_, text, [&] { return typeFromText(text, site); });
  if (!bytes) return false;
  list.encoded.insert(list.encoded.end(), bytes->begin(), bytes->end());
  return true;
}

bool DescriptionBuilder::appendEncodedHex(TypeList& list, std::string_view hex, const Site& site) {
  // A real description's hex types are mostly distinct, so a cache of them
  // costs a probe and a compare of the spelling per type and rarely saves
  // anything. Instead the digits are decoded straight onto the list, and
  // a quiet type (gdmap/internal/quiet_types.hpp: it decodes with nothing to
  // say and encodes back to itself) is done, with one flat pass; only the
  // others are decoded, reported and re-encoded, through the cache.
  const std::size_t start = list.encoded.size();
  if (detail::appendPlainHex(hex, list.encoded)) {
    if (detail::isQuietTypeList(ByteSpan(list.encoded).subspan(start), 0, 1)) return true;
    list.encoded.resize(start);
  }
  const std::optional<ByteSpan> bytes =
      cachedEncoding(hexBytes_, scratch_, hex, [&] { return typeFromHex(hex, site); });
  if (!bytes) return false;
  list.encoded.insert(list.encoded.end(), bytes->begin(), bytes->end());
  return true;
}

std::optional<Type> DescriptionBuilder::typeFromText(std::string_view text, const Site& site) {
  if (!streaming_)
    if (const auto it = textTypes_.find(std::string(text)); it != textTypes_.end()) return it->second;
  Expected<Type> parsed = typeNames_ != nullptr ? parseType(text, *typeNames_) : parseType(text);
  if (!parsed) {
    const Error& e = parsed.error();
    diagnostics_.error(
        typeRule(e), site,
        [&] {
          return "invalid type " + quoteInput(text) + ": column " + std::to_string(e.offset + 1) +
                 " of the type: " + e.message;
        },
        e.offset);
    return std::nullopt;
  }
  if (!streaming_ && textTypes_.size() < kTypeCacheLimit) textTypes_.emplace(std::string(text), *parsed);
  return std::move(parsed).value();
}

std::optional<Type> DescriptionBuilder::typeFromHex(std::string_view hex, const Site& site) {
  if (!streaming_)
    if (const auto it = hexTypes_.find(std::string(hex)); it != hexTypes_.end()) return it->second;
  const std::optional<Bytes> bytes = bytesFromHex(hex, site);
  if (!bytes) return std::nullopt;
  // Empty bytes too: the decoder says a type was expected at byte 0.
  TypeDecodeNotes notes;
  Expected<Type> decoded = decodeTypeBlob(*bytes, &notes);
  if (!decoded) {
    const Error& e = decoded.error();
    diagnostics_.error(
        typeRule(e), site,
        [&] {
          return "invalid type signature " + quoteInput(hex) + ": byte " + std::to_string(e.offset) + ": " + e.message;
        },
        digitIndexOfByte(hex, e.offset));
    return std::nullopt;
  }
  if (notes.nonMinimalIntegers > 0 && warnedHex_.insert(std::string(hex)).second) {
    diagnostics_.warning(rules::kNonMinimalInteger, site, [&] {
      return "type " + quoteInput(hex) + " has " + std::to_string(notes.nonMinimalIntegers) +
             " compressed integer(s) not in their shortest form (the first at byte " +
             std::to_string(notes.firstNonMinimalOffset) +
             "): the map gets them re-encoded in the shortest form; use \"raw\" to keep the bytes verbatim";
    });
  }
  if (!streaming_ && hexTypes_.size() < kTypeCacheLimit) hexTypes_.emplace(std::string(hex), *decoded);
  return std::move(decoded).value();
}

std::optional<Bytes> DescriptionBuilder::rawFromHex(std::string_view hex, const Site& site) {
  std::optional<Bytes> bytes = bytesFromHex(hex, site);
  if (!bytes) return std::nullopt;
  if (bytes->empty()) {
    // A heap item is at least its length prefix; an empty one would sit at
    // the same offset as the next item and be read as that one.
    diagnostics_.error(rules::kEmptyRawItem, site, [] {
      return std::string(
          "a raw item needs at least one byte, its length prefix: an empty one would share its heap "
          "offset with the next item and silently take its content");
    });
    return std::nullopt;
  }
  return bytes;
}

std::optional<std::uint32_t> DescriptionBuilder::rvaFromString(std::string_view text, const Site& site) {
  // Exactly the JSON Schema's pattern: ^0[xX][0-9a-fA-F]{1,8}$.
  const std::optional<std::uint32_t> value = parsePrefixedHex32(text);
  if (!value) {
    diagnostics_.error(rules::kInvalidRva, site, [&] {
      return "invalid RVA " + quoteInput(text) + ": expected \"0x\" and 1 to 8 hex digits, or an integer";
    });
    return std::nullopt;
  }
  return value;
}

void DescriptionBuilder::addPending(std::size_t dictionary, std::size_t jsonIndex, std::string_view name) {
  pendingNames_.push_back({dictionary, jsonIndex, pendingNameText_.size(), name.size()});
  pendingNameText_ += name;
}

void DescriptionBuilder::resolvePendingNames() {
  for (const PendingName& p : pendingNames_) {
    const std::string_view name = std::string_view(pendingNameText_).substr(p.nameOffset, p.nameLength);
    const std::optional<std::size_t> named = names_.find(name);
    if (!named) {
      diagnostics_.error(
          rules::kUndefinedInstantiation,
          DictionaryMemberSite(diagnostics_.work(), p.jsonIndex, map_key::kInstantiation),
          [&] { return "instantiation " + quoteInput(std::string(name)) + " is not defined in /instantiations"; });
      continue;
    }
    used_[*named] = true;
    if (!streaming_) dictionaries_[p.dictionary].instantiation = *named;
    else if (feeding()) map_.setItem(p.dictionary, namedItems_[*named]);
  }
  pendingNameText_ = {};
  pendingNames_.clear();
}

void DescriptionBuilder::reportDuplicateRvas() {
  // Sorting (rva, index) pairs puts each RVA's dictionaries together, the
  // first in the file first.
  radixSortByHigh32(rvaKeys_);  // pushed in file order: now by (rva, index)
  for (std::size_t i = 1, first = 0; i < rvaKeys_.size(); ++i) {
    if (rvaKeys_[i] >> 32 != rvaKeys_[first] >> 32) {
      first = i;
      continue;
    }
    const auto rva = static_cast<std::uint32_t>(rvaKeys_[i] >> 32);
    const std::size_t firstIndex = rvaKeys_[first] & 0xFFFFFFFFu;
    if (layout_.duplicateRvas) {
      diagnostics_.note(rules::kLayoutOverride,
                        DictionaryMemberSite(diagnostics_.work(), rvaKeys_[i] & 0xFFFFFFFFu, map_key::kRva), [&] {
                          return "duplicate RVA " + hex32(rva) + " (" + dictionaryPointer(firstIndex) +
                                 "/rva has it too), written as given: /layout/duplicateRvas is true";
                        });
      continue;
    }
    diagnostics_.error(
        rules::kDuplicateRva, DictionaryMemberSite(diagnostics_.work(), rvaKeys_[i] & 0xFFFFFFFFu, map_key::kRva),
        [&] { return "duplicate RVA " + hex32(rva) + ": " + dictionaryPointer(firstIndex) + "/rva has it too"; });
  }
  rvaKeys_ = {};
}

void DescriptionBuilder::reportUnusedNames() {
  for (std::size_t i = 0; i < used_.size(); ++i) {
    if (used_[i]) continue;
    // From the name itself, not instantiationPointer(): the name "" is a
    // key of /instantiations too, which a MapDescription cannot tell from
    // an unnamed instantiation.
    const std::string_view name = names_.name(i);
    diagnostics_.warning(rules::kUnusedInstantiation, NamedSite(diagnostics_.work(), name, keyEnds_[i]),
                         [&] { return "instantiation " + quoteInput(name) + " is not used by any dictionary"; });
  }
}

std::optional<Bytes> DescriptionBuilder::finishMap() {
  endDictionaries();
  resolvePendingNames();
  // What only reading needed goes before the layout's own tables come.
  textBytes_ = TypeBytesCache(0);
  hexBytes_ = TypeBytesCache(0);
  namedItems_ = {};
  if (diagnostics_.errorCount() == 0 && !layout_.any()) {
    // The usual description: no problem so far, no override. The layout
    // sorts the RVAs itself and refuses a repeat, so the description's
    // own pass over them (reportDuplicateRvas(), a second sort of as many
    // keys) runs only when the layout fails; the diagnostics are then
    // made in the order below, as if it had run first.
    map_.setSorted(sorted_);
    Expected<Bytes> map = map_.finish(streamedPartPointer);
    if (!map) reportDuplicateRvas();
    noteCount();
    reportUnusedNames();
    if (map) return std::move(map).value();
    if (diagnostics_.errorCount() == 0) reportMapError(map.error());
    return std::nullopt;
  }
  reportDuplicateRvas();
  noteCount();
  reportUnusedNames();
  if (diagnostics_.errorCount() != 0) return std::nullopt;
  names_ = {};
  named_ = {};
  used_ = {};
  keyEnds_ = {};
  map_.setSorted(sorted_);
  if (layout_.any()) map_.setLayout(std::move(layout_));
  // With no error, dictionary i of the builder is /dictionaries/i.
  Expected<Bytes> map = map_.finish(streamedPartPointer);
  if (!map) {
    reportMapError(map.error());
    return std::nullopt;
  }
  return std::move(map).value();
}

void DescriptionBuilder::reportMapError(const Error& error) {
  // The writer names the part of its input an error is about; limits of
  // the whole map (too-many-dictionaries, heap-too-large) have no one place.
  const std::string pointer = streamedPartPointer(mapPartOf(error));
  if (pointer.empty()) diagnostics_.errorAt(error.rule, Diagnostic::npos, error.message);
  else diagnostics_.error(error.rule, PointerSite(diagnostics_.work(), pointer), [&] { return error.message; });
}

std::optional<MapDescription> DescriptionBuilder::finish() {
  resolvePendingNames();
  reportDuplicateRvas();
  noteCount();

  // Named instantiations first, in file order, then the inline ones in
  // dictionary order: the same result whichever of /instantiations and
  // /dictionaries comes first in the file.
  MapDescription out;
  out.sorted = sorted_;
  out.layout = std::move(layout_);
  const std::size_t namedCount = named_.size();
  out.instantiations = std::move(named_);
  named_ = {};
  out.instantiations.reserve(namedCount + unnamed_.size());
  for (InstantiationDescription& u : unnamed_) out.instantiations.push_back(std::move(u));
  unnamed_ = {};
  out.dictionaries = std::move(dictionaries_);
  dictionaries_ = {};
  for (DictionaryDescription& d : out.dictionaries) {
    if (d.instantiation != kNoInstantiation && (d.instantiation & kUnnamedFlag))
      d.instantiation = (d.instantiation & ~kUnnamedFlag) + namedCount;
  }

  reportUnusedNames();
  if (diagnostics_.errorCount() != 0) return std::nullopt;
  return out;
}

}  // namespace gdmap::description
