#pragma once
// The meaning of a description, independent of how its JSON is read: turns
// the values the JSON reader hands over (type text, hex, RVAs, names) into a
// MapDescription, and checks the rules that span entries (names defined and
// used, RVAs unique). Every check reports to a DiagnosticList at a Site,
// whose JSON pointer is built only if the diagnostic is kept. Built to
// stream: nothing here is quadratic, and nothing is kept per dictionary
// beyond what the result needs.
#include <gdmap/internal/description_diagnostics.hpp>
#include <gdmap/internal/huge_pages.hpp>
#include <gdmap/internal/waiting_queue.hpp>
#include <gdmap/schema/map_description.hpp>
#include <gdmap/schema/type_names.hpp>
#include <gdmap/writer/map_builder.hpp>
#include "name_index.hpp"
#include "type_bytes_cache.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace gdmap::description {

// A list of types as the JSON reader collects it: the Type trees, for a
// MapDescription, or (streaming into a map) only their canonical encoding.
struct TypeList {
  std::vector<Type> types;  // kept when the builder keeps the model
  Bytes encoded;            // the types' bytes back to back, when streaming
  std::uint32_t count = 0;
  void clear() {
    types.clear();
    encoded.clear();
    count = 0;
  }
};

// One dictionary as the JSON reader collected it.
struct DictionaryFields {
  std::size_t jsonIndex = 0;  // its index in /dictionaries
  std::optional<std::uint32_t> rva;
  // The name, when given as a string: the reader's, valid until the
  // dictionary is added.
  std::optional<std::string_view> instantiation;
  std::optional<TypeList> types;        // when a valid `types` array was given (model)
  bool inlineTypes = false;             // the same, waiting in the builder (streaming)
  std::optional<Bytes> raw;             // when a valid `raw` string was given
  unsigned forms = 0;                   // how many of instantiation/types/raw are present
  std::optional<std::uint32_t> offset;  // when a valid `offset` was given
  bool offsetGiven = false;             // `offset` present, valid or not

  // Empty again, for dictionary `index` (member by member: a fresh object
  // assigned would be zeroed whole first, for each of millions).
  void reset(std::size_t index) {
    jsonIndex = index;
    rva.reset();
    instantiation.reset();
    types.reset();
    inlineTypes = false;
    raw.reset();
    forms = 0;
    offset.reset();
    offsetGiven = false;
  }
};

class DescriptionBuilder {
 public:
  // What the builder makes of the description: the MapDescription (the
  // Type model, for library users), or the map itself, streamed: each type
  // validated and encoded once (cached by its text), each dictionary handed
  // to a MapBuilder as it comes, no Type kept. Both report exactly the same
  // diagnostics.
  enum class Output { Model, Map };
  DescriptionBuilder(DiagnosticList& diagnostics, Output output = Output::Model)
      : diagnostics_(diagnostics), streaming_(output == Output::Map) {}

  void setSorted(bool sorted) { sorted_ = sorted; }
  // Type text may name types through `names` (--names ASSEMBLY).
  void setTypeNames(const TypeNames* names) { typeNames_ = names; }
  // /layout's members (overrides: each reports a layout-override note at
  // `site` when it makes bytes a canonical build would not write).
  void setCount(std::uint32_t count, const Site& site);
  void setDuplicateRvas(bool allowed, const Site& site);
  void addFill(std::uint32_t offset, Bytes bytes, const Site& site);
  void setTrailing(Bytes bytes, const Site& site);
  void setTruncate(std::uint64_t size, const Site& site);
  // Hex bytes, possibly none; reports invalid-hex. Fill, trailing, `raw`
  // and `{"hex"}` all read their bytes through it.
  std::optional<Bytes> bytesFromHex(std::string_view hex, const Site& site);
  // Streaming: room for every dictionary a text of this size can hold, so
  // that no table is copied as it grows (the pages a reservation does not
  // use are never touched, so they cost address space, not memory).
  void reserveForText(std::size_t textBytes);

  // A member of /instantiations (`site` is where it is). Returns false (and
  // reports) when the name was already defined; its types then go nowhere.
  // `keyEnd`: the text offset just past the name's closing quote (where
  // a diagnostic about it made later is found without a scan).
  bool beginNamed(std::string_view name, const Site& site, std::size_t keyEnd = Diagnostic::npos);
  // The types of the current member of /instantiations, and of a
  // dictionary's `types`. Streaming, the list is interned as an item and
  // left for reuse (cleared); otherwise its types are taken.
  void setNamedTypes(TypeList& types);
  void setInlineTypes(DictionaryFields& dictionary, TypeList& types);

  // Takes part in the cross-entry checks and the result only when it has a
  // valid RVA and exactly one form (the reader reports what is missing).
  // Takes what it keeps out of `fields` (moved), which is then to be reset.
  void addDictionary(DictionaryFields& fields);
  // The end of /dictionaries: every dictionary that names an instantiation
  // is looked up before /instantiations may define more.
  void endDictionaries();

  // Values; each reports its own problem at `site` (whose pointer is built
  // only when the problem is kept: most values have none, and there are
  // millions) and returns nullopt.
  // A type, appended to `list`; false (reported) when it is not valid.
  bool addTypeText(TypeList& list, std::string_view text, const Site& site);
  bool addTypeHex(TypeList& list, std::string_view hex, const Site& site);
  std::optional<Bytes> rawFromHex(std::string_view hex, const Site& site);
  std::optional<std::uint32_t> rvaFromString(std::string_view text, const Site& site);

  // The cross-entry checks, then the description (nullopt after any error).
  // Output::Model only.
  std::optional<MapDescription> finish();
  // The cross-entry checks, then the map (nullopt after any error), with
  // the MapBuilder that made it for reading it back. Output::Map only.
  std::optional<Bytes> finishMap();
  const MapBuilder& mapBuilder() const { return map_; }

 private:
  // An index into unnamed_ rather than named_, until finish() appends them.
  static constexpr std::size_t kUnnamedFlag = std::size_t{1} << (sizeof(std::size_t) * 8 - 1);
  // The type caches stop growing here, so that a description whose types
  // are all different does not hold each one twice.
  static constexpr std::size_t kTypeCacheLimit = 1 << 16;

  // A dictionary naming an instantiation not defined (yet) when it was
  // read. Its name is kept in pendingNameText_, not in a string of its own:
  // a description that defines its instantiations last has a million.
  struct PendingName {
    std::size_t dictionary;  // index into dictionaries_ (model) or the MapBuilder's entries
    std::size_t jsonIndex;
    std::size_t nameOffset;  // in pendingNameText_
    std::size_t nameLength;
  };
  void addPending(std::size_t dictionary, std::size_t jsonIndex, std::string_view name);
  // addDictionary()'s two ways, for a dictionary of one form.
  void streamDictionary(DictionaryFields& fields);
  void collectDictionary(DictionaryFields& fields);

  void reportDuplicateRvas();
  // An error of MapBuilder::finish(), where its message says it is.
  void reportMapError(const Error& error);
  void resolvePendingNames();
  void reportUnusedNames();
  // Streaming: appends a type's canonical bytes (cached by spelling).
  bool appendEncodedText(TypeList& list, std::string_view text, const Site& site);
  bool appendEncodedHex(TypeList& list, std::string_view hex, const Site& site);
  std::optional<Type> typeFromText(std::string_view text, const Site& site);
  std::optional<Type> typeFromHex(std::string_view hex, const Site& site);
  // Streaming: whether dictionaries still go to the MapBuilder (not after
  // an error: there will be no map, only diagnostics).
  bool feeding() const { return streaming_ && diagnostics_.errorCount() == 0; }

  DiagnosticList& diagnostics_;
  const TypeNames* typeNames_ = nullptr;
  bool streaming_ = false;
  bool sorted_ = true;
  LayoutOverrides layout_;
  // /layout/count's note waits for the number of dictionaries.
  bool countGiven_ = false;
  void noteCount();
  NameIndex names_;  // the names of /instantiations, and each one's index
  // Output::Model only: the instantiations, by names_'s index.
  std::vector<InstantiationDescription> named_;
  std::vector<bool> used_;            // per name
  std::vector<std::size_t> keyEnds_;  // per name: beginNamed()'s keyEnd
  std::size_t currentNamed_ = SIZE_MAX;
  std::vector<InstantiationDescription> unnamed_;
  std::vector<DictionaryDescription> dictionaries_;
  // Dictionaries that name an instantiation defined later in the file.
  std::vector<PendingName> pendingNames_;
  std::string pendingNameText_;
  // rva << 32 | jsonIndex: sorted once at the end to find duplicates without
  // a hash node per dictionary.
  detail::HugePageVector<std::uint64_t> rvaKeys_;
  std::unordered_map<std::string, Type> textTypes_;
  std::unordered_map<std::string, Type> hexTypes_;
  // {"hex"} spellings already warned about (non-minimal integers): once
  // each, however the caches above evict, so both outputs say the same.
  std::unordered_set<std::string> warnedHex_;
  // Streaming: the map, each named instantiation's item (kItemLater until
  // its types are known and valid), and the canonical bytes of types.
  MapBuilder map_;
  std::vector<MapBuilder::ItemId> namedItems_;
  // Dictionaries naming an instantiation wait here a few dictionaries
  // while their name's slot is prefetched (resolveNamedReference()).
  struct NamedReference {
    std::size_t dictionary;  // in the map builder
    std::size_t jsonIndex;
    std::uint64_t hash;
  };
  detail::WaitingQueue<NamedReference, char> namedWaiting_;  // each with its name
  void resolveNamedReference();
  // The current dictionary's inline types, encoded (setInlineTypes() to
  // addDictionary()).
  Bytes inlineBytes_;
  std::uint32_t inlineCount_ = 0;
  TypeBytesCache textBytes_{kTypeCacheLimit};
  TypeBytesCache hexBytes_{kTypeCacheLimit};
  Bytes scratch_;  // a type's bytes as encoded on a cache miss
};

}  // namespace gdmap::description
