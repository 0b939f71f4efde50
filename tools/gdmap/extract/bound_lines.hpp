#pragma once
// `il extract --lines`: each bound's source line, from the portable PDB of
// the method's module (symbolize::ImagePdb, PortablePdb::lineAt: the line a
// stack trace prints for the bound's IL offset).
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/il_map.hpp>
#include <gdmap/symbolize/image_pdb.hpp>

namespace gdmap::cli {

// Sets method.lines, one per bound (none for a prolog, epilog or unmapped
// bound, or an IL offset before the method's first sequence point). Errors:
// the PDB's (pdb-invalid), the method named in the message.
Status addBoundLines(il::Method& method, const symbolize::ImagePdb& pdb);

}  // namespace gdmap::cli
