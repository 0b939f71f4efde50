// Reads a description with nlohmann's SAX interface rather than its DOM: a
// description may hold millions of dictionaries, and a DOM would hold them
// all (a few hundred bytes each) before the first is looked at. Here each
// value goes straight to the DescriptionBuilder, and the only state is one
// frame per open JSON container (the format nests six deep at most; deeper
// unexpected values are skipped with a frame each, no recursion).
#include <gdmap/description/description_json.hpp>

#include <gdmap/internal/description_diagnostics.hpp>
#include <gdmap/internal/json_sax.hpp>
#include <gdmap/internal/sax_reader.hpp>
#include "description_builder.hpp"
#include "description_keys.hpp"
#include "description_parse.hpp"
#include "map_read_back.hpp"

#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gdmap {
namespace {

using json = nlohmann::json;
using description::DescriptionBuilder;
using description::DiagnosticList;
using description::DictionaryFields;

// What the value at the current position must be.
enum class Expect : std::uint8_t {
  Root,            // the description object
  Schema,          // /$schema: a string, ignored
  Sorted,          // /sorted: a boolean
  Instantiations,  // /instantiations: an object of named type lists
  NamedTypes,      // /instantiations/NAME: a type list
  Dictionaries,    // /dictionaries: an array of dictionaries
  Dictionary,      // /dictionaries/N: an object
  Rva,             // an integer or a "0x..." string
  InstantiationName,
  InlineTypes,    // /dictionaries/N/types: a type list
  Raw,            // a hex string
  TypeItem,       // ILAsm text or {"hex": ...}
  Hex,            // /.../types/K/hex
  Offset,         // /dictionaries/N/offset, /layout/fill/K/offset: a u32
  Layout,         // /layout: an object of overrides
  Count,          // /layout/count: a u32
  DuplicateRvas,  // /layout/duplicateRvas: a boolean
  Fill,           // /layout/fill: an array of pieces
  FillPiece,      // /layout/fill/K: {offset, raw}
  FillRaw,        // /layout/fill/K/raw: hex
  Trailing,       // /layout/trailing: hex
  Truncate,       // /layout/truncate: a byte count
  Anything,       // the value of an unknown key, or inside a wrong value: skipped
};

using description::KeyedObject;
using description::KeyListing;
using description::KeyUse;
namespace map_key = description::map_key;

// The format's keys (docs/description.md), a dictionary's first: they are
// looked up for every dictionary.
constexpr description::KeyTable<Expect, 18> kDescriptionKeys{{
    {map_key::kRva, Expect::Dictionary, Expect::Rva, KeyUse::Required, {}, "a dictionary needs an "},
    {map_key::kInstantiation, Expect::Dictionary, Expect::InstantiationName, KeyUse::Form},
    {map_key::kTypes, Expect::Dictionary, Expect::InlineTypes, KeyUse::Form},
    {map_key::kRaw, Expect::Dictionary, Expect::Raw, KeyUse::Form},
    {map_key::kOffset, Expect::Dictionary, Expect::Offset},
    {map_key::kSchema, Expect::Root, Expect::Schema, KeyUse::Unlisted},
    {map_key::kSorted, Expect::Root, Expect::Sorted},
    {map_key::kInstantiations, Expect::Root, Expect::Instantiations},
    {map_key::kDictionaries,
     Expect::Root,
     Expect::Dictionaries,
     KeyUse::Required,
     {},
     "the description has no ",
     " array"},
    {map_key::kLayout, Expect::Root, Expect::Layout},
    {map_key::kHex, Expect::TypeItem, Expect::Hex},
    {map_key::kCount, Expect::Layout, Expect::Count},
    {map_key::kDuplicateRvas, Expect::Layout, Expect::DuplicateRvas},
    {map_key::kFill, Expect::Layout, Expect::Fill},
    {map_key::kTrailing, Expect::Layout, Expect::Trailing},
    {map_key::kTruncate, Expect::Layout, Expect::Truncate},
    {map_key::kOffset, Expect::FillPiece, Expect::Offset, KeyUse::Required, {}, "a fill piece needs an "},
    {map_key::kRaw, Expect::FillPiece, Expect::FillRaw, KeyUse::Required, {}, "a fill piece needs ", " bytes"},
}};

constexpr std::array<KeyedObject<Expect>, 5> kDescriptionObjects{{
    {Expect::Root, "the description", KeyListing::None},
    {Expect::Dictionary, "a dictionary"},
    {Expect::Layout, "/layout"},
    {Expect::FillPiece, "a fill piece", KeyListing::And},
    {Expect::TypeItem, "a type", KeyListing::Only},
}};

[[gnu::noinline, gnu::cold]] std::string keysOf(Expect object, KeyUse use, std::string_view last) {
  return description::keyList(kDescriptionKeys, description::keyMask(kDescriptionKeys, object, use), last);
}

[[gnu::noinline, gnu::cold]] std::string describe(Expect e) {
  switch (e) {
    case Expect::Root: return "an object (the description)";
    case Expect::Schema: return "a string (the JSON Schema's URI)";
    case Expect::Sorted: return "true or false";
    case Expect::Instantiations: return "an object mapping names to lists of types";
    case Expect::NamedTypes:
    case Expect::InlineTypes: return "a non-empty array of types";
    case Expect::Dictionaries: return "an array of dictionaries";
    case Expect::Dictionary:
      return "an object with " + keysOf(e, KeyUse::Required, " and ") + " and one of " +
             keysOf(e, KeyUse::Form, " or ");
    case Expect::Rva: return "an integer or a \"0x...\" hex string";
    case Expect::InstantiationName: return "a string (a name from /instantiations)";
    case Expect::Raw:
    case Expect::Hex: return "a string of hex digits";
    case Expect::TypeItem: return "a type: ILAsm text or {\"hex\": \"...\"}";
    case Expect::Offset:
    case Expect::Count: return "an integer below 2^32 or a \"0x...\" hex string";
    case Expect::Truncate: return "an integer or a \"0x...\" hex string (a byte count)";
    case Expect::Layout: return "an object of overrides (" + keysOf(e, KeyUse::Optional, ", ") + ")";
    case Expect::DuplicateRvas: return "true or false";
    case Expect::Fill: return "an array of {\"offset\": ..., \"raw\": \"...\"} pieces";
    case Expect::FillPiece: return "an object with " + keysOf(e, KeyUse::Required, " and ");
    case Expect::FillRaw:
    case Expect::Trailing: return "a string of hex digits";
    case Expect::Anything: break;
  }
  return "anything";
}

// Values that are numbers of the layout: an integer or a "0x..." string.
bool isLayoutNumber(Expect e) { return e == Expect::Offset || e == Expect::Count || e == Expect::Truncate; }

using Frame = description::JsonFrame<Expect>;

class DescriptionReader : public description::SaxReader<DescriptionReader, Expect> {
 public:
  static constexpr const auto& kKeys = kDescriptionKeys;
  static constexpr const auto& kKeyedObjects = kDescriptionObjects;

  DescriptionReader(DiagnosticList& diagnostics, DescriptionBuilder& builder)
      : SaxReader(diagnostics), builder_(builder) {}

  // nlohmann's SAX interface (null, binary and parse_error: SaxReader's).
  bool boolean(bool value) {
    if (expected() == Expect::Sorted) {
      builder_.setSorted(value);
      return done();
    }
    if (expected() == Expect::DuplicateRvas) {
      builder_.setDuplicateRvas(value, site_);
      return done();
    }
    return scalar("a boolean");
  }
  bool number_integer(json::number_integer_t value) {
    // The parser uses this only for negative numbers.
    if (expected() == Expect::Rva) {
      error(rules::kInvalidRva, [&] { return "RVA " + std::to_string(value) + " is negative"; });
      return done();
    }
    if (isLayoutNumber(expected())) {
      layoutNumberInvalid(std::to_string(value) + " is negative");
      return done();
    }
    return scalar("a number");
  }
  bool number_unsigned(json::number_unsigned_t value) {
    if (expected() == Expect::Rva) {
      if (value > 0xFFFFFFFFu) {
        error(rules::kInvalidRva, [&] { return "RVA " + std::to_string(value) + " does not fit in 32 bits"; });
      } else {
        dictionary_.rva = static_cast<std::uint32_t>(value);
      }
      return done();
    }
    if (isLayoutNumber(expected())) {
      layoutNumber(value);
      return done();
    }
    return scalar("a number");
  }
  bool number_float(json::number_float_t, const json::string_t& text) {
    if (expected() == Expect::Rva) {
      // Integers too large for 64 bits arrive here too.
      error(rules::kInvalidRva, [&] { return "RVA " + quoteInput(text) + " is not an integer below 2^32"; });
      return done();
    }
    if (isLayoutNumber(expected())) {
      layoutNumberInvalid(quoteInput(text) + " is not an integer below 2^32");
      return done();
    }
    return scalar("a number");
  }
  // Plain text's strings arrive as views of the text (plain_json_sax.hpp),
  // nlohmann's as its buffer: either way nothing is copied that is not
  // kept.
  bool string(json::string_t& value) { return string(std::string_view(value)); }
  bool string(std::string_view value) {
    switch (expected()) {
      case Expect::Schema: break;
      case Expect::Rva: dictionary_.rva = builder_.rvaFromString(value, site_); break;
      case Expect::InstantiationName:
        // Copied into a string that keeps its capacity: the parser's
        // keeps its own, so no value costs an allocation.
        instantiationName_.assign(value);
        dictionary_.instantiation = instantiationName_;
        break;
      case Expect::Raw: dictionary_.raw = builder_.rawFromHex(value, site_); break;
      case Expect::Hex:
        // At once: the site is this member (/.../types/K/hex), and a
        // repeated "hex" is skipped as a duplicate key, so this value is
        // the type.
        typesOk_ &= builder_.addTypeHex(types_, value, site_);
        hexGiven_ = true;
        break;
      case Expect::TypeItem: typesOk_ &= builder_.addTypeText(types_, value, site_); break;
      case Expect::Offset:
      case Expect::Count:
      case Expect::Truncate:
      case Expect::FillRaw:
      case Expect::Trailing: layoutString(value); break;
      default: return scalar("a string");
    }
    return done();
  }

  bool start_object(std::size_t) {
    const Expect e = expected();
    switch (e) {
      case Expect::Root:
      case Expect::Instantiations:
      case Expect::Layout: break;
      case Expect::FillPiece:
        fillOffset_.reset();
        fillBytes_.reset();
        break;
      case Expect::Dictionary: dictionary_.reset(frames_.back().index); break;
      case Expect::TypeItem: hexGiven_ = false; break;
      default:
        wrongType(e, "an object");
        pushFrame(Expect::Anything, true);
        return true;
    }
    pushFrame(e, true);
    return true;
  }

  bool key(json::string_t& k) { return key(std::string_view(k)); }
  bool key(std::string_view k) {
    Frame& f = nextMember();
    if (f.role == Expect::Anything) return true;  // inside a skipped value
    if (f.role == Expect::Instantiations) {
      f.setKey(k);  // a copy: both strings keep their capacity
      f.expect = Expect::NamedTypes;
      // The parser has just read the name's closing quote.
      if (!builder_.beginNamed(f.key, site_, static_cast<std::size_t>(readTo - textBegin))) f.expect = Expect::Anything;
      return true;
    }
    if (readKey(k)) ++dictionary_.forms;
    return true;
  }

  bool end_object() {
    const ClosedObject f = closeObject();
    switch (f.role) {
      case Expect::Dictionary:
        endDictionary(f);
        progressed();
        break;
      case Expect::TypeItem: endHexType(); break;
      case Expect::FillPiece: endFillPiece(); break;
      default: break;
    }
    return done();
  }

  bool start_array(std::size_t) {
    const Expect e = expected();
    switch (e) {
      case Expect::Dictionaries:
      case Expect::Fill: break;
      case Expect::NamedTypes:
      case Expect::InlineTypes:
        types_.clear();
        typesOk_ = true;
        break;
      default:
        wrongType(e, "an array");
        pushFrame(Expect::Anything, false);
        return true;
    }
    pushFrame(e, false,
              e == Expect::Dictionaries ? Expect::Dictionary
              : e == Expect::Fill       ? Expect::FillPiece
                                        : Expect::TypeItem);
    return true;
  }

  bool end_array() {
    const Expect role = frames_.back().role;
    const std::size_t elements = frames_.back().index;
    frames_.pop_back();
    if (role == Expect::Dictionaries) builder_.endDictionaries();
    if (role == Expect::NamedTypes || role == Expect::InlineTypes) {
      if (elements == 0) {
        error(rules::kEmptyTypes, [] { return std::string("a list of types needs at least one type"); });
        typesOk_ = false;
      }
      if (role == Expect::NamedTypes) {
        if (typesOk_) builder_.setNamedTypes(types_);
        progressed();  // /instantiations may be most of a file
      } else if (typesOk_) {
        builder_.setInlineTypes(dictionary_, types_);
      }
      types_.clear();
    }
    return done();
  }

 private:
  friend class description::SaxReader<DescriptionReader, Expect>;  // calls wrongType

  [[gnu::noinline, gnu::cold]] void wrongType(Expect e, const char* found) {
    if (e == Expect::Anything) return;
    if (e == Expect::TypeItem || e == Expect::NamedTypes || e == Expect::InlineTypes) typesOk_ = false;
    error(rules::kWrongType, [&] { return std::string("expected ") + describe(e) + ", found " + found; });
  }

  void endHexType() {
    if (!hexGiven_) {
      error(rules::kMissingField, [] { return std::string("a {\"hex\": ...} type has no \"hex\" member"); });
      typesOk_ = false;
      return;
    }
  }

  // The overrides are kept out of line and cold: the SAX events are
  // inlined into nlohmann's parse loop, and code added there changes how
  // the compiler inlines its lexer (the build path's floor).
  [[gnu::noinline, gnu::cold]] void layoutNumberInvalid(std::string message) {
    error(rules::kInvalidNumber, [&] { return std::move(message); });
  }

  [[gnu::noinline, gnu::cold]] void layoutString(std::string_view value) {
    switch (expected()) {
      case Expect::FillRaw: fillBytes_ = builder_.bytesFromHex(value, site_); break;
      case Expect::Trailing:
        if (std::optional<Bytes> bytes = builder_.bytesFromHex(value, site_))
          builder_.setTrailing(std::move(*bytes), site_);
        break;
      default:
        if (const std::optional<std::uint32_t> number = parsePrefixedHex32(value)) {
          layoutNumber(*number);
        } else {
          layoutNumberInvalid("invalid number " + quoteInput(value) +
                              ": expected \"0x\" and 1 to 8 hex digits, or an integer");
        }
        break;
    }
  }

  // A number of the layout, in range for its place (Truncate takes any).
  [[gnu::noinline, gnu::cold]] void layoutNumber(std::uint64_t value) {
    const Expect e = expected();
    if (e != Expect::Truncate && value > 0xFFFFFFFFu) {
      error(rules::kInvalidNumber, [&] { return std::to_string(value) + " does not fit in 32 bits"; });
      return;
    }
    const auto word = static_cast<std::uint32_t>(value);
    if (e == Expect::Count) builder_.setCount(word, site_);
    else if (e == Expect::Truncate) builder_.setTruncate(value, site_);
    else if (frames_.back().role == Expect::FillPiece) fillOffset_ = word;
    else dictionary_.offset = word;
  }

  [[gnu::noinline, gnu::cold]] void endFillPiece() {
    if (fillOffset_ && fillBytes_) builder_.addFill(*fillOffset_, std::move(*fillBytes_), site_);
    fillOffset_.reset();
    fillBytes_.reset();
  }

  void endDictionary(const ClosedObject& f) {
    static constexpr description::KeyBits kOffsetBit = description::bitFor(kKeys, Expect::Dictionary, Expect::Offset);
    dictionary_.offsetGiven = (f.seen & kOffsetBit) != 0;
    if (dictionary_.forms == 0 && dictionary_.offsetGiven) {
      // Only a directory entry: it points at its offset, no item of its own.
    } else if (dictionary_.forms == 0) {
      error(rules::kMissingField,
            [] { return "a dictionary needs one of " + keysOf(Expect::Dictionary, KeyUse::Form, " or "); });
    } else if (dictionary_.forms > 1) {
      error(rules::kConflictingFields, [&] {
        return "a dictionary has exactly one of " + keysOf(Expect::Dictionary, KeyUse::Form, " or ") + ", not " +
               std::to_string(dictionary_.forms);
      });
    }
    builder_.addDictionary(dictionary_);  // the next dictionary's start_object() resets it
  }

  DescriptionBuilder& builder_;
  // The one dictionary, type list and hex type that can be open at a time
  // (the format does not nest them).
  DictionaryFields dictionary_;
  description::TypeList types_;
  bool typesOk_ = true;
  bool hexGiven_ = false;  // the open {"hex": ...} type had its "hex"
  // The current dictionary's instantiation name (DictionaryFields views it).
  std::string instantiationName_;
  // The one fill piece that can be open at a time.
  std::optional<std::uint32_t> fillOffset_;
  std::optional<Bytes> fillBytes_;
};

}  // namespace

namespace description {

DescriptionParse parseDescription(std::string_view jsonText, DiagnosticWork& work) {
  DiagnosticList diagnostics;
  DescriptionBuilder builder(diagnostics);
  DescriptionReader reader(diagnostics, builder);
  DescriptionParse result;
  if (!runSax(jsonText, reader, diagnostics, result.diagnostics, work)) {
    result.errorCount = 1;
    return result;
  }
  result.description = builder.finish();
  result.diagnostics = diagnostics.finish(jsonText);
  result.errorCount = diagnostics.errorCount();
  result.warningCount = diagnostics.warningCount();
  work = diagnostics.work();
  return result;
}

}  // namespace description

DescriptionParse parseDescription(std::string_view jsonText) {
  description::DiagnosticWork work;
  return description::parseDescription(jsonText, work);
}

DescriptionBuild buildMapFromDescription(std::string_view jsonText, const TypeNames* names) {
  DescriptionBuildOptions options;
  options.names = names;
  return buildMapFromDescription(jsonText, options);
}

DescriptionBuild buildMapFromDescription(std::string_view jsonText, const DescriptionBuildOptions& options) {
  DiagnosticList diagnostics;
  DescriptionBuild result;
  {
    // Scoped: the builder's tables are gone before the diagnostics are
    // located, which reads the text again (a caller that let go of the
    // text's pages while it was read gets them back then).
    DescriptionBuilder builder(diagnostics, DescriptionBuilder::Output::Map);
    builder.setTypeNames(options.names);
    builder.reserveForText(jsonText.size());
    DescriptionReader reader(diagnostics, builder);
    reader.onProgress = options.onProgress;
    if (description::DiagnosticWork work;
        !description::runSax(jsonText, reader, diagnostics, result.diagnostics, work)) {
      result.errorCount = 1;
      return result;
    }
    result.map = builder.finishMap();
    if (result.map) {
      // The map is read back before it is handed out: one that does not
      // hold what was added is a bug, and must not land.
      if (Status same = description::readsBack(*result.map, builder.mapBuilder()); !same) {
        diagnostics.errorAt(
            rules::kDescriptionMismatch, Diagnostic::npos,
            "internal error: the built map does not read back as its description: " + same.error().message);
        result.map.reset();
      }
    }
  }
  result.diagnostics = diagnostics.finish(jsonText);
  result.errorCount = diagnostics.errorCount();
  result.warningCount = diagnostics.warningCount();
  return result;
}

}  // namespace gdmap
