// STUB: replaced by the signature decoder.
#include <gdmap/reader/type_decoder.hpp>
namespace gdmap {
Expected<Type> decodeType(ByteSpan, std::size_t&, TypeDecodeNotes*) { return Error{0, "not implemented"}; }
Status skipType(ByteSpan, std::size_t&, TypeDecodeNotes*) { return Error{0, "not implemented"}; }
Expected<Type> decodeTypeBlob(ByteSpan) { return Error{0, "not implemented"}; }
std::string typeFieldPath(ByteSpan, std::size_t, std::size_t) { return {}; }
}  // namespace gdmap
