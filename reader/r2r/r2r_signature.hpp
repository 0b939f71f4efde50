#pragma once
// The signature that keys an instance entry point (section 109): the
// runtime's method signature encoding (zapsig.cpp, SigMatchesMethodDesc):
// a compressed flags word (READYTORUN_METHOD_SIG_*), a module index when
// kUpdateContext is set, the owner type when
// kOwnerType is set, the MethodDef row, and the method's own generic
// arguments when kMethodInstantiation is set. Types are ECMA-335 type
// signatures plus two runtime extensions: ELEMENT_TYPE_CANON_ZAPSIG (0x3E,
// System.__Canon) and ELEMENT_TYPE_MODULE_ZAPSIG (0x3F, a module index
// then a type whose tokens are that module's).
//
// A malformed signature is an Error (r2r-bad-instance-signature) at the
// file offset of the offending byte.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/type_names.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace gdmap::r2r {

struct InstanceSignature {
  std::uint32_t flags = 0;
  std::uint32_t token = 0;  // 0x06000000 | row
  // The module whose MethodDef `token` is: kUpdateContext's index, or the
  // owner type's module override ([module N]); absent: this image's.
  bool hasModule = false;
  std::uint32_t module = 0;
  std::string ownerType;                   // empty without kOwnerType
  std::vector<std::string> typeArguments;  // the owner's, when it is a generic instance
  std::vector<std::string> methodArguments;
  std::size_t length = 0;  // bytes read
};

// `bytes` are the bytes from the signature's start up to where it must end
// at the latest (the next entry); `fileOffset` is the file offset of bytes[0].
// Types print as ILAsm text (formatType's spelling), with `__Canon` and
// `[module N] T` for the two extensions.
// With `names`, tokens of this module print as names (type_names.hpp).
Expected<InstanceSignature> parseInstanceSignature(ByteSpan bytes, std::uint64_t fileOffset,
                                                   const TypeNames* names = nullptr);

}  // namespace gdmap::r2r
