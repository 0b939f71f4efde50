// gdmap il lookup: GetILToNativeMapping's two-call protocol, played on the
// method table of a description (reader/il_to_native_map.h).
#include "exit_status.hpp"
#include "file_io.hpp"
#include "il_arguments.hpp"
#include "il_commands.hpp"
#include "il_description_input.hpp"
#include "input_kind.hpp"
#include "report.hpp"

#include <gdmap/description/json_position.hpp>
#include <gdmap/reader/il_map_table.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <iomanip>
#include <iostream>
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

// {"il": 5 | "prolog", "nativeStart": 10, "nativeEnd": 17}
void appendEntryJson(const gdmap_il_to_native_map& e, std::string& out) {
  out += "{\"il\": ";
  const std::string_view special = il::specialIlName(e.ilOffset);
  if (special.empty()) {
    out += std::to_string(e.ilOffset);
  } else {
    appendJsonString(special, out);
  }
  out += ", \"nativeStart\": " + std::to_string(e.nativeStartOffset) +
         ", \"nativeEnd\": " + std::to_string(e.nativeEndOffset) + "}";
}

std::string entriesJson(const std::vector<gdmap_il_to_native_map>& entries) {
  if (entries.empty()) return "[]";
  std::string out = "[";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    out += i == 0 ? "\n    " : ",\n    ";
    appendEntryJson(entries[i], out);
  }
  out += "\n  ]";
  return out;
}

// The readable answer: a header line, then one aligned row per entry.
void printTable(std::uint32_t token, const std::string& header, const std::vector<gdmap_il_to_native_map>& entries) {
  std::ostringstream out;
  out << tokenText(token) << ": " << header << '\n';
  if (!entries.empty()) {
    std::size_t ilWidth = 2;
    for (const auto& e : entries) ilWidth = std::max(ilWidth, il::ilText(e.ilOffset).size());
    out << std::left << std::setw(static_cast<int>(ilWidth)) << "il"
        << "  " << std::right << std::setw(12) << "native start"
        << "  " << std::setw(10) << "native end" << '\n';
    for (const auto& e : entries) {
      out << std::left << std::setw(static_cast<int>(ilWidth)) << il::ilText(e.ilOffset) << "  " << std::right
          << std::setw(12) << e.nativeStartOffset << "  " << std::setw(10) << e.nativeEndOffset << '\n';
    }
  }
  std::cout << out.str();
}

int lookup(const IlLookupOptions& options, Report& report, bool& answered) {
  auto input = openInput(options.description, report);
  if (!input) return kUsageOrIo;
  const std::string& name = input->displayName();
  auto methods = loadIlDescription(*input, report);
  if (!methods) {
    noteBinaryNotIlDescription(*input, report);
    return kInvalid;
  }
  // The token asked for need not be in the description: that is the
  // protocol's E_FAIL. Without --method, the one method is meant.
  std::uint32_t token = 0;
  std::vector<std::size_t> originalIndex;  // empty: the methods are as described
  std::optional<std::size_t> chosen;       // the body --instantiation picked
  const std::optional<std::uint32_t> given = optionalU32(options.method);
  const bool repeated = given && std::count_if(methods->begin(), methods->end(),
                                               [&](const il::Method& m) { return m.token == *given; }) > 1;
  if (given && !repeated && options.instantiation.empty()) {
    token = *given;
  } else {
    int status = kSuccess;
    const auto index = chooseMethod(*methods, given, *input, report, status, options.instantiation);
    if (!index) return status;
    token = (*methods)[*index].token;
    chosen = *index;
  }
  // The table holds one body per token, as the runtime's lookup does for
  // the one instantiation it is asked about: for the token asked, the
  // chosen body; for any other that several instantiations share, the
  // first (it is not asked about). A description whose tokens repeat only
  // that way (the parser refuses a repeated token and instantiation) gets
  // a table; originalIndex keeps the JSON pointers of later errors true.
  std::vector<il::Method> kept;
  std::unordered_set<std::uint32_t> seen;
  for (std::size_t i = 0; i < methods->size(); ++i) {
    const il::Method& m = (*methods)[i];
    const bool keep =
        m.token == token ? (!chosen || i == *chosen) && seen.insert(m.token).second : seen.insert(m.token).second;
    if (!keep) continue;
    kept.push_back(m);
    originalIndex.push_back(i);
  }
  if (kept.size() != methods->size()) {
    *methods = std::move(kept);
  } else {
    originalIndex.clear();
  }
  if (report.json()) report.object().string("method", tokenText(token));

  auto table = il::buildMethodTable(*methods);
  if (!table) {
    // At the method's pointer, with its line and column.
    const Error& e = table.error();
    const std::size_t index = e.index.value_or(0);
    Diagnostic d;
    d.rule = e.rule;
    d.path = methodPointer(originalIndex.empty() ? index : originalIndex.at(index));
    d.message = e.message;
    d.file = name;
    locateInJson(input->text(), std::span(&d, 1));
    report.add(std::move(d));
    return kInvalid;
  }

  // The two calls a profiler makes: the count, then the entries.
  std::uint32_t count = 0;
  const gdmap_hresult first = table->getILToNativeMapping(token, 0, &count, nullptr);
  const std::uint32_t capacity = options.capacity.empty() ? count : *optionalU32(options.capacity);
  gdmap_hresult hr = first;
  std::vector<gdmap_il_to_native_map> entries;
  if (first == GDMAP_S_OK) {
    // Room for what can be copied: never more than the count, whatever
    // --capacity says, and never a null buffer when cMap > 0.
    entries.resize(std::max<std::size_t>(1, std::min(capacity, count)));
    hr = table->getILToNativeMapping(token, capacity, &count, entries.data());
    entries.resize(hr == GDMAP_S_OK ? std::min(capacity, count) : 0);
  }
  answered = true;
  const bool ok = hr == GDMAP_S_OK;
  const bool truncated = ok && count > capacity;
  const std::size_t copied = entries.size();

  const bool filtered = !options.native.empty() || !options.il.empty();
  if (auto x = optionalU32(options.native)) {
    std::erase_if(entries, [&](const auto& e) { return !(e.nativeStartOffset <= *x && *x < e.nativeEndOffset); });
  } else if (!options.il.empty()) {
    const std::uint32_t ilOffset = *parseIlOffset(options.il);
    std::erase_if(entries, [&](const auto& e) { return e.ilOffset != ilOffset; });
  }

  if (report.json()) {
    JsonObject& out = report.object();
    out.string("hr", hresultName(hr));
    if (ok) {
      out.number("count", count);
      out.number("capacity", capacity);
      out.number("copied", copied);
      out.boolean("truncated", truncated);
    } else {
      out.null("count");  // *pcMap is left untouched on failure
      out.null("capacity");
      out.null("copied");
      out.boolean("truncated", false);
    }
    out.raw("entries", entriesJson(entries));
  } else if (ok) {
    std::string header = "S_OK, count " + std::to_string(count) + ", " + std::to_string(copied) + " copied";
    if (truncated) header += " (truncated: capacity " + std::to_string(capacity) + ")";
    if (filtered) header += ", " + std::to_string(entries.size()) + " matching";
    printTable(token, header, entries);
  } else {
    std::cout << tokenText(token) << ": " << hresultName(hr) << '\n';
  }
  if (ok) return kSuccess;
  Diagnostic d;
  d.rule = rules::kIlMethodNotFound;
  d.path = "/methods";
  d.file = name;
  d.message =
      hresultName(hr) + ": " +
      (hr == GDMAP_E_FAIL ? "no method " + tokenText(token) + " in the table (" + std::to_string(methods->size()) +
                                (methods->size() == 1 ? " method" : " methods") + ")"
                          : "the protocol refused the call for method " + tokenText(token));
  report.add(std::move(d));
  return kInvalid;
}

}  // namespace

int runIlLookup(const IlLookupOptions& options, Report& report) {
  report.nameInput(options.description);
  bool answered = false;
  const int status = lookup(options, report, answered);
  if (report.json() && !answered) report.object().null("hr");
  return status;
}

}  // namespace gdmap::cli
