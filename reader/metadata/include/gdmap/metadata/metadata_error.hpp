#pragma once
// The one error every layer of the metadata reader throws: the file is not
// what ECMA-335 says it should be. main() turns it into a message and exit 1.
#include <stdexcept>
#include <string>

namespace gdmap::metadata {

class MetadataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace gdmap::metadata
