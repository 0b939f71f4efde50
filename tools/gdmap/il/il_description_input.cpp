#include "il/il_description_input.hpp"

#include "app/exit_status.hpp"
#include "il/il_arguments.hpp"

#include <gdmap/description/il_description_json.hpp>
#include <gdmap/description/json_position.hpp>
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/writer/bounds_encoder.hpp>
#include <gdmap/writer/bounds_layout.hpp>

#include <gdmap/schema/hex.hpp>

#include <algorithm>
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

// The pointer of the field an encoder error names: bound j's (Error::index)
// field is what follows "bounds[j]." in its path.
std::string boundPointer(std::size_t method, const Error& error) {
  std::string pointer = methodPointer(method) + "/bounds";
  if (!error.index) return pointer;
  const std::string prefix = "bounds[" + std::to_string(*error.index) + "].";
  if (!error.path.starts_with(prefix)) return pointer;
  return pointer + '/' + std::to_string(*error.index) + '/' + error.path.substr(prefix.size());
}

// Whether one of the method's code ranges holds `address` (an absolute
// address or an RVA, as the range is).
bool holdsAddress(const il::Method& m, std::uint64_t address) {
  return std::any_of(m.code.begin(), m.code.end(),
                     [&](const il::CodeRange& r) { return address >= r.start && address - r.start < r.size; });
}

// One body among others of a token: its instantiation, then what tells a
// process's bodies apart (module, MethodDesc, code version and, with `code`,
// where the code starts), each only when the description has it; with
// `token`, the token first.
std::string bodyText(const il::Method& m, bool token, bool code) {
  std::string out;
  const auto add = [&](const std::string& part) { (out += out.empty() ? "" : " ") += part; };
  if (token) add(tokenText(m.token));
  if (m.instantiation) add(il::instantiationText(m.instantiation));
  if (!m.module.empty()) add("in " + m.module);
  if (m.methodDesc) add("MethodDesc " + shortHex(*m.methodDesc));
  if (m.codeVersion) {
    const il::CodeVersion& v = *m.codeVersion;
    add(il::codeKindName(v.kind));
    if (v.tier) add(il::tierName(*v.tier));
    if (v.ilVersion != 0) add("IL version " + std::to_string(v.ilVersion));
    if (v.active) add("active");
  }
  if (code && !m.code.empty()) add("at " + shortHex(m.code.front().start));
  // A body that says nothing else is "(none)", as before.
  if (!m.instantiation && out.size() == (token ? tokenText(m.token).size() : 0))
    add(il::instantiationText(m.instantiation));
  return out;
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

namespace {

// The bodies of `methods` the options name: their token, component, and
// the address their code holds.
std::vector<std::size_t> matchingBodies(const std::vector<il::Method>& methods, std::optional<std::uint32_t> token,
                                        const std::string& component, std::optional<std::uint64_t> address) {
  std::vector<std::size_t> bodies;
  for (std::size_t i = 0; i < methods.size(); ++i) {
    const il::Method& m = methods[i];
    if ((!token || m.token == *token) && (component.empty() || m.component == component) &&
        (!address || holdsAddress(m, *address)))
      bodies.push_back(i);
  }
  return bodies;
}

// Whether two of the bodies share a token, component and instantiation (a
// process's code versions): told apart by their code only.
bool sameButCode(const std::vector<il::Method>& methods, const std::vector<std::size_t>& bodies) {
  for (std::size_t a = 0; a < bodies.size(); ++a) {
    for (std::size_t b = a + 1; b < bodies.size(); ++b) {
      const il::Method& x = methods[bodies[a]];
      const il::Method& y = methods[bodies[b]];
      if (x.token == y.token && x.component == y.component && x.instantiation == y.instantiation) return true;
    }
  }
  return false;
}

// The bodies' identities, for the messages; `components`: whether they are
// of several components.
std::string knownBodies(const std::vector<il::Method>& methods, const std::vector<std::size_t>& bodies, bool byToken,
                        bool showCode, bool& components) {
  std::string known;
  components = false;
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
    known += bodyText(methods[i], !byToken, showCode);
  }
  return known;
}

// The options that tell several bodies apart: their tokens (an address
// alone: bodies a ReadyToRun image shares), components, instantiations, or
// only their code (a process's code versions, modules, MethodDescs).
// `byAddress`: some differ only by their code.
std::string bodiesHint(const std::vector<il::Method>& methods, const std::vector<std::size_t>& bodies, bool byToken,
                       bool withAddress, bool components, bool& byAddress) {
  bool tokens = false;
  bool instantiations = false;  // of one token
  byAddress = false;
  for (std::size_t a = 0; a < bodies.size(); ++a) {
    for (std::size_t b = a + 1; b < bodies.size(); ++b) {
      const il::Method& x = methods[bodies[a]];
      const il::Method& y = methods[bodies[b]];
      tokens |= x.token != y.token;
      instantiations |= x.token == y.token && x.instantiation != y.instantiation;
      byAddress |= x.token == y.token && x.component == y.component && x.instantiation == y.instantiation;
    }
  }
  std::string hint = !byToken && tokens ? "--method TOKEN" : "";
  const auto also = [&](const char* option) { (hint += hint.empty() ? "" : " and ") += option; };
  if (components) also("--component NAME");
  if (byAddress && !withAddress) also("--address ADDR");
  else if (byToken ? !byAddress : instantiations) also("--instantiation TEXT");
  if (hint.empty()) hint = "--method TOKEN";
  return hint;
}

// --method TOKEN and/or --address ADDR: the one body they name, or the error.
std::optional<std::size_t> chooseBody(const std::vector<il::Method>& methods, std::optional<std::uint32_t> token,
                                      const InputBytes& input, Report& report, int& status,
                                      const std::string& instantiation, const std::string& component,
                                      std::optional<std::uint64_t> address) {
  std::vector<std::size_t> bodies = matchingBodies(methods, token, component, address);
  // What is asked, for the messages: "method 0x06000001", "the method at 0x7f...".
  const std::string asked = token ? "method " + tokenText(*token) + (address ? " at " + shortHex(*address) : "")
                                  : "the method at " + shortHex(*address);
  bool components = false;
  const std::string known =
      knownBodies(methods, bodies, token.has_value(), !token || sameButCode(methods, bodies), components);
  if (!instantiation.empty() && !bodies.empty()) {
    std::erase_if(bodies, [&](std::size_t i) {
      return !il::sameInstantiationText(instantiation, il::instantiationText(methods[i].instantiation));
    });
    if (bodies.empty()) {
      status = kInvalid;
      methodError(report, rules::kIlMethodNotFound, "/methods",
                  (token ? asked : "the methods at " + shortHex(*address)) + " ha" + (token ? "s" : "ve") +
                      " no body for the instantiation " + quoteInput(instantiation) + " (" +
                      (token ? "it has " : "they are ") + known + ")",
                  input);
      return std::nullopt;
    }
  }
  if (bodies.size() == 1) return bodies.front();
  if (bodies.size() > 1) {
    bool byAddress = false;
    const std::string hint = bodiesHint(methods, bodies, token.has_value(), address.has_value(), components, byAddress);
    status = kUsageOrIo;
    report.fail(kUsageOrIo, rules::kUsage,
                (token ? asked + " has " + std::to_string(bodies.size()) + " bodies"
                       : "the code of " + std::to_string(bodies.size()) + " methods holds " + shortHex(*address)) +
                    (token && !address && !byAddress ? ", one per instantiation (" : " (") + known +
                    "): choose one with " + hint);
    return std::nullopt;
  }
  status = kInvalid;
  methodError(
      report, rules::kIlMethodNotFound, "/methods",
      (address ? "no method" + (token ? " " + tokenText(*token) : std::string()) + "'s code holds " + shortHex(*address)
               : "no method " + tokenText(*token)) +
          " in the description (" + methodCount(methods.size()) + (methods.empty() ? "" : ": " + someTokens(methods)) +
          ")",
      input);
  return std::nullopt;
}

}  // namespace

std::optional<std::size_t> chooseMethod(const std::vector<il::Method>& methods, std::optional<std::uint32_t> token,
                                        const InputBytes& input, Report& report, int& status,
                                        const std::string& instantiation, const std::string& component,
                                        std::optional<std::uint64_t> address) {
  if (!token && !address && methods.size() == 1) token = methods.front().token;
  if (token || address) return chooseBody(methods, token, input, report, status, instantiation, component, address);
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
    // The message names the bound as the encoder's did ("bounds[3].source: ...").
    const std::string bound = e.path.empty() ? std::string() : e.path + ": ";
    methodError(report, e.rule, aboutBound ? boundPointer(index, e) : pointer + "/bounds",
                name + ": " + bound + e.message, input);
    return std::nullopt;
  }
  return std::move(bytes).value();
}

}  // namespace gdmap::cli
