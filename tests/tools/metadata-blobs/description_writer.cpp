#include "description_writer.hpp"

#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/type_text.hpp>
#include <gdmap/writer/type_encoder.hpp>

#include <random>
#include <stdexcept>
#include <unordered_map>

namespace gdmap::metadata {
namespace {

// Synthetic RVAs: far apart enough to look like code addresses, small
// enough that ten million dictionaries stay below 2^32.
constexpr std::uint32_t kFirstRva = 0x00010000;
constexpr std::uint32_t kRvaStep = 0x10;
constexpr std::size_t kMaxDictionaries = (0xFFFFFFFFu - kFirstRva) / kRvaStep;
constexpr std::uint32_t kNoName = 0xFFFFFFFF;

std::string hexRva(std::uint32_t rva) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s = "0x00000000";
  for (int i = 9; i >= 2; --i, rva >>= 4) s[static_cast<std::size_t>(i)] = kDigits[rva & 0xF];
  return s;
}

// Fisher-Yates with a reduction of our own: std::shuffle and
// std::uniform_int_distribution may differ between standard libraries,
// and the shuffled description must be the same everywhere.
std::vector<std::size_t> permutation(std::size_t n, std::uint64_t seed) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::mt19937_64 random(seed);
  for (std::size_t i = n; i > 1; --i) {
    const std::size_t j = static_cast<std::size_t>(random() % i);
    std::swap(order[i - 1], order[j]);
  }
  return order;
}

void copyTokens(Type& type, std::size_t copy) {
  switch (type.element) {
    case ElementType::Class:
    case ElementType::ValueType:
    case ElementType::GenericInst:
    case ElementType::CModReqd:
    case ElementType::CModOpt:
      type.token.value = (type.token.value & 0xFF000000u) | copyRow(type.token.row(), copy);
      break;
    default: break;
  }
  for (Type& operand : type.operands) copyTokens(operand, copy);
}

// The harvest's distinct types, each spelled once per copy as it is needed.
class TypeSpellings {
 public:
  TypeSpellings(std::size_t copies, bool text) : copies_(copies), text_(text) {}

  std::uint32_t idOf(const std::string& hex) {
    const auto [it, inserted] = ids_.try_emplace(hex, static_cast<std::uint32_t>(hexes_.size()));
    if (inserted) hexes_.push_back(hex);
    return it->second;
  }

  const std::string& spelling(std::uint32_t id, std::size_t copy) {
    if (spellings_.empty()) spellings_.resize(copies_ * hexes_.size());
    std::string& s = spellings_[copy * hexes_.size() + id];
    if (!s.empty()) return s;
    const std::string& hex = hexes_[id];
    if (copy == 0 && !text_) return s = hex;  // the assembly's own bytes, as they are
    Expected<Bytes> bytes = parseHex(hex);
    Expected<Type> type = bytes ? decodeTypeBlob(*bytes) : Expected<Type>(bytes.error());
    if (!type) throw std::invalid_argument("type " + hex + " does not decode: " + type.error().message);
    copyTokens(*type, copy);
    if (text_) return s = formatType(*type);
    Expected<Bytes> encoded = encodeType(*type);
    if (!encoded) throw std::invalid_argument("type " + hex + " does not encode: " + encoded.error().message);
    return s = toHex(*encoded);
  }

 private:
  std::size_t copies_;
  bool text_;
  std::unordered_map<std::string, std::uint32_t> ids_;
  std::vector<std::string> hexes_;
  std::vector<std::string> spellings_;  // copy * hexes_.size() + id; empty until needed
};

}  // namespace

std::uint32_t copyRow(std::uint32_t row, std::size_t copy) {
  // Rows whose coded index (row << 2 | tag) compresses to 1, 2 and 4 bytes,
  // each rotated by a stride prime to its size; rows past 2^24 are kept.
  struct SizeClass {
    std::uint32_t first, last, stride;
  };
  static constexpr SizeClass kClasses[] = {{1, 31, 7}, {32, 4095, 997}, {4096, 0xFFFFFF, 1000003}};
  for (const SizeClass& c : kClasses) {
    if (row < c.first || row > c.last) continue;
    const std::uint64_t span = c.last - c.first + 1;
    return c.first + static_cast<std::uint32_t>((row - c.first + copy * std::uint64_t{c.stride}) % span);
  }
  return row;
}

void DescriptionWriter::add(std::vector<std::string> typesHex) {
  if (dictionaries_.size() >= kMaxDictionaries) {
    throw std::length_error("too many dictionaries for 32-bit synthetic RVAs");
  }
  dictionaries_.push_back(std::move(typesHex));
}

void DescriptionWriter::write(std::ostream& out, const DescriptionOptions& options) const {
  const std::size_t base = dictionaries_.size();
  const std::size_t n = options.dictionaries.value_or(base);
  if (n > kMaxDictionaries) throw std::length_error("too many dictionaries for 32-bit synthetic RVAs");
  if (n > 0 && base == 0) throw std::invalid_argument("no instantiation to copy");
  const std::size_t copies = base == 0 ? 1 : (n + base - 1) / base;
  const bool shuffled = options.shuffleSeed.has_value();

  // Each harvested dictionary's instantiation (by its types) and its
  // occurrence number in its copy (in the unshuffled order, so the choice
  // is stable).
  TypeSpellings spellings(copies, options.text);
  std::vector<std::vector<std::uint32_t>> typeIds(base);
  std::unordered_map<std::string, std::uint32_t> instantiationIds;
  std::vector<std::uint32_t> instantiationOf(base);
  std::vector<std::size_t> occurrences;
  std::vector<std::size_t> occurrenceIndex(base);
  for (std::size_t i = 0; i < base; ++i) {
    std::string key;
    for (const std::string& t : dictionaries_[i]) {
      typeIds[i].push_back(spellings.idOf(t));
      key += t;
      key += ',';
    }
    const auto [it, inserted] = instantiationIds.try_emplace(key, static_cast<std::uint32_t>(occurrences.size()));
    if (inserted) occurrences.push_back(0);
    instantiationOf[i] = it->second;
    occurrenceIndex[i] = occurrences[it->second]++;
  }
  // A copy of the instantiation is shared when it occurs twice among the n
  // (the last copy may be cut short).
  const std::size_t perCopy = occurrences.size();
  const auto slotOf = [&](std::size_t i) { return (i / base) * perCopy + instantiationOf[i % base]; };
  std::vector<std::uint32_t> uses(copies * perCopy, 0);
  for (std::size_t i = 0; i < n; ++i) ++uses[slotOf(i)];
  const auto shared = [&](std::size_t i) { return uses[slotOf(i)] >= 2; };

  std::vector<std::size_t> outputOrder;
  if (shuffled) {
    outputOrder = permutation(n, *options.shuffleSeed);
  } else {
    outputOrder.resize(n);
    for (std::size_t i = 0; i < n; ++i) outputOrder[i] = i;
  }

  // Names in order of first appearance in the output, one per (copy,
  // instantiation); the prefix differs when shuffled so that renaming is
  // exercised too.
  const std::string prefix = shuffled ? "shuffled" + std::to_string(*options.shuffleSeed) + "_" : "inst";
  std::vector<std::uint32_t> names(copies * perCopy, kNoName);
  std::vector<std::size_t> namedFirst;  // dictionary index of each name's first use
  const auto nameSlot = [&](std::size_t i) -> std::uint32_t& { return names[slotOf(i)]; };
  for (std::size_t i : outputOrder) {
    if (!shared(i) || nameSlot(i) != kNoName) continue;
    nameSlot(i) = static_cast<std::uint32_t>(namedFirst.size());
    namedFirst.push_back(i);
  }

  const auto writeTypes = [&](std::size_t i) {
    const std::vector<std::uint32_t>& ids = typeIds[i % base];
    out << '[';
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const std::string& s = spellings.spelling(ids[k], i / base);
      if (options.text) out << (k ? ", \"" : "\"") << s << '"';
      else out << (k ? ", " : "") << "{ \"hex\": \"" << s << "\" }";
    }
    out << ']';
  };

  out << "{\n  \"sorted\": true,\n  \"instantiations\": {";
  for (std::size_t k = 0; k < namedFirst.size(); ++k) {
    out << (k ? ",\n    \"" : "\n    \"") << prefix << k << "\": ";
    writeTypes(namedFirst[k]);
  }
  out << (namedFirst.empty() ? "},\n" : "\n  },\n");

  out << "  \"dictionaries\": [";
  const unsigned flip = shuffled ? 1 : 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = outputOrder[k];
    const std::uint32_t rva = kFirstRva + static_cast<std::uint32_t>(i) * kRvaStep;
    out << (k ? ",\n    { \"rva\": " : "\n    { \"rva\": ");
    if ((i + flip) % 3 == 0) {
      out << rva;
    } else {
      out << '"' << hexRva(rva) << '"';
    }
    if (shared(i) && (occurrenceIndex[i % base] + flip) % 2 == 0) {
      out << ", \"instantiation\": \"" << prefix << nameSlot(i) << "\" }";
    } else {
      out << ", \"types\": ";
      writeTypes(i);
      out << " }";
    }
  }
  out << (n ? "\n  ]\n}\n" : "]\n}\n");
}

}  // namespace gdmap::metadata
