#include "il/method_query.hpp"

#include "app/exit_status.hpp"
#include "il/il_arguments.hpp"

#include <gdmap/schema/rules.hpp>

namespace gdmap::cli {
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

MethodQuery parseMethodQuery(const std::string& text) {
  MethodQuery query;
  if (text.empty()) return query;
  if (const std::optional<std::uint32_t> token = parseU32(text)) query.token = token;
  else query.name = text;
  return query;
}

std::string methodQueryProblem(const std::string& text) {
  if (!text.empty() && text.front() >= '0' && text.front() <= '9') return u32Problem(text);
  if (text.empty()) return "a method's token or name is needed";
  return {};
}

bool answersQuery(const MethodQuery& query, std::string_view name, std::string_view signature) {
  const std::string_view asked = query.name;
  if (asked.find("::") != std::string_view::npos) return !name.empty() && sameText(asked, name);
  if (asked.find('(') != std::string_view::npos) return !signature.empty() && sameText(asked, signature);
  // No parameter list: every overload, and every instantiation when the
  // type is written without one.
  const std::string_view head = signature.substr(0, signature.find('('));
  return (!head.empty() && sameText(asked, head)) || (!name.empty() && sameText(asked, sosSpelling(name)));
}

int ambiguousMethod(const MethodQuery& query, const std::vector<MethodCandidate>& candidates, const std::string& file,
                    Report& report) {
  Diagnostic d;
  d.rule = rules::kIlMethodAmbiguous;
  d.file = file;
  d.message = "--method " + quoteInput(query.name, 400) + " names " + std::to_string(candidates.size()) +
              " methods: give one's token, or its signature as listed below";
  report.add(std::move(d));
  // One note each: the list may be longer than a message holds.
  for (const MethodCandidate& c : candidates) {
    Diagnostic n;
    n.severity = Severity::Note;
    n.rule = rules::kIlMethodAmbiguous;
    n.file = file;
    n.message = (c.where.empty() ? std::string() : c.where + ": ") + tokenText(c.token) + " " + c.signature;
    report.add(std::move(n));
  }
  return kInvalid;
}

}  // namespace gdmap::cli
