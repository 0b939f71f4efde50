#include <gdmap/pdb/debug_directory.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <string>

namespace gdmap::pdb {
namespace {

// Bytes [from, from + count) of the id as a little-endian number in hex
// (the GUID's first three fields and the stamp).
void appendLittleEndian(const PdbId& id, std::size_t from, std::size_t count, std::string& out) {
  for (std::size_t i = count; i-- > 0;) {
    out += hexDigit(id.bytes[from + i] >> 4);
    out += hexDigit(id.bytes[from + i]);
  }
}

}  // namespace

std::string PdbId::text() const {
  // Guid.ToString("D"): Data1 (4 bytes), Data2 and Data3 (2 each) little-
  // endian, then Data4's 8 bytes in order, grouped 2 and 6.
  std::string out;
  appendLittleEndian(*this, 0, 4, out);
  out += '-';
  appendLittleEndian(*this, 4, 2, out);
  out += '-';
  appendLittleEndian(*this, 6, 2, out);
  out += '-';
  appendHex(ByteSpan(bytes).subspan(8, 2), out);
  out += '-';
  appendHex(ByteSpan(bytes).subspan(10, 6), out);
  out += ":0x";
  appendLittleEndian(*this, 16, 4, out);
  return out;
}

Status checkPdbMatches(const DebugDirectory& directory, const PdbId& pdbId) {
  std::string named;
  for (const CodeViewEntry& entry : directory.codeView) {
    if (!entry.portable) continue;
    if (entry.id == pdbId) return Success{};
    if (named.empty())
      named = entry.id.text() + " (" + entry.path + ", at file offset " + std::to_string(entry.offset) + ")";
  }
  if (named.empty())
    return Error(0, "the image names no portable PDB (no CodeView entry of a portable one), the PDB is " + pdbId.text(),
                 rules::kPdbIdMismatch);
  return Error(0, "the PDB is " + pdbId.text() + ", the image was built with " + named, rules::kPdbIdMismatch);
}

}  // namespace gdmap::pdb
