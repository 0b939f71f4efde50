#pragma once
// Source lines of symbolized addresses: a method's IL offset to the
// document, line and column its portable PDB gives, the PDBs of many
// modules found once each.
#include <gdmap/pdb/portable_pdb.hpp>
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/symbolize/image_pdb.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gdmap::symbolize {

// The line a stack trace prints for IL offset `ilOffset` of the method
// `token` (a MethodDef, 0x06xxxxxx): PortablePdb::lineAt of its row;
// nothing for another kind of token, a row the PDB does not have, or a
// method without sequence points.
Expected<std::optional<pdb::SourceLine>> sourceLineOf(const ImagePdb& pdb, std::uint32_t token, std::uint32_t ilOffset);

// Why a module has no lines: its PDB was not found or could not be used.
struct PdbNote {
  std::string image;  // the module's file
  Error error;
};

// The PDBs of modules named by their files (a process's modules, the files
// a maps file names), each found as ImagePdb finds it (beside the file),
// the first time it is asked for, then kept.
class PdbCache {
 public:
  // The PDB of the image file `imagePath`; `image` is its bytes when the
  // caller has them mapped (else the file is mapped here to read its
  // debug directory). Null when it has none that can be used: the reason
  // is noted once (takeNotes).
  const ImagePdb* of(const std::string& imagePath, ByteSpan image = {});
  // The notes made since the last call.
  std::vector<PdbNote> takeNotes();

 private:
  std::unordered_map<std::string, std::optional<ImagePdb>> byPath_;
  std::vector<PdbNote> notes_;
};

}  // namespace gdmap::symbolize
