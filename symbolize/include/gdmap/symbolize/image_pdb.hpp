#pragma once
// The portable PDB of a .NET image, found as a debugger finds it and checked
// against the image: the source lines of a symbolized address come from it.
#include <gdmap/pdb/portable_pdb.hpp>
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <memory>
#include <string>

namespace gdmap::symbolize {

class ImagePdb {
 public:
  // The portable PDB of `image` (a PE file's bytes, read from `imagePath`):
  // the file `pdbPath` when it is not empty; else the PDB embedded in the
  // image (debug directory entry 17); else, beside the image, the file name
  // of the image's CodeView path, then the image's own name with ".pdb".
  // The PDB found is checked against the image's CodeView entries
  // (pdb-id-mismatch); none found: pdb-not-found. The result owns the PDB's
  // bytes; `image` need not outlive it.
  static Expected<ImagePdb> open(ByteSpan image, const std::string& imagePath, const std::string& pdbPath);

  const pdb::PortablePdb& pdb() const;
  // Where the PDB was read from: its file's path, or "<embedded>".
  const std::string& source() const;

 private:
  struct State;
  explicit ImagePdb(std::shared_ptr<const State> state) : state_(std::move(state)) {}
  // Shared and immutable: the PDB's bytes never move, and copies (a cache of
  // images' PDBs) are cheap.
  std::shared_ptr<const State> state_;
};

}  // namespace gdmap::symbolize
