#pragma once
// The meaning of a description, independent of how its JSON is read: turns
// the values the JSON reader hands over (type text, hex, RVAs, names) into a
// MapDescription, and checks the rules that span entries (names defined and
// used, RVAs unique). Every check reports to a DiagnosticList at a Site,
// whose JSON pointer is built only if the diagnostic is kept. Built to
// stream: nothing here is quadratic, and nothing is kept per dictionary
// beyond what the result needs.
#include <gdmap/schema/map_description.hpp>
#include "description_diagnostics.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gdmap::description {

// One dictionary as the JSON reader collected it.
struct DictionaryFields {
  std::size_t jsonIndex = 0;  // its index in /dictionaries
  std::optional<std::uint32_t> rva;
  std::optional<std::string> instantiation;  // the name, when given as a string
  std::optional<std::vector<Type>> types;    // when a `types` array was given
  std::optional<Bytes> raw;                  // when a valid `raw` string was given
  unsigned forms = 0;                        // how many of instantiation/types/raw are present
};

class DescriptionBuilder {
 public:
  explicit DescriptionBuilder(DiagnosticList& diagnostics) : diagnostics_(diagnostics) {}

  void setSorted(bool sorted) { sorted_ = sorted; }

  // A member of /instantiations (`site` is where it is). Returns false (and
  // reports) when the name was already defined; its types then go nowhere.
  bool beginNamed(const std::string& name, const Site& site);
  void setNamedTypes(std::vector<Type> types);

  // Takes part in the cross-entry checks and the result only when it has a
  // valid RVA and exactly one form (the reader reports what is missing).
  void addDictionary(DictionaryFields fields);

  // Values; each reports its own problem at `site` (whose pointer is built
  // only when the problem is kept: most values have none, and there are
  // millions) and returns nullopt.
  std::optional<Type> typeFromText(const std::string& text, const Site& site);
  std::optional<Type> typeFromHex(const std::string& hex, const Site& site);
  std::optional<Bytes> rawFromHex(const std::string& hex, const Site& site);
  std::optional<std::uint32_t> rvaFromString(const std::string& text, const Site& site);

  // The cross-entry checks, then the description (nullopt after any error).
  std::optional<MapDescription> finish();

 private:
  // An index into unnamed_ rather than named_, until finish() appends them.
  static constexpr std::size_t kUnnamedFlag = std::size_t{1} << (sizeof(std::size_t) * 8 - 1);
  // The type caches stop growing here, so that a description whose types
  // are all different does not hold each one twice.
  static constexpr std::size_t kTypeCacheLimit = 1 << 16;

  struct PendingName {
    std::size_t dictionary;  // index into dictionaries_
    std::size_t jsonIndex;
    std::string name;
  };

  void reportDuplicateRvas();
  void resolvePendingNames();

  DiagnosticList& diagnostics_;
  bool sorted_ = true;
  std::vector<InstantiationDescription> named_;
  std::vector<bool> used_;  // per named_ entry
  std::unordered_map<std::string, std::size_t> names_;
  std::size_t currentNamed_ = SIZE_MAX;
  std::vector<InstantiationDescription> unnamed_;
  std::vector<DictionaryDescription> dictionaries_;
  // Dictionaries that name an instantiation defined later in the file.
  std::vector<PendingName> pendingNames_;
  // rva << 32 | jsonIndex: sorted once at the end to find duplicates without
  // a hash node per dictionary.
  std::vector<std::uint64_t> rvaKeys_;
  std::unordered_map<std::string, Type> textTypes_;
  std::unordered_map<std::string, Type> hexTypes_;
};

}  // namespace gdmap::description
