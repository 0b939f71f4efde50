#pragma once
// The IL bodies of an assembly's MethodDef rows (ECMA-335 II.22.26 and
// II.25.4): how many bytes of IL each has, so that a reader of the code
// compiled from it (a ReadyToRun image's bounds) can check that every IL
// offset it reads lies inside the method's IL.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace gdmap::metadata {

struct MethodIl {
  // The IL's size in bytes (the tiny or fat header's CodeSize); absent for
  // a method without a body (RVA 0: abstract, P/Invoke, runtime-provided)
  // or whose header cannot be read.
  std::optional<std::uint32_t> codeSize;
  // MethodImplAttributes.Async (0x2000, runtime async, .NET 11): the
  // precompiled Task-returning body is a thunk the runtime makes, whose
  // bounds name the thunk's own IL, not this body's.
  bool runtimeAsync = false;
};

// By MethodDef row - 1. Errors: the PE reader's and the metadata reader's
// (as AssemblyTypeNames::open gives them); a header that cannot be read is
// no error here (the body's size is then unknown).
Expected<std::vector<MethodIl>> methodIlBodies(ByteSpan file);

// Whether MethodDef `row` carries [System.Runtime.CompilerServices.Intrinsic]:
// the compiler may compile IL of its own instead of its body (crossgen2
// does for CoreLib's Unsafe methods, whose bounds then name offsets past
// their 6 bytes of IL). The CustomAttribute table is sorted by parent
// (II.22.10), so this is a binary search, worth making only for a method a
// check doubts. Errors as methodIlBodies.
Expected<bool> hasIntrinsicAttribute(ByteSpan file, std::uint32_t row);

}  // namespace gdmap::metadata
