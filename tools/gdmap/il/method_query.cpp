#include "il/method_query.hpp"

#include "app/exit_status.hpp"
#include "il/il_arguments.hpp"

#include <gdmap/schema/rules.hpp>
#include <gdmap/symbolize/method_name_query.hpp>

namespace gdmap::cli {

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
  return symbolize::answersMethodName(query.name, name, signature);
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
