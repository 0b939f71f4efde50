#include "pdb_caches.hpp"

#include <utility>

namespace gdmap::pdb {

const std::string* PdbCaches::name(std::uint32_t row) const {
  const auto found = names_.find(row);
  return found == names_.end() ? nullptr : &found->second;
}

const std::vector<SequencePoint>* PdbCaches::points(std::uint32_t row) const {
  const auto found = points_.find(row);
  return found == points_.end() ? nullptr : &found->second;
}

const std::string& PdbCaches::keepName(std::uint32_t row, std::string name) {
  if (nameBytes_ + name.size() > kMaxNameBytes) {
    names_.clear();
    nameBytes_ = 0;
  }
  nameBytes_ += name.size();
  return names_.insert_or_assign(row, std::move(name)).first->second;
}

const std::vector<SequencePoint>& PdbCaches::keepPoints(std::uint32_t row, std::vector<SequencePoint> points) {
  if (pointCount_ + points.size() > kMaxPoints) {
    points_.clear();
    pointCount_ = 0;
  }
  pointCount_ += points.size();
  return points_.insert_or_assign(row, std::move(points)).first->second;
}

}  // namespace gdmap::pdb
