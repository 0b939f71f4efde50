// Decoding, checking and field paths all run the one grammar walker of
// signature_walker.hpp with a different sink (signature_sinks.hpp).
//
// Field paths (typeFieldPath, and the encoder's error messages without the
// leading dot) name the parts of a Type like this:
//   ""                        the element type byte of the outermost type; in
//                             general, a (sub)type's element byte maps to the
//                             path of that (sub)type itself
//   .inner                    the type PTR, BYREF, SZARRAY, ARRAY, PINNED,
//                             CMOD_REQD and CMOD_OPT apply to
//   .modifier                 CMOD_REQD/CMOD_OPT: the modifier's token
//   .token                    CLASS/VALUETYPE: the type's token
//   .genericType              GENERICINST: the CLASS/VALUETYPE byte
//   .genericType.token        GENERICINST: the generic type's token
//   .argumentCount            GENERICINST: the number of type arguments
//   .arguments[i]             GENERICINST: type argument i
//   .index                    VAR/MVAR: the generic parameter number
//   .shape.rank               ARRAY: the rank
//   .shape.sizeCount          ARRAY: the number of sizes
//   .shape.sizes[i]           ARRAY: size i
//   .shape.lowerBoundCount    ARRAY: the number of lower bounds
//   .shape.lowerBounds[i]     ARRAY: lower bound i
//   .callingConvention        FNPTR: the calling convention byte
//   .genericParameterCount    FNPTR: the generic parameter count (flag 0x10)
//   .parameterCount           FNPTR: the number of parameters
//   .return                   FNPTR: the return type
//   .parameters[i]            FNPTR: parameter i
//   .sentinel                 FNPTR: the SENTINEL byte
// Paths concatenate: ".arguments[1].inner.shape.lowerBounds[0]".
#include <gdmap/reader/type_decoder.hpp>

#include <gdmap/schema/rules.hpp>

#include "signature_sinks.hpp"
#include "signature_walker.hpp"

namespace gdmap {
namespace signature {

const char* fieldName(SignatureField f) {
  switch (f) {
    case SignatureField::Inner: return ".inner";
    case SignatureField::Modifier: return ".modifier";
    case SignatureField::Token: return ".token";
    case SignatureField::GenericType: return ".genericType";
    case SignatureField::GenericTypeToken: return ".genericType.token";
    case SignatureField::ArgumentCount: return ".argumentCount";
    case SignatureField::Arguments: return ".arguments";
    case SignatureField::Index: return ".index";
    case SignatureField::Rank: return ".shape.rank";
    case SignatureField::SizeCount: return ".shape.sizeCount";
    case SignatureField::Sizes: return ".shape.sizes";
    case SignatureField::LowerBoundCount: return ".shape.lowerBoundCount";
    case SignatureField::LowerBounds: return ".shape.lowerBounds";
    case SignatureField::CallingConvention: return ".callingConvention";
    case SignatureField::GenericParameterCount: return ".genericParameterCount";
    case SignatureField::ParameterCount: return ".parameterCount";
    case SignatureField::Return: return ".return";
    case SignatureField::Parameters: return ".parameters";
    case SignatureField::Sentinel: return ".sentinel";
  }
  return ".unknown";
}

}  // namespace signature

namespace {

Error pastTheEnd(std::size_t offset) {
  return Error{offset, "truncated: expected a type, found the end of the data", rules::kTruncatedSignature};
}

}  // namespace

Expected<Type> decodeType(ByteSpan bytes, std::size_t& offset, TypeDecodeNotes* notes) {
  if (offset > bytes.size()) return pastTheEnd(offset);
  signature::ModelBuilder builder;
  signature::SignatureWalker<signature::ModelBuilder> walker(bytes, offset, notes, builder);
  Type type;
  if (!walker.walk(type)) return walker.error();
  offset = walker.offset();
  return type;
}

Status skipType(ByteSpan bytes, std::size_t& offset, TypeDecodeNotes* notes) {
  if (offset > bytes.size()) return pastTheEnd(offset);
  signature::Checker checker;
  signature::SignatureWalker<signature::Checker> walker(bytes, offset, notes, checker);
  signature::Checker::Node node;
  if (!walker.walk(node)) return walker.error();
  offset = walker.offset();
  return Success{};
}

Expected<Type> decodeTypeBlob(ByteSpan bytes, TypeDecodeNotes* notes) {
  std::size_t offset = 0;
  Expected<Type> type = decodeType(bytes, offset, notes);
  if (!type) return type;
  if (offset != bytes.size()) {
    return Error{offset, std::to_string(bytes.size() - offset) + " bytes after the end of the type",
                 rules::kBytesAfterType};
  }
  return type;
}

std::string typeFieldPath(ByteSpan bytes, std::size_t start, std::size_t target) {
  if (start > bytes.size()) return {};
  signature::PathFinder finder(target);
  signature::SignatureWalker<signature::PathFinder> walker(bytes, start, nullptr, finder);
  signature::PathFinder::Node node;
  const bool ok = walker.walk(node);
  if (finder.found()) return finder.path();
  // A malformed type stops the walk before the target: name where it stopped.
  return ok ? std::string() : finder.currentPath();
}

}  // namespace gdmap
