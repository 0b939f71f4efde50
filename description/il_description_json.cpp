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
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
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
};

using Frame = description::JsonFrame<Expect>;

const char* describe(Expect e) {
  switch (e) {
    case Expect::Root: return "an object (the description)";
    case Expect::Schema: return "a string (the JSON Schema's URI)";
    case Expect::MethodName: return "a string (the method's name, for people)";
    case Expect::Methods: return "an array of methods";
    case Expect::Method: return "an object with \"token\" and one of \"bounds\" or \"map\"";
    case Expect::Token:
    case Expect::CodeSize:
    case Expect::Native:
    case Expect::NativeStart:
    case Expect::NativeEnd: return "an integer or a \"0x...\" hex string";
    case Expect::Il: return "an integer, a \"0x...\" hex string, \"prolog\", \"epilog\" or \"no_mapping\"";
    case Expect::Bounds: return "an array of bounds";
    case Expect::Bound: return "an object with \"native\", \"il\" and optionally \"source\"";
    case Expect::Source: return "an array of source flag names";
    case Expect::SourceFlag: return "a source flag name (such as \"stack_empty\") or a \"0x...\" hex string";
    case Expect::Map: return "an array of API entries";
    case Expect::MapEntry: return "an object with \"il\", \"nativeStart\" and \"nativeEnd\"";
    case Expect::Instantiation: return "an object with \"type\", \"method\" and optionally \"unboxingStub\"";
    case Expect::TypeArguments:
    case Expect::MethodArguments: return "an array of types (ILAsm type text)";
    case Expect::TypeText: return "a type as ILAsm type text (such as \"int32\" or \"class 0x02000004\")";
    case Expect::UnboxingStub:
    case Expect::VerbatimSource: return "a boolean";
    case Expect::Raw:
    case Expect::Trailing: return "a string of hex digits (\"0a 1b\")";
    case Expect::Layout:
      return "an object of overrides (\"count\", \"nativeBits\", \"ilBits\", \"nibbles\", \"padding\", "
             "\"headerPadding\", \"verbatimSource\", \"trailing\", \"truncate\")";
    case Expect::Nibbles: return "an object from field paths (\"bounds[0].native\") to varint lengths in nibbles";
    case Expect::LayoutCount:
    case Expect::NativeBits:
    case Expect::IlBits:
    case Expect::Padding:
    case Expect::HeaderPadding:
    case Expect::Truncate:
    case Expect::NibbleCount: return "an integer or a \"0x...\" hex string";
    case Expect::Anything: break;
  }
  return "anything";
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
    case Expect::NibbleCount: return true;
    default: return false;
  }
}

// Keys the format knows, as bits, for spotting a key given twice in one
// object (which JSON parsers silently resolve to the last).
enum KnownKey : unsigned {
  kSchema = 1u << 0,
  kMethods = 1u << 1,
  kToken = 1u << 2,
  kCodeSize = 1u << 3,
  kBounds = 1u << 4,
  kMap = 1u << 5,
  kNative = 1u << 6,
  kIl = 1u << 7,
  kSource = 1u << 8,
  kNativeStart = 1u << 9,
  kNativeEnd = 1u << 10,
  kInstantiation = 1u << 11,
  kTypeArguments = 1u << 12,
  kMethodArguments = 1u << 13,
  kUnboxingStub = 1u << 14,
  kMethodName = 1u << 15,
  kRaw = 1u << 16,
  kLayout = 1u << 17,
  kLayoutCount = 1u << 18,
  kNativeBits = 1u << 19,
  kIlBits = 1u << 20,
  kPadding = 1u << 21,
  kHeaderPadding = 1u << 22,
  kTruncate = 1u << 23,
  kNibbles = 1u << 24,
  kTrailing = 1u << 25,
  kVerbatimSource = 1u << 26,
};

struct KeyMeaning {
  unsigned bit = 0;  // 0: a key the object does not know
  Expect expect = Expect::Anything;
};

KeyMeaning keyMeaning(Expect container, const std::string& k) {
  switch (container) {
    case Expect::Root:
      if (k == "$schema") return {kSchema, Expect::Schema};
      if (k == "methods") return {kMethods, Expect::Methods};
      break;
    case Expect::Method:
      if (k == "token") return {kToken, Expect::Token};
      if (k == "codeSize") return {kCodeSize, Expect::CodeSize};
      if (k == "bounds") return {kBounds, Expect::Bounds};
      if (k == "map") return {kMap, Expect::Map};
      if (k == "instantiation") return {kInstantiation, Expect::Instantiation};
      if (k == "name") return {kMethodName, Expect::MethodName};
      if (k == "raw") return {kRaw, Expect::Raw};
      if (k == "layout") return {kLayout, Expect::Layout};
      break;
    case Expect::Layout:
      if (k == "count") return {kLayoutCount, Expect::LayoutCount};
      if (k == "nativeBits") return {kNativeBits, Expect::NativeBits};
      if (k == "ilBits") return {kIlBits, Expect::IlBits};
      if (k == "nibbles") return {kNibbles, Expect::Nibbles};
      if (k == "padding") return {kPadding, Expect::Padding};
      if (k == "headerPadding") return {kHeaderPadding, Expect::HeaderPadding};
      if (k == "verbatimSource") return {kVerbatimSource, Expect::VerbatimSource};
      if (k == "trailing") return {kTrailing, Expect::Trailing};
      if (k == "truncate") return {kTruncate, Expect::Truncate};
      break;
    case Expect::Instantiation:
      if (k == "type") return {kTypeArguments, Expect::TypeArguments};
      if (k == "method") return {kMethodArguments, Expect::MethodArguments};
      if (k == "unboxingStub") return {kUnboxingStub, Expect::UnboxingStub};
      break;
    case Expect::Bound:
      if (k == "native") return {kNative, Expect::Native};
      if (k == "il") return {kIl, Expect::Il};
      if (k == "source") return {kSource, Expect::Source};
      break;
    case Expect::MapEntry:
      if (k == "il") return {kIl, Expect::Il};
      if (k == "nativeStart") return {kNativeStart, Expect::NativeStart};
      if (k == "nativeEnd") return {kNativeEnd, Expect::NativeEnd};
      break;
    default: break;
  }
  return {};
}

const char* containerName(Expect role) {
  switch (role) {
    case Expect::Root: return "the description (expected \"methods\")";
    case Expect::Method:
      return "a method (expected \"token\", \"codeSize\", \"bounds\", \"map\", \"raw\", \"layout\", "
             "\"instantiation\" or \"name\")";
    case Expect::Layout:
      return "a layout (expected \"count\", \"nativeBits\", \"ilBits\", \"nibbles\", \"padding\", "
             "\"headerPadding\", \"verbatimSource\", \"trailing\" or \"truncate\")";
    case Expect::Instantiation: return "an instantiation (expected \"type\", \"method\" or \"unboxingStub\")";
    case Expect::Bound: return "a bound (expected \"native\", \"il\" or \"source\")";
    case Expect::MapEntry: return "an API entry (expected \"il\", \"nativeStart\" or \"nativeEnd\")";
    default: return "this object";
  }
}

const char* fieldName(Expect e) {
  switch (e) {
    case Expect::Token: return "token";
    case Expect::CodeSize: return "code size";
    case Expect::Native: return "native offset";
    case Expect::Il: return "IL offset";
    case Expect::NativeStart: return "native start";
    case Expect::NativeEnd: return "native end";
    case Expect::LayoutCount: return "count";
    case Expect::NativeBits: return "nativeBits";
    case Expect::IlBits: return "ilBits";
    case Expect::Padding: return "padding";
    case Expect::HeaderPadding: return "headerPadding";
    case Expect::Truncate: return "truncate";
    case Expect::NibbleCount: return "varint length";
    default: return "value";
  }
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
  explicit IlDescriptionReader(DiagnosticList& diagnostics) : SaxReader(diagnostics) {}

  // nlohmann's SAX interface (null, binary and parse_error: SaxReader's).
  bool boolean(bool value) {
    if (expected() == Expect::VerbatimSource) {
      layout_.verbatimSource = value;
      return done();
    }
    if (expected() != Expect::UnboxingStub) return scalar("a boolean");
    instantiation_.unboxingStub = value;
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
      case Expect::Instantiation: instantiation_ = {}; break;
      case Expect::Layout: break;
      case Expect::Nibbles: nibbleKeys_.clear(); break;
      default:
        wrongType(e, "an object");
        frames_.push_back(description::openFrame(Expect::Anything, true, Expect::Anything));
        return true;
    }
    frames_.push_back(description::openFrame(e, true, Expect::Anything));
    return true;
  }

  bool key(json::string_t& k) {
    Frame& f = frames_.back();
    f.member = f.members++;
    if (f.role == Expect::Anything) return true;  // inside a skipped value
    if (f.role == Expect::Nibbles) return nibblesKey(f, k);
    const KeyMeaning meaning = keyMeaning(f.role, k);
    f.key = std::move(k);
    f.expect = meaning.expect;
    if (meaning.bit == 0) {
      error(rules::kUnknownKey, [&] { return "unknown key " + quoteInput(f.key) + " in " + containerName(f.role); });
    } else if (f.seen & meaning.bit) {
      error(rules::kDuplicateKey, [&] { return "key " + quoteInput(f.key) + " is given more than once"; });
      f.expect = Expect::Anything;
    } else if (f.role == Expect::Method && (meaning.bit & (kBounds | kMap | kRaw))) {
      ++methodForms_;
    }
    f.seen |= meaning.bit;
    return true;
  }

  bool end_object() {
    const Frame f = std::move(frames_.back());
    frames_.pop_back();
    switch (f.role) {
      case Expect::Root:
        if (!(f.seen & kMethods))
          error(rules::kMissingField, [] { return std::string("the description has no \"methods\" array"); });
        break;
      case Expect::Method: endMethod(f); break;
      case Expect::Bound: endBound(f); break;
      case Expect::MapEntry: endMapEntry(f); break;
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
      case Expect::TypeArguments:
      case Expect::MethodArguments: element = Expect::TypeText; break;
      default:
        wrongType(e, "an array");
        frames_.push_back(description::openFrame(Expect::Anything, false, Expect::Anything));
        return true;
    }
    frames_.push_back(description::openFrame(e, false, element));
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
  void memberError(Severity severity, const char* rule, const char* member, Message&& message) {
    frames_.push_back(description::openFrame(Expect::Anything, true, Expect::Anything));
    frames_.back().key = member;
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
    f.key = std::move(k);
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

  void endBound(const Frame& f) {
    const bool complete = native_ && il_;
    if (!(f.seen & kNative))
      error(rules::kMissingField, [] { return std::string("a bound needs a \"native\" offset"); });
    if (!(f.seen & kIl)) error(rules::kMissingField, [] { return std::string("a bound needs an \"il\" offset"); });
    if (complete) {
      bound_.nativeOffset = *native_;
      bound_.ilOffset = *il_;
      if (lastNative_ && bound_.nativeOffset < *lastNative_) {
        memberError(Severity::Error, rules::kIlBoundsNotAscending, "native", [&] {
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

  void endMapEntry(const Frame& f) {
    if (!(f.seen & kIl)) error(rules::kMissingField, [] { return std::string("an API entry needs an \"il\" offset"); });
    if (!(f.seen & kNativeStart))
      error(rules::kMissingField, [] { return std::string("an API entry needs a \"nativeStart\""); });
    if (!(f.seen & kNativeEnd))
      error(rules::kMissingField, [] { return std::string("an API entry needs a \"nativeEnd\""); });
    if (il_ && nativeStart_ && nativeEnd_) method_.map.push_back(entry_);
    il_.reset();
    nativeStart_ = nativeEnd_ = false;
  }

  void endMethod(const Frame& f) {
    if (!(f.seen & kToken)) error(rules::kMissingField, [] { return std::string("a method needs a \"token\""); });
    if (methodForms_ == 0) {
      error(rules::kMissingField, [] { return std::string("a method needs one of \"bounds\", \"map\" or \"raw\""); });
    } else if (methodForms_ > 1) {
      error(rules::kConflictingFields,
            [] { return std::string("a method has exactly one of \"bounds\", \"map\" or \"raw\""); });
    }
    if ((f.seen & kRaw) && (f.seen & kLayout)) {
      memberError(Severity::Error, rules::kConflictingFields, "layout",
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
      memberError(Severity::Warning, rules::kIlCodeSizeBelowBound, "codeSize", [&] {
        return "code size " + std::to_string(*method_.codeSize) + " is below the last bound's native offset " +
               std::to_string(method_.bounds.back().nativeOffset) + ": the last API entry would end before it starts";
      });
    }
    if (token_) {
      method_.token = *token_;
      tokenKeys_.push_back({*token_, methodIndex_, instantiationKey(method_.instantiation)});
    }
    methods_.push_back(std::move(method_));
    method_ = {};
    token_.reset();
    lastNative_.reset();
  }

  // A method is identified by its token and its instantiation (one body per
  // instantiation of a generic method); the key spells the instantiation
  // ("" for none) with separators no type text contains.
  static std::string instantiationKey(const std::optional<il::Instantiation>& inst) {
    if (!inst) return {};
    std::string key = inst->unboxingStub ? "U" : "I";
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
      const bool instantiated = !tokenKeys_[i].instantiation.empty();
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

IlDescriptionParse parseIlDescription(std::string_view jsonText) {
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
