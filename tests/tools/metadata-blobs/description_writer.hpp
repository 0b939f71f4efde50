#pragma once
// Builds a gdmap JSON description (issue 3) from generic instantiations
// found in real assemblies: one dictionary per instantiation, synthetic
// sequential RVAs, every type given as { "hex": "..." }.
//
// Instantiations that occur more than once are named in "instantiations";
// their occurrences alternate between referring to the name and repeating
// the types inline, and RVAs alternate between JSON integers and "0x..."
// strings, so a build exercises every path. A shuffle seed permutes the
// dictionaries, renames the instantiations and flips both alternations:
// the description changes everywhere, the map it describes does not.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace gdmap::metadata {

class DescriptionWriter {
 public:
  // One dictionary; each element is one type's lowercase hex.
  void add(std::vector<std::string> typesHex);

  std::size_t size() const { return dictionaries_.size(); }

  void write(std::ostream& out, std::optional<std::uint64_t> shuffleSeed) const;

 private:
  std::vector<std::vector<std::string>> dictionaries_;
};

}  // namespace gdmap::metadata
