// gdmap il lookup: GetILToNativeMapping's two-call protocol, played on the
// method table of a description (reader/il_to_native_map.h).
#include "app/exit_status.hpp"
#include "app/il_commands.hpp"
#include "common/file_io.hpp"
#include "common/input_kind.hpp"
#include "common/report.hpp"
#include "il/il_arguments.hpp"
#include "il/il_description_input.hpp"
#include "il/il_entry_json.hpp"
#include "il/method_query.hpp"

#include <gdmap/description/json_position.hpp>
#include <gdmap/internal/plural.hpp>
#include <gdmap/reader/il_map_table.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

namespace gdmap::cli {
namespace {

std::string hresultName(gdmap_hresult hr) {
  switch (hr) {
    case GDMAP_S_OK: return "S_OK";
    case GDMAP_E_FAIL: return "E_FAIL";
    case GDMAP_E_INVALIDARG: return "E_INVALIDARG";
    default: return hex32(static_cast<std::uint32_t>(hr));
  }
}

void writeEntries(JsonWriter& w, const std::vector<gdmap_il_to_native_map>& entries, JsonWriter::Layout layout) {
  w.beginArray(layout);
  for (const gdmap_il_to_native_map& e : entries) writeEntryJson(w, e.ilOffset, e.nativeStartOffset, e.nativeEndOffset);
  w.endArray();
}

// The readable answer: a header line, then one aligned row per entry.
// Every offset in hex, IL and native alike (as `--native 0x28` takes one
// and a disassembler shows one); --json gives them as integers.
void printTable(std::uint32_t token, const std::string& name, const std::string& header,
                const std::vector<gdmap_il_to_native_map>& entries) {
  std::ostringstream out;
  out << tokenText(token) << (name.empty() ? "" : " ") << name << ": " << header << '\n';
  if (!entries.empty()) {
    std::size_t ilWidth = 2;
    for (const auto& e : entries) ilWidth = std::max(ilWidth, il::ilText(e.ilOffset).size());
    out << std::left << std::setw(static_cast<int>(ilWidth)) << "il"
        << "  " << std::right << std::setw(12) << "native start"
        << "  " << std::setw(10) << "native end" << '\n';
    for (const auto& e : entries) {
      out << std::left << std::setw(static_cast<int>(ilWidth)) << il::ilText(e.ilOffset) << "  " << std::right
          << std::setw(12) << shortHex(e.nativeStartOffset) << "  " << std::setw(10) << shortHex(e.nativeEndOffset)
          << '\n';
    }
  }
  std::cout << out.str();
}

// --native X at or past the method's code: no entry can hold it, and a
// note at its codeSize says why rather than only "0 matching". `methods`
// are the table's (one body per token), `originalIndex` where each was in
// the description.
void notePastCode(const IlLookupOptions& options, std::uint32_t token, const std::vector<il::Method>& methods,
                  const std::vector<std::size_t>& originalIndex, const InputBytes& input, Report& report) {
  const std::optional<std::uint32_t> x = optionalU32(options.native);
  const auto it = std::find_if(methods.begin(), methods.end(), [&](const il::Method& m) { return m.token == token; });
  if (!x || it == methods.end() || !it->codeSize || *x < *it->codeSize) return;
  const il::Method* method = &*it;
  const auto index = static_cast<std::size_t>(it - methods.begin());
  Diagnostic d;
  d.severity = Severity::Note;
  d.rule = rules::kIlNativePastCode;
  d.path = methodPointer(originalIndex.empty() ? index : originalIndex.at(index)) + "/codeSize";
  d.file = input.displayName();
  d.message = "native offset " + shortHex(*x) + " is past the code of method " + tokenText(method->token) +
              " (codeSize " + shortHex(*method->codeSize) + "): no entry holds it";
  locateInJson(input.text(), std::span(&d, 1));
  report.add(std::move(d));
}

// The method asked for: its token and, when --instantiation, --component,
// --address or a shared token made a choice, the chosen body. The token need not be in the
// description: that is the protocol's E_FAIL. Without --method, the one
// method is meant. Empty when the choice fails (`status` says why).
struct Asked {
  std::uint32_t token = 0;
  std::optional<std::size_t> chosen;  // the body --instantiation picked
};

std::optional<Asked> askedMethod(const std::vector<il::Method>& methods, const IlMethodChoice& choice,
                                 const InputBytes& input, Report& report, int& status) {
  const std::optional<std::uint32_t> given = optionalU32(choice.token);
  const bool repeated = given && std::count_if(methods.begin(), methods.end(),
                                               [&](const il::Method& m) { return m.token == *given; }) > 1;
  if (given && !repeated && choice.instantiation.empty() && choice.component.empty() && choice.address.empty())
    return Asked{*given, std::nullopt};
  const auto index = chooseMethod(methods, given, input, report, status, choice.instantiation, choice.component,
                                  optionalAddress(choice.address));
  if (!index) return std::nullopt;
  return Asked{methods[*index].token, *index};
}

// The table holds one body per token, as the runtime's lookup does for
// the one instantiation it is asked about: for the token asked, the
// chosen body; for any other that several instantiations share, the
// first (it is not asked about). A description whose tokens repeat only
// that way (the parser refuses a repeated token and instantiation) gets
// a table. Returns where each kept method was (empty: all were kept), to
// keep the JSON pointers of later errors true.
std::vector<std::size_t> keepOneBodyPerToken(std::vector<il::Method>& methods, const Asked& asked) {
  std::vector<il::Method> kept;
  std::vector<std::size_t> originalIndex;
  std::unordered_set<std::uint32_t> seen;
  for (std::size_t i = 0; i < methods.size(); ++i) {
    const il::Method& m = methods[i];
    const bool keep = m.token == asked.token ? (!asked.chosen || i == *asked.chosen) && seen.insert(m.token).second
                                             : seen.insert(m.token).second;
    if (!keep) continue;
    kept.push_back(m);
    originalIndex.push_back(i);
  }
  if (kept.size() == methods.size()) return {};
  methods = std::move(kept);
  return originalIndex;
}

// At the method's pointer, with its line and column.
int tableError(const Error& e, const std::vector<std::size_t>& originalIndex, const InputBytes& input, Report& report) {
  const std::size_t index = e.index.value_or(0);
  Diagnostic d;
  d.rule = e.rule;
  d.path = methodPointer(originalIndex.empty() ? index : originalIndex.at(index));
  d.message = e.message;
  d.file = input.displayName();
  locateInJson(input.text(), std::span(&d, 1));
  report.add(std::move(d));
  return kInvalid;
}

// What the two calls a profiler makes answer: the count, then the entries.
struct Answer {
  gdmap_hresult hr = GDMAP_S_OK;
  std::uint32_t count = 0;
  std::uint32_t capacity = 0;
  std::vector<gdmap_il_to_native_map> entries;  // copied, then filtered
  std::size_t copied = 0;
  bool ok() const { return hr == GDMAP_S_OK; }
  bool truncated() const { return ok() && count > capacity; }
};

Answer callTwice(const il::MethodTable& table, std::uint32_t token, const std::string& capacityText) {
  Answer a;
  const gdmap_hresult first = table.getILToNativeMapping(token, 0, &a.count, nullptr);
  a.capacity = capacityText.empty() ? a.count : *optionalU32(capacityText);
  a.hr = first;
  if (first == GDMAP_S_OK) {
    // Room for what can be copied: never more than the count, whatever
    // --capacity says, and never a null buffer when cMap > 0.
    a.entries.resize(std::max<std::size_t>(1, std::min(a.capacity, a.count)));
    a.hr = table.getILToNativeMapping(token, a.capacity, &a.count, a.entries.data());
    a.entries.resize(a.hr == GDMAP_S_OK ? std::min(a.capacity, a.count) : 0);
  }
  a.copied = a.entries.size();
  return a;
}

// --native or --il: keeps the entries that match.
void filterEntries(const IlLookupOptions& options, std::vector<gdmap_il_to_native_map>& entries) {
  if (auto x = optionalU32(options.native)) {
    std::erase_if(entries, [&](const auto& e) { return !(e.nativeStartOffset <= *x && *x < e.nativeEndOffset); });
  } else if (!options.il.empty()) {
    const std::uint32_t ilOffset = *parseIlOffset(options.il);
    std::erase_if(entries, [&](const auto& e) { return e.ilOffset != ilOffset; });
  }
}

// The name a method is shown with: its signature (SOS's text), else its
// name, as `il extract --names` wrote them; empty without.
const std::string& shownName(const il::Method& m) { return m.signature.empty() ? m.name : m.signature; }

// The signature, when the description has one, follows the token (a
// description written before signatures answers as it did).
void writeAnswer(const Answer& a, const il::Method* method, std::uint32_t token, bool filtered, Report& report) {
  static const std::string kNone;
  const std::string& name = method ? method->signature : kNone;
  if (report.json()) {
    JsonObject& out = report.object();
    if (!name.empty()) out.string("signature", name);
    out.string("hr", hresultName(a.hr));
    if (a.ok()) {
      out.number("count", a.count);
      out.number("capacity", a.capacity);
      out.number("copied", a.copied);
      out.boolean("truncated", a.truncated());
    } else {
      out.null("count");  // *pcMap is left untouched on failure
      out.null("capacity");
      out.null("copied");
      out.boolean("truncated", false);
    }
    writeEntries(out.value("entries"), a.entries, JsonWriter::Layout::Lines);
  } else if (a.ok()) {
    std::string header = "S_OK, count " + std::to_string(a.count) + ", " + std::to_string(a.copied) + " copied";
    if (a.truncated()) header += " (truncated: capacity " + std::to_string(a.capacity) + ")";
    if (filtered) header += ", " + std::to_string(a.entries.size()) + " matching";
    printTable(token, name, header, a.entries);
  } else {
    std::cout << tokenText(token) << ": " << hresultName(a.hr) << '\n';
  }
}

// An HRESULT other than S_OK: E_FAIL for a token not in the table.
int notFound(gdmap_hresult hr, std::uint32_t token, std::size_t methods, const std::string& file, Report& report) {
  Diagnostic d;
  d.rule = rules::kIlMethodNotFound;
  d.path = "/methods";
  d.file = file;
  d.message = hresultName(hr) + ": " +
              (hr == GDMAP_E_FAIL
                   ? "no method " + tokenText(token) + " in the table (" + plural(methods, "method", "methods") + ")"
                   : "the protocol refused the call for method " + tokenText(token));
  report.add(std::move(d));
  return kInvalid;
}

// --method NAME: the method (the description's "name" or "signature")
// it answers, as a choice of its token and, when the name tells one body
// from the others of its token, that body. Empty when none or several
// methods answer (the error in `report`).
std::optional<Asked> methodNamed(const std::vector<il::Method>& methods, const MethodQuery& query,
                                 const InputBytes& input, Report& report, int& status) {
  status = kInvalid;
  std::vector<std::size_t> bodies;
  // Methods are told apart by module, component and token.
  std::map<std::tuple<std::string, std::string, std::uint32_t>, MethodCandidate> candidates;
  bool named = false;
  for (std::size_t i = 0; i < methods.size(); ++i) {
    const il::Method& m = methods[i];
    named |= !m.name.empty() || !m.signature.empty();
    if (!answersQuery(query, m.name, m.signature)) continue;
    bodies.push_back(i);
    MethodCandidate c{m.token, !m.module.empty() ? m.module : m.component, shownName(m)};
    candidates.try_emplace({m.module, m.component, m.token}, std::move(c));
  }
  if (candidates.size() > 1) {
    std::vector<MethodCandidate> listed;
    listed.reserve(candidates.size());
    for (auto& [key, c] : candidates) listed.push_back(std::move(c));
    ambiguousMethod(query, listed, input.displayName(), report);
    return std::nullopt;
  }
  if (bodies.empty()) {
    Diagnostic d;
    d.rule = rules::kIlMethodNotFound;
    d.path = "/methods";
    d.file = input.displayName();
    d.message = named ? "no method of the description is named " + quoteInput(query.name, 400) + " (" +
                            plural(methods.size(), "method", "methods") + ")"
                      : "--method " + quoteInput(query.name, 400) +
                            ": the description's methods have no names (`gdmap il extract --names` writes them); "
                            "give a token";
    report.add(std::move(d));
    return std::nullopt;
  }
  status = kSuccess;
  return Asked{methods[bodies.front()].token, bodies.size() == 1 ? std::optional(bodies.front()) : std::nullopt};
}

// One method's answer, on one line.
void writeMethodAnswer(JsonWriter& w, const il::Method& m, const Answer& a) {
  using Layout = JsonWriter::Layout;
  w.beginObject(Layout::Inline);
  w.key("method");
  w.plainString(tokenText(m.token));
  const auto text = [&](std::string_view key, const std::string& value) {
    if (value.empty()) return;
    w.key(key);
    w.string(value);
  };
  text("name", m.name);
  text("signature", m.signature);
  if (m.instantiation) text("instantiation", il::instantiationText(m.instantiation));
  w.key("hr");
  w.plainString(hresultName(a.hr));
  w.member("count", a.count);
  w.member("copied", a.copied);
  w.key("entries");
  writeEntries(w, a.entries, Layout::Inline);
  w.endObject();
}

// Every method's array, each played on a table of its own (a token may have
// several bodies, which one table cannot hold), written as each is found:
// one object a method in JSON, one row an entry in text.
int lookupEvery(const IlLookupOptions& options, const std::vector<il::Method>& methods, const InputBytes& input,
                Report& report) {
  int status = kSuccess;
  if (report.json()) report.object().beginArray("methods");
  else std::cout << "token       il          native start  native end  name\n";
  std::string line;
  for (std::size_t i = 0; i < methods.size(); ++i) {
    const il::Method& m = methods[i];
    auto table = il::buildMethodTable(std::span(&m, 1));
    if (!table) {
      Error e = table.error();
      e.index = i;
      status = tableError(e, {}, input, report);
      continue;
    }
    Answer a = callTwice(*table, m.token, options.capacity);
    filterEntries(options, a.entries);
    line.clear();
    if (report.json()) {
      writeMethodAnswer(report.object().element(), m, a);
      continue;
    }
    // The name column: SOS's text, or gdmap's name and the instantiation.
    std::string name = shownName(m);
    if (m.signature.empty() && m.instantiation)
      (name += name.empty() ? "" : " ") += il::instantiationText(m.instantiation);
    char row[64];
    for (const gdmap_il_to_native_map& e : a.entries) {
      std::snprintf(row, sizeof row, "%-10s  %-10s  %12s  %10s", tokenText(m.token).c_str(),
                    il::ilText(e.ilOffset).c_str(), shortHex(e.nativeStartOffset).c_str(),
                    shortHex(e.nativeEndOffset).c_str());
      line += row;
      if (!name.empty()) (line += "  ") += name;
      line += '\n';
    }
    std::cout << line;
  }
  if (report.json()) report.object().endArray();
  return status;
}

int lookup(const IlLookupOptions& options, Report& report) {
  auto input = openInput(options.description, report, FileAccess::Whole, InputContent::Json);
  if (!input) return kUsageOrIo;
  auto methods = loadIlDescription(*input, report);
  if (!methods) {
    noteBinaryNotIlDescription(*input, report);
    return kInvalid;
  }
  int status = kSuccess;
  const MethodQuery query = parseMethodQuery(options.method.token);
  const IlMethodChoice& choice = options.method;
  // Nothing chosen, several methods: every method's array.
  if (query.empty() && choice.instantiation.empty() && choice.component.empty() && choice.address.empty() &&
      methods->size() > 1)
    return lookupEvery(options, *methods, *input, report);
  std::optional<Asked> asked = query.byName() ? methodNamed(*methods, query, *input, report, status)
                                              : askedMethod(*methods, options.method, *input, report, status);
  if (asked && query.byName() && !asked->chosen) {
    // A name of several bodies of one token: chosen among them as by its token.
    IlMethodChoice byToken = choice;
    byToken.token = tokenText(asked->token);
    asked = askedMethod(*methods, byToken, *input, report, status);
  }
  if (!asked) return status;
  // The method answered for, for its name: the one chosen, or the first of its token.
  const il::Method* method = asked->chosen ? &(*methods)[*asked->chosen] : nullptr;
  for (std::size_t i = 0; i < methods->size() && !method; ++i) {
    if ((*methods)[i].token == asked->token) method = &(*methods)[i];
  }
  const std::optional<il::Method> shown = method ? std::optional<il::Method>(*method) : std::nullopt;
  const std::vector<std::size_t> originalIndex = keepOneBodyPerToken(*methods, *asked);
  if (report.json()) report.object().string("method", tokenText(asked->token));
  auto table = il::buildMethodTable(*methods);
  if (!table) return tableError(table.error(), originalIndex, *input, report);
  Answer answer = callTwice(*table, asked->token, options.capacity);
  filterEntries(options, answer.entries);
  writeAnswer(answer, shown ? &*shown : nullptr, asked->token, !options.native.empty() || !options.il.empty(), report);
  if (answer.ok()) {
    notePastCode(options, asked->token, *methods, originalIndex, *input, report);
    return kSuccess;
  }
  return notFound(answer.hr, asked->token, methods->size(), input->displayName(), report);
}

}  // namespace

int runIlLookup(const IlLookupOptions& options, Report& report) {
  report.nameInput(options.description);
  return runToVerdict(lookup, options, report, {"method", "hr", "count", "capacity", "copied", "truncated", "entries"});
}

}  // namespace gdmap::cli
