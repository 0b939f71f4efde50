#include "pdb_errors.hpp"

#include <gdmap/schema/rules.hpp>

#include <utility>

namespace gdmap::pdb {

Error pdbInvalid(std::size_t at, std::string path, std::string message) {
  return Error(at, OffsetUnit::Byte, std::move(path), std::move(message), rules::kPdbInvalid);
}

Error asPdbInvalid(Error e, const std::string& path) {
  e.rule = rules::kPdbInvalid;
  if (!path.empty()) {
    if (!e.path.empty()) e.message = e.path + ": " + e.message;
    e.path = path;
  }
  return e;
}

}  // namespace gdmap::pdb
