#pragma once
// What a PortablePdb keeps of what it decoded: document names and methods'
// sequence points, each within a bound (a hostile PDB's names and points
// could otherwise fill memory many times its size); when a new entry would
// pass the bound, the cache starts over. Not thread-safe: its owner locks.
#include <gdmap/pdb/portable_pdb.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace gdmap::pdb {

class PdbCaches {
 public:
  static constexpr std::size_t kMaxNameBytes = std::size_t{16} << 20;
  static constexpr std::size_t kMaxPoints = std::size_t{1} << 20;

  // The entry of `row`, or null.
  const std::string* name(std::uint32_t row) const;
  const std::vector<SequencePoint>* points(std::uint32_t row) const;

  // Keeps the entry of `row` and gives it back; one larger than the bound
  // is kept alone, until the next one.
  const std::string& keepName(std::uint32_t row, std::string name);
  const std::vector<SequencePoint>& keepPoints(std::uint32_t row, std::vector<SequencePoint> points);

 private:
  std::unordered_map<std::uint32_t, std::string> names_;
  std::size_t nameBytes_ = 0;
  std::unordered_map<std::uint32_t, std::vector<SequencePoint>> points_;
  std::size_t pointCount_ = 0;
};

}  // namespace gdmap::pdb
