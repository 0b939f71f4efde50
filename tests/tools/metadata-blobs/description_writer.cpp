#include "description_writer.hpp"

#include <random>
#include <stdexcept>
#include <unordered_map>

namespace gdmap::metadata {
namespace {

// Synthetic RVAs: far apart enough to look like code addresses, small
// enough that a million dictionaries stay below 2^32.
constexpr std::uint32_t kFirstRva = 0x00010000;
constexpr std::uint32_t kRvaStep = 0x10;
constexpr std::size_t kMaxDictionaries = (0xFFFFFFFFu - kFirstRva) / kRvaStep;

std::string joinKey(const std::vector<std::string>& types) {
  std::string key;
  for (const std::string& t : types) {
    key += t;
    key += ',';
  }
  return key;
}

std::string hexRva(std::uint32_t rva) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s = "0x00000000";
  for (int i = 9; i >= 2; --i, rva >>= 4) s[static_cast<std::size_t>(i)] = kDigits[rva & 0xF];
  return s;
}

void writeTypes(std::ostream& out, const std::vector<std::string>& types) {
  out << '[';
  for (std::size_t i = 0; i < types.size(); ++i) {
    out << (i ? ", " : "") << "{ \"hex\": \"" << types[i] << "\" }";
  }
  out << ']';
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

}  // namespace

void DescriptionWriter::add(std::vector<std::string> typesHex) {
  if (dictionaries_.size() >= kMaxDictionaries) {
    throw std::length_error("too many dictionaries for 32-bit synthetic RVAs");
  }
  dictionaries_.push_back(std::move(typesHex));
}

void DescriptionWriter::write(std::ostream& out, std::optional<std::uint64_t> shuffleSeed) const {
  const std::size_t n = dictionaries_.size();
  const bool shuffled = shuffleSeed.has_value();

  // How often each instantiation occurs, and its occurrence number at each
  // dictionary (in the unshuffled order, so the choice is stable).
  std::unordered_map<std::string, std::size_t> occurrences;
  std::vector<std::string> keys(n);
  std::vector<std::size_t> occurrenceIndex(n);
  for (std::size_t i = 0; i < n; ++i) {
    keys[i] = joinKey(dictionaries_[i]);
    occurrenceIndex[i] = occurrences[keys[i]]++;
  }

  std::vector<std::size_t> outputOrder;
  if (shuffled) {
    outputOrder = permutation(n, *shuffleSeed);
  } else {
    for (std::size_t i = 0; i < n; ++i) outputOrder.push_back(i);
  }

  // Names in order of first appearance in the output; the prefix differs
  // when shuffled so that renaming is exercised too.
  const std::string prefix = shuffled ? "shuffled" + std::to_string(*shuffleSeed) + "_" : "inst";
  std::unordered_map<std::string, std::string> names;
  std::vector<std::size_t> namedFirst;  // dictionary index of each name's first use
  for (std::size_t i : outputOrder) {
    if (occurrences[keys[i]] < 2) continue;
    auto [it, inserted] = names.try_emplace(keys[i], prefix + std::to_string(names.size()));
    if (inserted) namedFirst.push_back(i);
  }

  out << "{\n  \"sorted\": true,\n  \"instantiations\": {";
  for (std::size_t k = 0; k < namedFirst.size(); ++k) {
    const std::size_t i = namedFirst[k];
    out << (k ? ",\n    \"" : "\n    \"") << names[keys[i]] << "\": ";
    writeTypes(out, dictionaries_[i]);
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
    const bool shared = occurrences[keys[i]] >= 2;
    if (shared && (occurrenceIndex[i] + flip) % 2 == 0) {
      out << ", \"instantiation\": \"" << names[keys[i]] << "\" }";
    } else {
      out << ", \"types\": ";
      writeTypes(out, dictionaries_[i]);
      out << " }";
    }
  }
  out << (n ? "\n  ]\n}\n" : "]\n}\n");
}

}  // namespace gdmap::metadata
