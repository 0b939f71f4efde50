#pragma once
// Builds a gdmap JSON description (issue 3) from generic instantiations
// found in real assemblies: one dictionary per instantiation, synthetic
// sequential RVAs, every type given as { "hex": "..." } (or as ILAsm text).
//
// Instantiations that occur more than once are named in "instantiations";
// their occurrences alternate between referring to the name and repeating
// the types inline, and RVAs alternate between JSON integers and "0x..."
// strings, so a build exercises every path. A shuffle seed permutes the
// dictionaries, renames the instantiations and flips both alternations:
// the description changes everywhere, the map it describes does not.
//
// A description of more dictionaries than the assemblies have (issue 21's
// real-pipeline workload) repeats them as copies: copy c > 0 has every
// TypeDef, TypeRef and TypeSpec row moved (see copyToken()), as if the
// same code had been compiled against another build of its assemblies.
// Each copy keeps the real types' shapes, sizes and share of repeats, so
// the description's share of distinct types is that of the assemblies at
// any size, rather than falling as plain repetition would make it.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace gdmap::metadata {

struct DescriptionOptions {
  std::optional<std::uint64_t> shuffleSeed;
  // This many dictionaries (copies of the assemblies' as needed); all of
  // them, once, when not given.
  std::optional<std::size_t> dictionaries;
  // Types as ILAsm text (tokens as 0x... numbers) instead of hex.
  bool text = false;
};

class DescriptionWriter {
 public:
  // One dictionary; each element is one type's lowercase hex.
  void add(std::vector<std::string> typesHex);

  std::size_t size() const { return dictionaries_.size(); }

  // Throws std::length_error past 2^28 dictionaries (the RVAs' room) and
  // std::invalid_argument when a copy is asked of an empty harvest.
  void write(std::ostream& out, const DescriptionOptions& options) const;

 private:
  std::vector<std::vector<std::string>> dictionaries_;
};

// The token row `row` (1-based) in copy `copy`: rotated within the rows
// whose coded index has the same compressed size (1, 2 or 4 bytes), so a
// copied type has the bytes' length of the original. Copy 0 is the
// identity.
std::uint32_t copyRow(std::uint32_t row, std::size_t copy);

}  // namespace gdmap::metadata
