#pragma once
// A method asked for by name, as a person writes it: as gdmap names it
// (`Ns.Outer/Inner::Name`, ModuleNames::methodName), or as SOS does
// (`Ns.Outer+Inner.Name(System.String, Int32)`, ModuleNames::signatureOf,
// which tells overloads and instantiations apart; without the parameter
// list it names every overload). What `gdmap il extract --method` and
// `gdmap il lookup --method` match methods with.
#include <string_view>

namespace gdmap::symbolize {

// Whether the method named `name` whose SOS signature is `signature`
// (either may be empty: not known) is one `asked` names. White space is
// ignored.
bool answersMethodName(std::string_view asked, std::string_view name, std::string_view signature);

}  // namespace gdmap::symbolize
