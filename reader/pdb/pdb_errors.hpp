#pragma once
// The portable PDB reader's errors: pdb-invalid at a byte of the PDB, with
// the structure as its path; and the metadata reader's errors (rule
// invalid-metadata) restated as the PDB's.
#include <gdmap/schema/expected.hpp>

#include <cstddef>
#include <string>

namespace gdmap::pdb {

Error pdbInvalid(std::size_t at, std::string path, std::string message);

// `e` (from the metadata reader) as pdb-invalid: its offset kept; with a
// `path`, that path, the metadata reader's own one ("#Blob[12]") moved to
// the front of the message.
Error asPdbInvalid(Error e, const std::string& path = {});

}  // namespace gdmap::pdb
