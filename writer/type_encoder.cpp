// STUB: replaced by the signature encoder.
#include <gdmap/writer/type_encoder.hpp>
namespace gdmap {
Status encodeType(const Type&, Bytes&) { return Error{0, "not implemented"}; }
Expected<Bytes> encodeType(const Type&) { return Error{0, "not implemented"}; }
}  // namespace gdmap
