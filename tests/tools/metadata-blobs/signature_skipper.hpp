#pragma once
// Just enough of the ECMA-335 Type grammar (II.23.2.12, with custom
// modifiers and `pinned` allowed before any type, as FORMAT.md §2 says) to
// find where each type of an argument list ends. Written independently of
// gdmap's decoder on purpose: the corpus tests compare the two.
#include <gdmap/schema/bytes.hpp>

#include <optional>
#include <stdexcept>
#include <vector>

namespace gdmap::metadata {

// How this driver reports a malformed file: thrown, and caught in main()
// (the library's readers return Errors; the driver turns them into this).
class MalformedAssembly : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The argument types of a GENERICINST TypeSpec blob (15 11|12 token count
// type...), each as its own bytes; nullopt when the blob is another form.
// Throws MalformedAssembly on a malformed blob.
std::optional<std::vector<ByteSpan>> genericInstanceArguments(ByteSpan typeSpec);

// The argument types of a MethodSpec instantiation blob (0A count type...).
// Throws MalformedAssembly on a malformed blob.
std::vector<ByteSpan> methodSpecArguments(ByteSpan instantiation);

}  // namespace gdmap::metadata
