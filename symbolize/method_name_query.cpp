#include <gdmap/symbolize/method_name_query.hpp>

#include <string>

namespace gdmap::symbolize {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// `a` and `b` equal but for white space.
bool sameText(std::string_view a, std::string_view b) {
  std::size_t i = 0, j = 0;
  for (;;) {
    while (i < a.size() && isSpace(a[i])) ++i;
    while (j < b.size() && isSpace(b[j])) ++j;
    if (i == a.size() || j == b.size()) return i == a.size() && j == b.size();
    if (a[i++] != b[j++]) return false;
  }
}

// `Ns.Outer+Inner.M`: gdmap's name spelled as SOS spells a method without
// its instantiation and parameters.
std::string sosSpelling(std::string_view name) {
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name.substr(i).starts_with("::")) {
      out += '.';
      ++i;
    } else {
      out += name[i] == '/' ? '+' : name[i];
    }
  }
  return out;
}

}  // namespace

bool answersMethodName(std::string_view asked, std::string_view name, std::string_view signature) {
  if (asked.find("::") != std::string_view::npos) return !name.empty() && sameText(asked, name);
  if (asked.find('(') != std::string_view::npos) return !signature.empty() && sameText(asked, signature);
  // No parameter list: every overload, and every instantiation when the
  // type is written without one.
  const std::string_view head = signature.substr(0, signature.find('('));
  return (!head.empty() && sameText(asked, head)) || (!name.empty() && sameText(asked, sosSpelling(name)));
}

}  // namespace gdmap::symbolize
