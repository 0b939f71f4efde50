#pragma once
// Which sequence point a .NET stack trace takes the line of, for an IL
// offset of a method.
#include <gdmap/pdb/portable_pdb.hpp>

#include <cstdint>
#include <vector>

namespace gdmap::pdb {

// The rule of System.Diagnostics.StackTrace (dotnet/runtime,
// src/libraries/System.Diagnostics.StackTrace/src/System/Diagnostics/
// StackTraceSymbols.cs, GetSourceLineInfo): it enumerates the method's
// sequence points in blob order, stops at the first one whose IL offset is
// greater than the frame's, and remembers the last point before that whose
// StartLine is not the hidden line 0xFEEFEE; no such point, no line.
// `points` ascend strictly in IL offset (δILOffset is non-zero past the
// first record), so the points it walks are those up to the last one at or
// before `ilOffset`, found here by binary search, and the one it keeps is
// the nearest non-hidden one from there back. Null when there is none.
const SequencePoint* stackTracePoint(const std::vector<SequencePoint>& points, std::uint32_t ilOffset);

}  // namespace gdmap::pdb
