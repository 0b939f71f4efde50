#pragma once
// --method TEXT of `il extract` and `il lookup`: a method by its token, or
// by its name as gdmap prints it (`Ns.Type::Name`, il extract --names's
// "name"), or as SOS does (`Ns.Type.Name(System.String, Int32)`, the
// "signature", which tells overloads and instantiations apart; without the
// parameter list it names every overload). A name that several methods
// answer is an il-method-ambiguous error listing each with its signature.
#include "common/report.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::cli {

struct MethodQuery {
  std::optional<std::uint32_t> token;  // a token (decimal or 0x hex)
  std::string name;                    // otherwise the name asked for
  bool empty() const { return !token && name.empty(); }
  bool byName() const { return !token && !name.empty(); }
};

// The query in --method's text (empty text: none).
MethodQuery parseMethodQuery(const std::string& text);

// Why `text` cannot be --method's value (a malformed number: text that
// starts with a digit), or empty.
std::string methodQueryProblem(const std::string& text);

// Whether the method named `name` (`Ns.Outer/Inner::M`) whose SOS text is
// `signature` is the one a by-name query asks for
// (symbolize::answersMethodName).
bool answersQuery(const MethodQuery& query, std::string_view name, std::string_view signature);

// One method a name answered: what tells it apart in the messages.
struct MethodCandidate {
  std::uint32_t token = 0;
  std::string where;      // its module or component, when several have methods ("" otherwise)
  std::string signature;  // SOS's text; the name when there is none
};

// il-method-ambiguous (exit 1): `query` answers every candidate (two or
// more), each listed with its token and signature.
int ambiguousMethod(const MethodQuery& query, const std::vector<MethodCandidate>& candidates, const std::string& file,
                    Report& report);

}  // namespace gdmap::cli
