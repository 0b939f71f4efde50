// Reads an IL-to-native description with nlohmann's SAX interface, as
// description_json.cpp reads a dictionary description: a description may
// hold 10^5 methods or a method of 10^6 bounds, and a DOM would hold all of
// it (a few hundred bytes a value) before the first value is looked at.
// Each value goes straight into the method being read; the only other state
// is one frame per open container (the format nests five deep; deeper
// unexpected values are skipped with a frame each, no recursion).
#include <gdmap/description/il_description_json.hpp>

#include "description_diagnostics.hpp"
#include "json_sax.hpp"
#include "sax_reader.hpp"

#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/schema/type_text.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace gdmap {
namespace {

using json = nlohmann::json;
using description::DiagnosticList;
using description::Site;

// What the value at the current position must be.
enum class Expect : std::uint8_t {
  Anything,    // the value of an unknown key, or inside a wrong value: skipped
  Root,        // the description object
  Schema,      // /$schema: a string, ignored
  MethodName,  // /methods/N/name: a string for people
  Component,   // /methods/N/component: a composite image's component assembly (part of the identity)
  Methods,     // /methods: an array of methods
  Method,      // /methods/N: an object
  Token,       // the numbers of a method, a bound and an entry
  CodeSize,
  Native,
  Il,
  NativeStart,
  NativeEnd,
  Bounds,           // /methods/N/bounds: an array of bounds
  Bound,            // /methods/N/bounds/K: an object
  Source,           // /methods/N/bounds/K/source: an array of flags
  SourceFlag,       // a flag name or "0x..."
  Map,              // /methods/N/map: an array of API entries
  MapEntry,         // /methods/N/map/K: an object
  Instantiation,    // /methods/N/instantiation: an object
  TypeArguments,    // /methods/N/instantiation/type: an array of type text
  MethodArguments,  // /methods/N/instantiation/method: an array of type text
  TypeText,         // one argument
  UnboxingStub,     // /methods/N/instantiation/unboxingStub: a boolean
  AsyncVariant,     // /methods/N/instantiation/asyncVariant: a boolean (runtime async)
  ResumptionStub,   // /methods/N/instantiation/resumptionStub: a boolean (runtime async)
  Raw,              // /methods/N/raw: the blob verbatim, as hex
  Layout,           // /methods/N/layout: the overrides of one form's bytes
  LayoutCount,      // the numbers of a layout
  NativeBits,
  IlBits,
  Padding,
  HeaderPadding,
  Truncate,
  Nibbles,         // /methods/N/layout/nibbles: field path -> varint length
  NibbleCount,     // one varint length
  Trailing,        // /methods/N/layout/trailing: hex
  VerbatimSource,  // /methods/N/layout/verbatimSource: a boolean
  Code,            // /methods/N/code: an array of code ranges
  CodeRange,       // /methods/N/code/K: an object
  Rva,
  Size,
};

using Frame = description::JsonFrame<Expect>;
using description::KeyedObject;
using description::KeyUse;

// The format's keys (docs/il-map.md), each object's in the order its list
// names them.
constexpr description::KeyTable<Expect, 34> kIlDescriptionKeys{{
    {"$schema", Expect::Root, Expect::Schema, KeyUse::Unlisted},
    {"methods", Expect::Root, Expect::Methods, KeyUse::Required, {}, "the description has no ", " array"},
    {"token", Expect::Method, Expect::Token, KeyUse::Required, {}, "a method needs a "},
    {"codeSize", Expect::Method, Expect::CodeSize, KeyUse::Optional, "code size"},
    {"bounds", Expect::Method, Expect::Bounds, KeyUse::Form},
    {"map", Expect::Method, Expect::Map, KeyUse::Form},
    {"raw", Expect::Method, Expect::Raw, KeyUse::Form},
    {"layout", Expect::Method, Expect::Layout},
    {"instantiation", Expect::Method, Expect::Instantiation},
    {"name", Expect::Method, Expect::MethodName},
    {"component", Expect::Method, Expect::Component},
    {"code", Expect::Method, Expect::Code},
    {"rva", Expect::CodeRange, Expect::Rva, KeyUse::Required, "RVA", "a code range needs an "},
    {"size", Expect::CodeRange, Expect::Size, KeyUse::Required, "size", "a code range needs a "},
    {"count", Expect::Layout, Expect::LayoutCount},
    {"nativeBits", Expect::Layout, Expect::NativeBits},
    {"ilBits", Expect::Layout, Expect::IlBits},
    {"nibbles", Expect::Layout, Expect::Nibbles},
    {"padding", Expect::Layout, Expect::Padding},
    {"headerPadding", Expect::Layout, Expect::HeaderPadding},
    {"verbatimSource", Expect::Layout, Expect::VerbatimSource},
    {"trailing", Expect::Layout, Expect::Trailing},
    {"truncate", Expect::Layout, Expect::Truncate},
    {"type", Expect::Instantiation, Expect::TypeArguments},
    {"method", Expect::Instantiation, Expect::MethodArguments},
    {"unboxingStub", Expect::Instantiation, Expect::UnboxingStub},
    {"asyncVariant", Expect::Instantiation, Expect::AsyncVariant},
    {"resumptionStub", Expect::Instantiation, Expect::ResumptionStub},
    {"native", Expect::Bound, Expect::Native, KeyUse::Required, "native offset", "a bound needs a ", " offset"},
    {"il", Expect::Bound, Expect::Il, KeyUse::Required, "IL offset", "a bound needs an ", " offset"},
    {"source", Expect::Bound, Expect::Source},
    {"il", Expect::MapEntry, Expect::Il, KeyUse::Required, "IL offset", "an API entry needs an ", " offset"},
    {"nativeStart", Expect::MapEntry, Expect::NativeStart, KeyUse::Required, "native start", "an API entry needs a "},
    {"nativeEnd", Expect::MapEntry, Expect::NativeEnd, KeyUse::Required, "native end", "an API entry needs a "},
}};

constexpr std::array<KeyedObject<Expect>, 7> kIlDescriptionObjects{{
    {Expect::Root, "the description"},
    {Expect::Method, "a method"},
    {Expect::Layout, "a layout"},
    {Expect::Instantiation, "an instantiation"},
    {Expect::Bound, "a bound"},
    {Expect::MapEntry, "an API entry"},
    {Expect::CodeRange, "a code range"},
}};

std::string keysOf(Expect object, KeyUse use, std::string_view last) {
  return description::keyList(kIlDescriptionKeys, description::keyMask(kIlDescriptionKeys, object, use), last);
}

bool isNumber(Expect e) {
  switch (e) {
    case Expect::Token:
    case Expect::CodeSize:
    case Expect::Native:
    case Expect::Il:
    case Expect::NativeStart:
    case Expect::NativeEnd:
    case Expect::LayoutCount:
    case Expect::NativeBits:
    case Expect::IlBits:
    case Expect::Padding:
    case Expect::HeaderPadding:
    case Expect::Truncate:
    case Expect::Rva:
    case Expect::Size:
    case Expect::NibbleCount: return true;
    default: return false;
  }
}

std::string describe(Expect e) {
  if (e == Expect::Il) return "an integer, a \"0x...\" hex string, \"prolog\", \"epilog\" or \"no_mapping\"";
  if (isNumber(e)) return "an integer or a \"0x...\" hex string";
  switch (e) {
    case Expect::Root: return "an object (the description)";
    case Expect::Schema: return "a string (the JSON Schema's URI)";
    case Expect::MethodName: return "a string (the method's name, for people)";
    case Expect::Component: return "a string (the component assembly's simple name)";
    case Expect::Methods: return "an array of methods";
    case Expect::Method: return "an object with \"token\" and one of \"bounds\" or \"map\"";
    case Expect::Bounds: return "an array of bounds";
    case Expect::Bound:
      return "an object with " + keysOf(e, KeyUse::Required, ", ") + " and optionally " +
             keysOf(e, KeyUse::Optional, ", ");
    case Expect::Source: return "an array of source flag names";
    case Expect::SourceFlag: return "a source flag name (such as \"stack_empty\") or a \"0x...\" hex string";
    case Expect::Map: return "an array of API entries";
    case Expect::MapEntry:
    case Expect::CodeRange: return "an object with " + keysOf(e, KeyUse::Required, " and ");
    case Expect::Code: return "an array of code ranges";
    case Expect::Instantiation: return "an object of " + keysOf(e, KeyUse::Optional, ", ");
    case Expect::TypeArguments:
    case Expect::MethodArguments: return "an array of types (ILAsm type text)";
    case Expect::TypeText: return "a type as ILAsm type text (such as \"int32\" or \"class 0x02000004\")";
    case Expect::UnboxingStub:
    case Expect::AsyncVariant:
    case Expect::ResumptionStub:
    case Expect::VerbatimSource: return "a boolean";
    case Expect::Raw:
    case Expect::Trailing: return "a string of hex digits (\"0a 1b\")";
    case Expect::Layout: return "an object of overrides (" + keysOf(e, KeyUse::Optional, ", ") + ")";
    case Expect::Nibbles: return "an object from field paths (\"bounds[0].native\") to varint lengths in nibbles";
    default: break;
  }
  return "anything";
}

// What a message about a number calls it: its key's noun or name.
std::string fieldName(Expect e) {
  if (e == Expect::NibbleCount) return "varint length";
  const std::string_view noun = description::valueNoun(kIlDescriptionKeys, e);
  return noun.empty() ? "value" : std::string(noun);
}

constexpr std::size_t kMaxIndexDigits = 20;

bool isIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Why `text` is not type text, or nullopt when it is. ReadyToRun signatures
// add two things the ECMA grammar lacks, printed by the R2R reader as
// `__Canon` (the shared-code placeholder) and `[module N] T` (T's tokens
// belong to module N); both are checked as the types they stand in for
// (`object`; T), and an error's offset is mapped back into `text`.
std::optional<Error> readyToRunTypeTextError(std::string_view text) {
  static constexpr std::string_view kCanon = "__Canon";
  static constexpr std::string_view kModule = "[module ";
  std::string plain;
  std::vector<std::size_t> origin;  // origin[i]: the index in `text` of plain[i]
  plain.reserve(text.size());
  origin.reserve(text.size() + 1);
  for (std::size_t i = 0; i < text.size();) {
    const bool boundary = i == 0 || !isIdentifierChar(text[i - 1]);
    if (boundary && text.substr(i).starts_with(kCanon) &&
        (i + kCanon.size() == text.size() || !isIdentifierChar(text[i + kCanon.size()]))) {
      plain += "object";
      origin.insert(origin.end(), 6, i);
      i += kCanon.size();
      continue;
    }
    if (text.substr(i).starts_with(kModule)) {
      std::size_t j = i + kModule.size();
      const std::size_t digits = j;
      while (j < text.size() && text[j] >= '0' && text[j] <= '9') ++j;
      if (j > digits && j < text.size() && text[j] == ']') {
        i = j + 1;
        while (i < text.size() && text[i] == ' ') ++i;
        continue;
      }
    }
    plain += text[i];
    origin.push_back(i);
    ++i;
  }
  origin.push_back(text.size());
  // Names (`il extract --names`) are checked for their syntax only: the
  // assembly they come from is not at hand here.
  Expected<Type> parsed = parseType(plain, AnyTypeNames{});
  if (parsed) return std::nullopt;
  Error e = parsed.error();
  e.offset = origin[std::min(e.offset, origin.size() - 1)];
  return e;
}

// /methods/N/token, for the duplicate tokens found after the whole file.
class MethodTokenSite final : public Site {
 public:
  MethodTokenSite(description::DiagnosticWork& work, std::size_t index) : Site(work), index_(index) {}
  std::string buildPointer() const override { return "/methods/" + std::to_string(index_) + "/token"; }
  std::size_t pointerBound() const override { return std::strlen("/methods//token") + kMaxIndexDigits; }

 private:
  std::size_t index_;
};

class IlDescriptionReader : public description::SaxReader<IlDescriptionReader, Expect> {
 public:
  static constexpr const auto& kKeys = kIlDescriptionKeys;
  static constexpr const auto& kKeyedObjects = kIlDescriptionObjects;

  explicit IlDescriptionReader(DiagnosticList& diagnostics) : SaxReader(diagnostics) {}

  // nlohmann's SAX interface (null, binary and parse_error: SaxReader's).
  bool boolean(bool value) {
    if (expected() == Expect::VerbatimSource) {
      layout_.verbatimSource = value;
      return done();
    }
    switch (expected()) {
      case Expect::UnboxingStub: instantiation_.unboxingStub = value; break;
      case Expect::AsyncVariant: instantiation_.asyncVariant = value; break;
      case Expect::ResumptionStub: instantiation_.resumptionStub = value; break;
      default: return scalar("a boolean");
    }
    return done();
  }
  bool number_integer(json::number_integer_t value) {
    // The parser uses this only for negative numbers.
    if (!isNumber(expected())) return scalar("a number");
    error(rules::kInvalidNumber,
          [&] { return std::string(fieldName(expected())) + ' ' + std::to_string(value) + " is negative"; });
    return done();
  }
  bool number_unsigned(json::number_unsigned_t value) {
    if (!isNumber(expected())) return scalar("a number");
    if (value > 0xFFFFFFFFu) {
      error(rules::kInvalidNumber, [&] {
        return std::string(fieldName(expected())) + ' ' + std::to_string(value) + " does not fit in 32 bits";
      });
    } else {
      store(static_cast<std::uint32_t>(value));
    }
    return done();
  }
  bool number_float(json::number_float_t, const json::string_t& text) {
    if (!isNumber(expected())) return scalar("a number");
    // Integers too large for 64 bits arrive here too.
    error(rules::kInvalidNumber, [&] {
      return std::string(fieldName(expected())) + ' ' + quoteInput(text) + " is not an integer below 2^32";
    });
    return done();
  }
  bool string(json::string_t& value) {
    const Expect e = expected();
    if (e == Expect::Schema) return done();
    if (e == Expect::MethodName) {
      method_.name = value;
      return done();
    }
    if (e == Expect::Component) {
      method_.component = value;
      return done();
    }
    if (e == Expect::TypeText) {
      addTypeArgument(value);
      return done();
    }
    if (e == Expect::SourceFlag) {
      addSourceFlag(value);
      return done();
    }
    if (e == Expect::Raw || e == Expect::Trailing) {
      storeHex(e, value);
      return done();
    }
    if (!isNumber(e)) return scalar("a string");
    std::optional<std::uint32_t> number = parsePrefixedHex32(value);
    if (!number && e == Expect::Il) number = il::parseSpecialIl(value);
    if (number) {
      store(*number);
    } else {
      error(rules::kInvalidNumber, [&] {
        return "invalid " + std::string(fieldName(e)) + ' ' + quoteInput(value) +
               ": expected \"0x\" and 1 to 8 hex digits" +
               (e == Expect::Il ? ", \"prolog\", \"epilog\", \"no_mapping\"" : "") + " or an integer";
      });
    }
    return done();
  }

  bool start_object(std::size_t) {
    const Expect e = expected();
    switch (e) {
      case Expect::Root: break;
      case Expect::Method:
        method_ = {};
        methodIndex_ = frames_.back().index;
        methodForms_ = 0;
        break;
      case Expect::Bound: bound_ = {}; break;
      case Expect::MapEntry: entry_ = {}; break;
      case Expect::CodeRange: range_ = {}; break;
      case Expect::Instantiation: instantiation_ = {}; break;
      case Expect::Layout: break;
      case Expect::Nibbles: nibbleKeys_.clear(); break;
      default:
        wrongType(e, "an object");
        pushFrame(Expect::Anything, true, Expect::Anything);
        return true;
    }
    pushFrame(e, true, Expect::Anything);
    return true;
  }

  bool key(json::string_t& k) {
    Frame& f = nextMember();
    if (f.role == Expect::Anything) return true;  // inside a skipped value
    if (f.role == Expect::Nibbles) return nibblesKey(f, k);
    if (readKey(k)) ++methodForms_;
    return true;
  }

  bool end_object() {
    const ClosedObject f = closeObject();
    switch (f.role) {
      case Expect::Method: endMethod(f); break;
      case Expect::Bound: endBound(); break;
      case Expect::MapEntry: endMapEntry(); break;
      case Expect::CodeRange: method_.code.push_back(range_); break;
      case Expect::Instantiation: method_.instantiation = std::move(instantiation_); break;
      case Expect::Layout: layoutGiven_ = true; break;
      default: break;
    }
    return done();
  }

  bool start_array(std::size_t) {
    const Expect e = expected();
    Expect element = Expect::Anything;
    switch (e) {
      case Expect::Methods: element = Expect::Method; break;
      case Expect::Bounds:
        element = Expect::Bound;
        method_.verbatimMap = false;
        break;
      case Expect::Map:
        element = Expect::MapEntry;
        method_.verbatimMap = true;
        break;
      case Expect::Source: element = Expect::SourceFlag; break;
      case Expect::Code: element = Expect::CodeRange; break;
      case Expect::TypeArguments:
      case Expect::MethodArguments: element = Expect::TypeText; break;
      default:
        wrongType(e, "an array");
        pushFrame(Expect::Anything, false, Expect::Anything);
        return true;
    }
    pushFrame(e, false, element);
    return true;
  }

  bool end_array() {
    frames_.pop_back();
    return done();
  }

  // The cross-method check (unique tokens), then the methods, or nullopt
  // after any error.
  std::optional<std::vector<il::Method>> finish() {
    reportDuplicateTokens();
    if (diagnostics_.errorCount() != 0) return std::nullopt;
    return std::move(methods_);
  }

 private:
  friend class description::SaxReader<IlDescriptionReader, Expect>;  // calls wrongType

  Expect container() const { return frames_.empty() ? Expect::Root : frames_.back().role; }

  // A problem with a member of the object just closed: the frame of that
  // member is put back for as long as the diagnostic takes.
  template <typename Message>
  void memberError(Severity severity, const char* rule, Expect container, Expect member, Message&& message) {
    pushFrame(Expect::Anything, true, Expect::Anything);
    frames_.back().tableKey = description::nameFor(kKeys, container, member);
    if (severity == Severity::Warning) diagnostics_.warning(rule, site_, std::forward<Message>(message));
    else diagnostics_.error(rule, site_, std::forward<Message>(message));
    frames_.pop_back();
  }

  void wrongType(Expect e, const char* found) {
    if (e == Expect::Anything) return;
    error(rules::kWrongType, [&] { return std::string("expected ") + describe(e) + ", found " + found; });
  }

  void store(std::uint32_t value) {
    switch (expected()) {
      case Expect::Token: token_ = value; break;
      case Expect::CodeSize: method_.codeSize = value; break;
      case Expect::Rva: range_.rva = value; break;
      case Expect::Size: range_.size = value; break;
      case Expect::Native: native_ = value; break;
      case Expect::Il:
        il_ = value;
        if (container() == Expect::MapEntry) entry_.ilOffset = value;
        break;
      case Expect::NativeStart:
        entry_.nativeStartOffset = value;
        nativeStart_ = true;
        break;
      case Expect::NativeEnd:
        entry_.nativeEndOffset = value;
        nativeEnd_ = true;
        break;
      case Expect::LayoutCount: layout_.count = value; break;
      case Expect::NativeBits: layout_.nativeBits = value; break;
      case Expect::IlBits: layout_.ilBits = value; break;
      case Expect::Padding: layout_.padding = value; break;
      case Expect::HeaderPadding: layout_.headerPadding = value; break;
      case Expect::Truncate: layout_.truncate = value; break;
      case Expect::NibbleCount:
        pendingVarint_.nibbles = value;
        layout_.nibbles.push_back(pendingVarint_);
        break;
      default: break;
    }
  }

  // A key of `nibbles`: the field path of one varint, as the strict
  // reader's diagnostics name it.
  bool nibblesKey(Frame& f, std::string& k) {
    f.setKey(k);
    f.expect = Expect::Anything;
    const std::optional<il::VarintLength> field = il::parseVarintPath(f.key);
    if (!field) {
      error(rules::kUnknownKey, [&] {
        return "unknown varint " + quoteInput(f.key) +
               " in nibbles (expected \"header.count\", \"header.nativeBits\", \"header.ilBits\" or "
               "\"bounds[i].native\", \"bounds[i].il\", \"bounds[i].source\")";
      });
      return true;
    }
    if (!nibbleKeys_.insert({static_cast<int>(field->field), field->bound}).second) {
      error(rules::kDuplicateKey, [&] { return "varint " + quoteInput(f.key) + " is given more than once"; });
      return true;
    }
    pendingVarint_ = *field;
    f.expect = Expect::NibbleCount;
    return true;
  }

  void storeHex(Expect e, const std::string& text) {
    Expected<Bytes> bytes = parseHex(text);
    if (!bytes) {
      const Error& problem = bytes.error();
      diagnostics_.error(
          rules::kInvalidHex, site_,
          [&] { return "invalid hex: column " + std::to_string(problem.offset + 1) + ": " + problem.message; },
          problem.offset);
      return;
    }
    if (e == Expect::Trailing) {
      layout_.trailing = std::move(bytes).value();
    } else {
      raw_ = std::move(bytes).value();
    }
  }

  void addSourceFlag(const std::string& name) {
    std::optional<std::uint32_t> flag = il::parseSourceFlag(name);
    if (!flag) flag = parsePrefixedHex32(name);
    if (!flag) {
      error(rules::kIlUnknownSourceFlag, [&] {
        return "unknown source flag " + quoteInput(name) +
               ": expected sequence_point, stack_empty, call_site, native_end_offset_unknown, call_instruction, "
               "async or a \"0x...\" value";
      });
      return;
    }
    if (bound_.source & *flag) {
      diagnostics_.warning(rules::kIlRepeatedSourceFlag, site_,
                           [&] { return "source flag " + quoteInput(name) + " is given more than once"; });
    }
    bound_.source |= *flag;
  }

  // An argument of the instantiation: type text as the project's parser
  // reads it, with the two extensions of the runtime's signatures
  // (readyToRunTypeText) accepted.
  void addTypeArgument(std::string& text) {
    if (const std::optional<Error> problem = readyToRunTypeTextError(text)) {
      const Error& e = *problem;
      diagnostics_.error(
          e.rule.empty() ? std::string_view(rules::kInvalidType) : std::string_view(e.rule), site_,
          [&] {
            return "invalid type " + quoteInput(text) + ": column " + std::to_string(e.offset + 1) +
                   " of the type: " + e.message;
          },
          e.offset);
      return;
    }
    const bool method = frames_.back().role == Expect::MethodArguments;
    (method ? instantiation_.methodArguments : instantiation_.typeArguments).push_back(std::move(text));
  }

  void endBound() {
    if (native_ && il_) {
      bound_.nativeOffset = *native_;
      bound_.ilOffset = *il_;
      if (lastNative_ && bound_.nativeOffset < *lastNative_) {
        memberError(Severity::Error, rules::kIlBoundsNotAscending, Expect::Bound, Expect::Native, [&] {
          return "native offset " + std::to_string(bound_.nativeOffset) + " is below the previous bound's (" +
                 std::to_string(*lastNative_) + "): bounds ascend by native offset";
        });
      }
      lastNative_ = bound_.nativeOffset;
      method_.bounds.push_back(bound_);
    }
    native_.reset();
    il_.reset();
  }

  void endMapEntry() {
    if (il_ && nativeStart_ && nativeEnd_) method_.map.push_back(entry_);
    il_.reset();
    nativeStart_ = nativeEnd_ = false;
  }

  void endMethod(const ClosedObject& f) {
    if (methodForms_ == 0) {
      error(rules::kMissingField,
            [] { return "a method needs one of " + keysOf(Expect::Method, KeyUse::Form, " or "); });
    } else if (methodForms_ > 1) {
      error(rules::kConflictingFields,
            [] { return "a method has exactly one of " + keysOf(Expect::Method, KeyUse::Form, " or "); });
    }
    static constexpr description::KeyBits kRawAndLayout = description::bitFor(kKeys, Expect::Method, Expect::Raw) |
                                                          description::bitFor(kKeys, Expect::Method, Expect::Layout);
    if ((f.seen & kRawAndLayout) == kRawAndLayout) {
      memberError(Severity::Error, rules::kConflictingFields, Expect::Method, Expect::Layout,
                  [] { return std::string("a `raw` method is its bytes verbatim; a layout does not apply to it"); });
    }
    if (raw_) {
      method_.layout.emplace();
      method_.layout->raw = std::move(raw_);
    } else if (layoutGiven_) {
      method_.layout = std::move(layout_);
    }
    raw_.reset();
    layout_ = {};
    layoutGiven_ = false;
    if (method_.codeSize && !method_.verbatimMap && !method_.bounds.empty() &&
        *method_.codeSize < method_.bounds.back().nativeOffset) {
      memberError(Severity::Warning, rules::kIlCodeSizeBelowBound, Expect::Method, Expect::CodeSize, [&] {
        return "code size " + std::to_string(*method_.codeSize) + " is below the last bound's native offset " +
               std::to_string(method_.bounds.back().nativeOffset) + ": the last API entry would end before it starts";
      });
    }
    if (token_) {
      method_.token = *token_;
      tokenKeys_.push_back(
          {*token_, methodIndex_, method_.component + '\x03' + instantiationKey(method_.instantiation)});
    }
    methods_.push_back(std::move(method_));
    method_ = {};
    token_.reset();
    lastNative_.reset();
  }

  // A method is identified by its component (composite images), its token
  // and its instantiation (one body per instantiation of a generic method);
  // the key spells the instantiation ("" for none) with separators no type
  // text contains.
  static std::string instantiationKey(const std::optional<il::Instantiation>& inst) {
    if (!inst) return {};
    std::string key = inst->unboxingStub ? "U" : "I";
    key += inst->asyncVariant ? 'A' : '-';
    key += inst->resumptionStub ? 'R' : '-';
    for (const std::string& t : inst->typeArguments) (key += '\x01') += t;
    key += '\x02';
    for (const std::string& t : inst->methodArguments) (key += '\x01') += t;
    return key;
  }

  struct TokenKey {
    std::uint32_t token = 0;
    std::size_t index = 0;  // of the method
    std::string instantiation;
  };

  // Sorting the keys once finds every repeated (token, instantiation)
  // without a hash node per method; each repeat is reported at its own token.
  void reportDuplicateTokens() {
    const auto identity = [](const TokenKey& k) { return std::tie(k.token, k.instantiation); };
    std::sort(tokenKeys_.begin(), tokenKeys_.end(), [&](const TokenKey& a, const TokenKey& b) {
      return std::tie(a.token, a.instantiation, a.index) < std::tie(b.token, b.instantiation, b.index);
    });
    std::size_t first = 0;  // the first key with the current identity
    for (std::size_t i = 1; i < tokenKeys_.size(); ++i) {
      // Named, not a structured binding: clang 14 cannot capture one in the
      // message's lambda.
      const std::uint32_t token = tokenKeys_[i].token;
      const std::size_t index = tokenKeys_[i].index;
      if (identity(tokenKeys_[i]) != identity(tokenKeys_[first])) {
        first = i;
        continue;
      }
      const std::size_t firstIndex = tokenKeys_[first].index;
      const bool instantiated = tokenKeys_[i].instantiation.back() != '\x03';
      diagnostics_.error(rules::kIlDuplicateToken, MethodTokenSite(diagnostics_.work(), index), [&] {
        return "token " + hex32(token) + " is already the token of /methods/" + std::to_string(firstIndex) +
               (instantiated ? " with the same instantiation: a token and an instantiation identify a method and "
                               "must be unique"
                             : ": tokens identify methods and must be unique");
      });
    }
  }

  std::vector<il::Method> methods_;
  std::vector<TokenKey> tokenKeys_;
  // The one method, bound and entry that can be open at a time.
  il::Method method_;
  std::size_t methodIndex_ = 0;
  unsigned methodForms_ = 0;
  std::optional<std::uint32_t> token_;
  std::optional<std::uint32_t> lastNative_;
  il::Bound bound_;
  il::ApiEntry entry_;
  il::CodeRange range_;
  il::Instantiation instantiation_;
  std::optional<std::uint32_t> native_;
  std::optional<std::uint32_t> il_;
  bool nativeStart_ = false;
  bool nativeEnd_ = false;
  // The method's overrides, kept apart until the method ends (a `layout`
  // may come before or after its bounds).
  il::BoundsLayout layout_;
  bool layoutGiven_ = false;
  std::optional<Bytes> raw_;
  il::VarintLength pendingVarint_;
  std::set<std::pair<int, std::uint32_t>> nibbleKeys_;  // the varints of this `nibbles`, for repeats
};

}  // namespace

il::IlDescriptionParse il::parseIlDescription(std::string_view jsonText) {
  DiagnosticList diagnostics;
  IlDescriptionReader reader(diagnostics);
  IlDescriptionParse result;
  if (description::DiagnosticWork work; !description::runSax(jsonText, reader, diagnostics, result.diagnostics, work)) {
    result.errorCount = 1;
    return result;
  }
  result.methods = reader.finish();
  result.diagnostics = diagnostics.finish(jsonText);
  result.errorCount = diagnostics.errorCount();
  result.warningCount = diagnostics.warningCount();
  return result;
}

}  // namespace gdmap
