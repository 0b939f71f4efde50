// STUB: replaced by the ILAsm text implementation.
#include <gdmap/schema/type_text.hpp>
namespace gdmap {
std::string formatType(const Type&) { return {}; }
void formatType(const Type&, std::string&) {}
Expected<Type> parseType(std::string_view) { return Error{0, "not implemented"}; }
}  // namespace gdmap
