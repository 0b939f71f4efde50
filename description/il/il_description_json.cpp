// Reads an IL-to-native description with nlohmann's SAX interface, as
// description_json.cpp reads a dictionary description: a description may
// hold 10^5 methods or a method of 10^6 bounds, and a DOM would hold all of
// it (a few hundred bytes a value) before the first value is looked at.
// Each value goes straight into the method being read; the only other state
// is one frame per open container (the format nests five deep; deeper
// unexpected values are skipped with a frame each, no recursion).
#include <gdmap/description/il_description_json.hpp>

#include "il_description_keys.hpp"

#include <gdmap/internal/description_diagnostics.hpp>
#include <gdmap/internal/json_sax.hpp>
#include <gdmap/internal/sax_reader.hpp>

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
  Signature,   // /methods/N/signature: a string for people (SOS's name of the method)
  Component,   // /methods/N/component: a composite image's component assembly (part of the identity)
  Methods,     // /methods: an array of methods
  Method,      // /methods/N: an object
  Token,       // the numbers of a method, a bound and an entry
  CodeSize,
  Native,
  Il,
  NativeStart,
  NativeEnd,
  Bounds,  // /methods/N/bounds: an array of bounds
  Bound,   // /methods/N/bounds/K: an object
  Source,  // /methods/N/bounds/K/source: an array of flags
  // A bound's source line, for people (il extract --lines): its "line" and
  // "column", and its "document" when it is not the method's "document".
  LineNumber,
  LineColumn,
  LineDocument,
  MethodDocument,   // /methods/N/document: a string
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
  Address,  // /methods/N/code/K/address: 64 bits
  Size,
  // A method of a process (`il extract --pid`, a core dump).
  Module,       // /methods/N/module: the module's file path (part of the identity)
  MethodDesc,   // /methods/N/methodDesc: the runtime's MethodDesc address, 64 bits
  Dynamic,      // /methods/N/dynamic: a boolean (a dynamic method: token RID 0)
  CodeVersion,  // /methods/N/codeVersion: an object
  CodeKind,     // /methods/N/codeVersion/kind: "jit" or "r2r"
  Tier,         // /methods/N/codeVersion/tier: a tier name
  IlVersion,    // /methods/N/codeVersion/ilVersion: 64 bits
  Active,       // /methods/N/codeVersion/active: a boolean
};

using Frame = description::JsonFrame<Expect>;
using description::KeyedObject;
using description::KeyUse;
namespace il_key = description::il_key;

// The format's keys (docs/il-map.md), each object's in the order its list
// names them.
constexpr description::KeyTable<Expect, 48> kIlDescriptionKeys{{
    {il_key::kSchema, Expect::Root, Expect::Schema, KeyUse::Unlisted},
    {il_key::kMethods, Expect::Root, Expect::Methods, KeyUse::Required, {}, "the description has no ", " array"},
    {il_key::kToken, Expect::Method, Expect::Token, KeyUse::Required, {}, "a method needs a "},
    {il_key::kCodeSize, Expect::Method, Expect::CodeSize, KeyUse::Optional, "code size"},
    {il_key::kBounds, Expect::Method, Expect::Bounds, KeyUse::Form},
    {il_key::kMap, Expect::Method, Expect::Map, KeyUse::Form},
    {il_key::kRaw, Expect::Method, Expect::Raw, KeyUse::Form},
    {il_key::kLayout, Expect::Method, Expect::Layout},
    {il_key::kInstantiation, Expect::Method, Expect::Instantiation},
    {il_key::kName, Expect::Method, Expect::MethodName},
    {il_key::kSignature, Expect::Method, Expect::Signature},
    {il_key::kDocument, Expect::Method, Expect::MethodDocument},
    {il_key::kComponent, Expect::Method, Expect::Component},
    {il_key::kCode, Expect::Method, Expect::Code},
    {il_key::kModule, Expect::Method, Expect::Module},
    {il_key::kMethodDesc, Expect::Method, Expect::MethodDesc, KeyUse::Optional, "MethodDesc address"},
    {il_key::kDynamic, Expect::Method, Expect::Dynamic},
    {il_key::kCodeVersion, Expect::Method, Expect::CodeVersion},
    {il_key::kKind, Expect::CodeVersion, Expect::CodeKind, KeyUse::Required, {}, "a code version needs a "},
    {il_key::kTier, Expect::CodeVersion, Expect::Tier},
    {il_key::kIlVersion, Expect::CodeVersion, Expect::IlVersion, KeyUse::Optional, "IL version"},
    {il_key::kActive, Expect::CodeVersion, Expect::Active},
    {il_key::kRva, Expect::CodeRange, Expect::Rva, KeyUse::Form, "RVA"},
    {il_key::kAddress, Expect::CodeRange, Expect::Address, KeyUse::Form},
    {il_key::kSize, Expect::CodeRange, Expect::Size, KeyUse::Required, {}, "a code range needs a "},
    {il_key::kCount, Expect::Layout, Expect::LayoutCount},
    {il_key::kNativeBits, Expect::Layout, Expect::NativeBits},
    {il_key::kIlBits, Expect::Layout, Expect::IlBits},
    {il_key::kNibbles, Expect::Layout, Expect::Nibbles},
    {il_key::kPadding, Expect::Layout, Expect::Padding},
    {il_key::kHeaderPadding, Expect::Layout, Expect::HeaderPadding},
    {il_key::kVerbatimSource, Expect::Layout, Expect::VerbatimSource},
    {il_key::kTrailing, Expect::Layout, Expect::Trailing},
    {il_key::kTruncate, Expect::Layout, Expect::Truncate},
    {il_key::kType, Expect::Instantiation, Expect::TypeArguments},
    {il_key::kMethod, Expect::Instantiation, Expect::MethodArguments},
    {il_key::kUnboxingStub, Expect::Instantiation, Expect::UnboxingStub},
    {il_key::kAsyncVariant, Expect::Instantiation, Expect::AsyncVariant},
    {il_key::kResumptionStub, Expect::Instantiation, Expect::ResumptionStub},
    {il_key::kNative, Expect::Bound, Expect::Native, KeyUse::Required, "native offset", "a bound needs a ", " offset"},
    {il_key::kIl, Expect::Bound, Expect::Il, KeyUse::Required, "IL offset", "a bound needs an ", " offset"},
    {il_key::kSource, Expect::Bound, Expect::Source},
    {il_key::kLine, Expect::Bound, Expect::LineNumber, KeyUse::Optional},
    {il_key::kColumn, Expect::Bound, Expect::LineColumn, KeyUse::Optional},
    {il_key::kDocument, Expect::Bound, Expect::LineDocument},
    {il_key::kIl, Expect::MapEntry, Expect::Il, KeyUse::Required, "IL offset", "an API entry needs an ", " offset"},
    {il_key::kNativeStart, Expect::MapEntry, Expect::NativeStart, KeyUse::Required, "native start",
     "an API entry needs a "},
    {il_key::kNativeEnd, Expect::MapEntry, Expect::NativeEnd, KeyUse::Required, "native end", "an API entry needs a "},
}};

constexpr std::array<KeyedObject<Expect>, 8> kIlDescriptionObjects{{
    {Expect::Root, "the description"},
    {Expect::Method, "a method"},
    {Expect::Layout, "a layout"},
    {Expect::Instantiation, "an instantiation"},
    {Expect::Bound, "a bound"},
    {Expect::MapEntry, "an API entry"},
    {Expect::CodeRange, "a code range"},
    {Expect::CodeVersion, "a code version"},
}};

std::string keysOf(Expect object, KeyUse use, std::string_view last) {
  return description::keyList(kIlDescriptionKeys, description::keyMask(kIlDescriptionKeys, object, use), last);
}

// The numbers of 64 bits: target addresses and the IL version.
bool isWide(Expect e) { return e == Expect::Address || e == Expect::MethodDesc || e == Expect::IlVersion; }

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
    case Expect::LineNumber:
    case Expect::LineColumn:
    case Expect::Rva:
    case Expect::Size:
    case Expect::NibbleCount: return true;
    default: return isWide(e);
  }
}

std::string describe(Expect e) {
  if (e == Expect::Il) return "an integer, a \"0x...\" hex string, \"prolog\", \"epilog\" or \"no_mapping\"";
  if (isNumber(e)) return "an integer or a \"0x...\" hex string";
  if (e == Expect::Tier) {
    std::string tiers;
    for (const il::OptimizationTier t :
         {il::OptimizationTier::Tier0, il::OptimizationTier::Tier1, il::OptimizationTier::Tier1Osr,
          il::OptimizationTier::Optimized, il::OptimizationTier::Tier0Instrumented})
      ((tiers += tiers.empty() ? "\"" : ", \"") += il::tierName(t)) += '"';
    return tiers + " or \"" + il::tierName(il::OptimizationTier::Tier1Instrumented) + '"';
  }
  switch (e) {
    case Expect::Root: return "an object (the description)";
    case Expect::Schema: return "a string (the JSON Schema's URI)";
    case Expect::MethodName: return "a string (the method's name, for people)";
    case Expect::Signature: return "a string (the method's name with its signature, for people)";
    case Expect::Component: return "a string (the component assembly's simple name)";
    case Expect::Methods: return "an array of methods";
    case Expect::Method: return "an object with \"token\" and one of \"bounds\" or \"map\"";
    case Expect::Bounds: return "an array of bounds";
    case Expect::Bound:
      return "an object with " + keysOf(e, KeyUse::Required, ", ") + " and optionally " +
             keysOf(e, KeyUse::Optional, ", ");
    case Expect::Source: return "an array of source flag names";
    case Expect::LineDocument:
    case Expect::MethodDocument: return "a string (the source document's name)";
    case Expect::SourceFlag: return "a source flag name (such as \"stack_empty\") or a \"0x...\" hex string";
    case Expect::Map: return "an array of API entries";
    case Expect::MapEntry: return "an object with " + keysOf(e, KeyUse::Required, " and ");
    case Expect::CodeRange:
      return "an object with " + keysOf(e, KeyUse::Form, " or ") + ", and " + keysOf(e, KeyUse::Required, " and ");
    case Expect::Module: return "a string (the module's file path)";
    case Expect::CodeVersion:
      return "an object with " + keysOf(e, KeyUse::Required, ", ") + " and optionally " +
             keysOf(e, KeyUse::Optional, ", ");
    case Expect::CodeKind: return "\"jit\" or \"r2r\"";
    case Expect::Code: return "an array of code ranges";
    case Expect::Instantiation: return "an object of " + keysOf(e, KeyUse::Optional, ", ");
    case Expect::TypeArguments:
    case Expect::MethodArguments: return "an array of types (ILAsm type text)";
    case Expect::TypeText: return "a type as ILAsm type text (such as \"int32\" or \"class 0x02000004\")";
    case Expect::UnboxingStub:
    case Expect::AsyncVariant:
    case Expect::ResumptionStub:
    case Expect::Dynamic:
    case Expect::Active:
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

// The value of "0x" (or "0X") and 1 to 16 hex digits, nothing else: a
// target address, as parsePrefixedHex32 reads 32 bits.
std::optional<std::uint64_t> parsePrefixedHex64(std::string_view text) {
  if (text.size() < 3 || text.size() > 18 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : text.substr(2)) {
    const int digit = hexDigitValue(c);
    if (digit < 0) return std::nullopt;
    value = value << 4 | static_cast<std::uint64_t>(digit);
  }
  return value;
}

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
      case Expect::Dynamic: method_.dynamicMethod = value; break;
      case Expect::Active: codeVersion_.active = value; break;
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
    if (isWide(expected())) {
      storeWide(value);
    } else if (value > 0xFFFFFFFFu) {
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
      return std::string(fieldName(expected())) + ' ' + quoteInput(text) + " is not an integer below 2^" +
             (isWide(expected()) ? "64" : "32");
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
    if (e == Expect::Signature) {
      method_.signature = value;
      return done();
    }
    if (e == Expect::Component) {
      method_.component = value;
      return done();
    }
    if (e == Expect::Module) {
      method_.module = value;
      return done();
    }
    if (e == Expect::LineDocument) {
      line_.document = value;
      lineGiven_ = true;
      return done();
    }
    if (e == Expect::MethodDocument) {
      method_.document = value;
      return done();
    }
    if (e == Expect::CodeKind || e == Expect::Tier) {
      storeVersionName(e, value);
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
    if (isWide(e)) {
      if (const std::optional<std::uint64_t> wide = parsePrefixedHex64(value)) {
        storeWide(*wide);
      } else {
        error(rules::kInvalidNumber, [&] {
          return "invalid " + std::string(fieldName(e)) + ' ' + quoteInput(value) +
                 ": expected \"0x\" and 1 to 16 hex digits or an integer";
        });
      }
      return done();
    }
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
      case Expect::Bound:
        bound_ = {};
        line_ = {};
        lineGiven_ = false;
        break;
      case Expect::MapEntry: entry_ = {}; break;
      case Expect::CodeRange: range_ = {}; break;
      case Expect::CodeVersion: codeVersion_ = {}; break;
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
    // A code range's rva and address are its forms, counted when it ends.
    if (readKey(k) && f.role == Expect::Method) ++methodForms_;
    return true;
  }

  bool end_object() {
    const ClosedObject f = closeObject();
    switch (f.role) {
      case Expect::Method: endMethod(f); break;
      case Expect::Bound: endBound(); break;
      case Expect::MapEntry: endMapEntry(); break;
      case Expect::CodeRange: endCodeRange(f); break;
      case Expect::CodeVersion:
        if (codeVersionKind_) method_.codeVersion = codeVersion_;
        codeVersionKind_ = false;
        break;
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
      case Expect::LineNumber:
        line_.line = value;
        lineGiven_ = true;
        break;
      case Expect::LineColumn:
        line_.column = value;
        lineGiven_ = true;
        break;
      case Expect::CodeSize: method_.codeSize = value; break;
      case Expect::Rva: range_.start = value; break;
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

  // A number of 64 bits (isWide).
  void storeWide(std::uint64_t value) {
    switch (expected()) {
      case Expect::Address: range_.start = value; break;
      case Expect::MethodDesc: method_.methodDesc = value; break;
      case Expect::IlVersion: codeVersion_.ilVersion = value; break;
      default: break;
    }
  }

  // A code version's "kind" or "tier", by name (il_map.hpp).
  void storeVersionName(Expect e, const std::string& name) {
    if (e == Expect::CodeKind) {
      if (const std::optional<il::CodeKind> kind = il::parseCodeKind(name)) {
        codeVersion_.kind = *kind;
        codeVersionKind_ = true;
        return;
      }
    } else if (const std::optional<il::OptimizationTier> tier = il::parseTier(name)) {
      codeVersion_.tier = *tier;
      return;
    }
    error(rules::kIlUnknownCodeVersion, [&] {
      return "unknown " + std::string(e == Expect::CodeKind ? "code kind " : "tier ") + quoteInput(name) +
             ": expected " + describe(e);
    });
  }

  // A code range has exactly one of rva (in an image) and address (in a
  // process), and a method's ranges are all of one kind.
  void endCodeRange(const ClosedObject& f) {
    static constexpr description::KeyBits kRva = description::bitFor(kKeys, Expect::CodeRange, Expect::Rva);
    static constexpr description::KeyBits kAddress = description::bitFor(kKeys, Expect::CodeRange, Expect::Address);
    const bool rva = (f.seen & kRva) != 0;
    const bool address = (f.seen & kAddress) != 0;
    if (rva == address) {
      const std::string forms = keysOf(Expect::CodeRange, KeyUse::Form, " or ");
      if (rva) error(rules::kConflictingFields, [&] { return "a code range has exactly one of " + forms; });
      else error(rules::kMissingField, [&] { return "a code range needs one of " + forms; });
      return;
    }
    range_.absolute = address;
    if (!method_.code.empty() && method_.code.front().absolute != address) {
      const std::size_t index = method_.code.size();
      memberError(Severity::Error, rules::kIlMixedCodeRanges, Expect::CodeRange,
                  address ? Expect::Address : Expect::Rva, [&] {
                    return "code range " + std::to_string(index) + " has " + (address ? "an address" : "an RVA") +
                           " but the method's first has " + (address ? "an RVA" : "an address") +
                           ": a method's code ranges are all RVAs (an image) or all addresses (a process)";
                  });
    }
    method_.code.push_back(range_);
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
      if (lineGiven_) {
        method_.lines.resize(method_.bounds.size());
        method_.lines.back() = std::move(line_);
      }
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
          {*token_, methodIndex_, identityKey(method_), method_.instantiation.has_value(), inProcess(method_)});
    }
    methods_.push_back(std::move(method_));
    method_ = {};
    token_.reset();
    lastNative_.reset();
  }

  // Whether the method says any of what identifies a method in a process.
  static bool inProcess(const il::Method& m) {
    return !m.module.empty() || m.methodDesc || m.codeVersion || !m.code.empty();
  }

  // A method is identified, besides its token, by its module (a process),
  // its component (composite images), its MethodDesc (a process's
  // instantiations), its instantiation (one body per instantiation of a
  // generic method), its code version (tiers and ReJIT) and its first code
  // range; the key spells them with separators no path or type text
  // contains.
  static std::string identityKey(const il::Method& m) {
    std::string key = m.module;
    (key += '\x03') += m.component;
    key += '\x03';
    if (m.methodDesc) appendShortHex(*m.methodDesc, key);
    key += '\x03';
    if (m.codeVersion) {
      const il::CodeVersion& v = *m.codeVersion;
      key += il::codeKindName(v.kind);
      (key += '/') += v.tier ? il::tierName(*v.tier) : "-";
      key += '/';
      appendShortHex(v.ilVersion, key);
      key += v.active ? "/A" : "/-";
    }
    key += '\x03';
    if (!m.code.empty()) {
      key += m.code.front().absolute ? 'A' : 'R';
      appendShortHex(m.code.front().start, key);
    }
    (key += '\x03') += instantiationKey(m.instantiation);
    return key;
  }

  // The instantiation ("" for none).
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
    std::string identity;   // identityKey()
    bool instantiated = false;
    bool inProcess = false;
  };

  // Sorting the keys once finds every repeated (token, instantiation)
  // without a hash node per method; each repeat is reported at its own token.
  void reportDuplicateTokens() {
    const auto identity = [](const TokenKey& k) { return std::tie(k.token, k.identity); };
    std::sort(tokenKeys_.begin(), tokenKeys_.end(), [&](const TokenKey& a, const TokenKey& b) {
      return std::tie(a.token, a.identity, a.index) < std::tie(b.token, b.identity, b.index);
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
      const bool instantiated = tokenKeys_[i].instantiated;
      const bool inProcess = tokenKeys_[i].inProcess;
      diagnostics_.error(rules::kIlDuplicateToken, MethodTokenSite(diagnostics_.work(), index), [&] {
        return "token " + hex32(token) + " is already the token of /methods/" + std::to_string(firstIndex) +
               (inProcess      ? " with the same module, component, MethodDesc, instantiation, code version and first "
                                 "code range: together with the token they identify a method and must be unique"
                : instantiated ? " with the same instantiation: a token and an instantiation identify a method and "
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
  il::BoundLine line_;  // the bound's "line", when lineGiven_
  bool lineGiven_ = false;
  il::ApiEntry entry_;
  il::CodeRange range_;
  il::CodeVersion codeVersion_;
  bool codeVersionKind_ = false;  // the open code version's "kind" was read
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
