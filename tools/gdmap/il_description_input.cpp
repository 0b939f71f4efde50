#include "il_description_input.hpp"

#include "exit_status.hpp"
#include "il_arguments.hpp"

#include <gdmap/description/il_description_json.hpp>
#include <gdmap/description/json_position.hpp>
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/writer/bounds_encoder.hpp>
#include <gdmap/writer/bounds_layout.hpp>

#include <string>

namespace gdmap::cli {
namespace {

// A few tokens of the description, for a message that says what there is.
std::string someTokens(const std::vector<il::Method>& methods) {
  constexpr std::size_t kListed = 4;
  std::string out;
  for (std::size_t i = 0; i < methods.size() && i < kListed; ++i) {
    if (i != 0) out += ", ";
    out += tokenText(methods[i].token);
  }
  if (methods.size() > kListed) out += ", ...";
  return out;
}

std::string methodCount(std::size_t n) { return std::to_string(n) + (n == 1 ? " method" : " methods"); }

// An error about a method, located in the description's text by its pointer.
void methodError(Report& report, std::string rule, std::string path, std::string message, const InputBytes& input) {
  Diagnostic d;
  d.rule = std::move(rule);
  d.path = std::move(path);
  d.message = std::move(message);
  d.file = input.displayName();
  locateInJson(input.text(), std::span(&d, 1));
  report.add(std::move(d));
}

// The pointer of the field an encoder error names: its message starts with
// "bounds[j].field: " and its offset is j.
std::string boundPointer(std::size_t method, const Error& error) {
  std::string pointer = methodPointer(method) + "/bounds";
  const std::string prefix = "bounds[" + std::to_string(error.offset) + "].";
  if (error.message.rfind(prefix, 0) != 0) return pointer;
  const std::size_t end = error.message.find(':', prefix.size());
  if (end == std::string::npos) return pointer;
  return pointer + '/' + std::to_string(error.offset) + '/' + error.message.substr(prefix.size(), end - prefix.size());
}

}  // namespace

std::optional<std::vector<il::Method>> loadIlDescription(const InputBytes& input, Report& report) {
  il::IlDescriptionParse parsed = il::parseIlDescription(input.text());
  report.countUnlisted(parsed.diagnostics, parsed.errorCount, parsed.warningCount);
  report.add(std::move(parsed.diagnostics), input.displayName(), input.text());
  if (!parsed.methods) return std::nullopt;
  return std::move(*parsed.methods);
}

std::string methodPointer(std::size_t index) { return "/methods/" + std::to_string(index); }

std::optional<std::size_t> chooseMethod(const std::vector<il::Method>& methods, std::optional<std::uint32_t> token,
                                        const InputBytes& input, Report& report, int& status,
                                        const std::string& instantiation, const std::string& component) {
  if (!token && methods.size() == 1) token = methods.front().token;
  if (token) {
    std::vector<std::size_t> bodies;
    for (std::size_t i = 0; i < methods.size(); ++i)
      if (methods[i].token == *token && (component.empty() || methods[i].component == component)) bodies.push_back(i);
    std::string known;  // the bodies' instantiations, for the messages
    bool components = false;
    for (const std::size_t i : bodies) {
      if (known.size() > 300) {
        known += ", ...";
        break;
      }
      if (!known.empty()) known += ", ";
      if (!methods[i].component.empty()) {
        (known += methods[i].component) += ": ";
        components |= methods[i].component != methods[bodies.front()].component;
      }
      known += il::instantiationText(methods[i].instantiation);
    }
    if (!instantiation.empty() && !bodies.empty()) {
      for (const std::size_t i : bodies)
        if (il::sameInstantiationText(instantiation, il::instantiationText(methods[i].instantiation))) return i;
      status = kInvalid;
      methodError(report, rules::kIlMethodNotFound, "/methods",
                  "method " + tokenText(*token) + " has no body for the instantiation " + quoteInput(instantiation) +
                      " (it has " + known + ")",
                  input);
      return std::nullopt;
    }
    if (bodies.size() == 1) return bodies.front();
    if (bodies.size() > 1) {
      status = kUsageOrIo;
      report.fail(kUsageOrIo, rules::kUsage,
                  "method " + tokenText(*token) + " has " + std::to_string(bodies.size()) +
                      " bodies, one per instantiation (" + known + "): choose one with " +
                      (components ? "--component NAME and " : "") + "--instantiation TEXT");
      return std::nullopt;
    }
    status = kInvalid;
    methodError(report, rules::kIlMethodNotFound, "/methods",
                "no method " + tokenText(*token) + " in the description (" + methodCount(methods.size()) +
                    (methods.empty() ? "" : ": " + someTokens(methods)) + ")",
                input);
    return std::nullopt;
  }
  if (methods.empty()) {
    status = kInvalid;
    methodError(report, rules::kIlMethodNotFound, "/methods", "the description has no method", input);
    return std::nullopt;
  }
  status = kUsageOrIo;
  report.fail(kUsageOrIo, rules::kUsage,
              "the description has " + methodCount(methods.size()) + " (" + someTokens(methods) +
                  "): choose one with --method TOKEN");
  return std::nullopt;
}

std::optional<Bytes> encodeMethod(const il::Method& method, std::size_t index, il::BoundsForm form,
                                  const InputBytes& input, Report& report) {
  const std::string pointer = methodPointer(index);
  const std::string name = "method " + tokenText(method.token);
  if (method.layout) {
    // Overrides: notes for what is not canonical, errors for what cannot be.
    il::ExactEncoding exact = il::encodeExact(method, form);
    for (Diagnostic& d : exact.diagnostics) {
      d.path = pointer + d.path;
      d.message = name + ": " + d.message;
      d.file = input.displayName();
      locateInJson(input.text(), std::span(&d, 1));
      report.add(std::move(d));
    }
    return std::move(exact.bytes);
  }
  if (method.verbatimMap) {
    if (form == il::BoundsForm::Api) return il::encodeApiEntries(method.map);
    methodError(report, rules::kIlMapNotCompressible, pointer + "/map",
                name +
                    " has a verbatim `map`, the API form, which cannot be turned back into bounds; only "
                    "--format api can be built from it",
                input);
    return std::nullopt;
  }
  if (form == il::BoundsForm::Api && !method.codeSize) {
    methodError(report, rules::kIlCodeSizeRequired, pointer,
                name + ": the api form derived from bounds needs the method's `codeSize` (the last entry ends there)",
                input);
    return std::nullopt;
  }
  auto bytes = il::encodeBounds(method.bounds, form, method.codeSize);
  if (!bytes) {
    const Error& e = bytes.error();
    const bool aboutBound = e.rule == rules::kIlFlagNotStorable || e.rule == rules::kIlBoundsNotAscending;
    methodError(report, e.rule, aboutBound ? boundPointer(index, e) : pointer + "/bounds", name + ": " + e.message,
                input);
    return std::nullopt;
  }
  return std::move(bytes).value();
}

}  // namespace gdmap::cli
