// gdmap il locate --pid PID ADDRESS... | CORE ADDRESS...: addr2line for a
// .NET process. Each address is looked up in the runtime's range sections:
// JIT-compiled code (the body holding it among every body of the code
// heaps, enumerated once and searched by address, with its method, code
// version and the profiling API's entries covering the offset), a
// ReadyToRun image's code (the image's own answer, the image read from its
// file the first time one of its addresses is asked), or a stub.
#include "process_locate.hpp"
#include "exit_status.hpp"
#include "il_arguments.hpp"
#include "il_entry_json.hpp"
#include "json_object.hpp"
#include "r2r_locate.hpp"
#include "runtime_target.hpp"

#include <gdmap/schema/bounds_to_api.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <iostream>
#include <map>
#include <unordered_map>

namespace gdmap::cli {
namespace {

// What is known of one JIT-compiled body once an address in it was asked.
struct JitAnswer {
  bool read = false;
  std::optional<Error> error;  // its method or debug info could not be read
  runtime::MethodIdentity method;
  std::string module;
  std::vector<il::ApiEntry> api;
  bool noBounds = false;
};

// A ReadyToRun image of the process, read the first time it is asked.
struct R2RModule {
  std::optional<InputBytes> file;
  std::optional<r2r::R2RImage> image;
  std::vector<std::optional<Owner>> owners;
  std::unique_ptr<ApiTables> tables;
  std::string path;
  std::optional<std::string> error;
};

class ProcessLocator {
 public:
  explicit ProcessLocator(const RuntimeTarget& t) : t_(t), code_(*t.code) {}

  // Text and JSON for one address; false when it is in no method.
  bool answer(std::uint64_t address, Report& report) {
    const runtime::CodeRangeSection* s = code_.sectionAt(address);
    std::string text = shortHex(address) + ": ";
    std::string json = "{\"address\": \"" + shortHex(address) + "\", ";
    bool found = false;
    if (!s) {
      text += "in no code the runtime knows";
      json += "\"kind\": null, \"method\": null}";
    } else if (s->kind == runtime::RangeKind::JitCodeHeap) {
      found = jit(address, report, text, json);
    } else if (s->kind == runtime::RangeKind::ReadyToRun) {
      found = readyToRun(*s, address, text, json);
    } else {
      const char* kind = s->kind == runtime::RangeKind::Stubs ? "stub" : "other";
      text += std::string("in the runtime's ") + (s->kind == runtime::RangeKind::Stubs ? "stubs" : "other code") +
              " [" + shortHex(s->begin) + ", " + shortHex(s->end) + "): no method";
      json += "\"kind\": \"" + std::string(kind) + "\", \"method\": null}";
    }
    if (report.json()) {
      report.object().arrayRaw(json);
    } else {
      std::cout << text << '\n';
    }
    return found;
  }

 private:
  bool jit(std::uint64_t address, Report& report, std::string& text, std::string& json) {
    if (!bodies_) {
      Expected<std::vector<runtime::JitBody>> all = code_.jitBodies();
      if (!all) {
        addTargetError(report, t_.name, all.error());
        bodies_.emplace();
      } else {
        bodies_ = std::move(*all);
      }
      answers_.resize(bodies_->size());
    }
    const std::vector<runtime::JitBody>& b = *bodies_;
    auto it = std::upper_bound(b.begin(), b.end(), address,
                               [](std::uint64_t a, const runtime::JitBody& body) { return a < body.start; });
    if (it == b.begin() || address >= std::prev(it)->start + std::prev(it)->size) {
      text += "in a JIT code heap, in no method's code (a stub or free space)";
      json += "\"kind\": \"jit\", \"method\": null}";
      return false;
    }
    const std::size_t index = static_cast<std::size_t>(std::prev(it) - b.begin());
    const runtime::JitBody& body = b[index];
    JitAnswer& a = answers_[index];
    if (!a.read) read(body, a);
    const std::uint32_t offset = static_cast<std::uint32_t>(address - body.start);
    const char* tier = body.version.tier ? il::tierName(*body.version.tier) : nullptr;
    if (a.error) {
      text += "JIT-compiled code of the body at " + shortHex(body.start) + ": " + a.error->message;
      json += "\"kind\": \"jit\", \"method\": null, \"error\": ";
      appendJsonString(a.error->message, json);
      json += "}";
      return false;
    }
    text += "jit method " + hex32(a.method.token) + (a.method.dynamic ? " (dynamic)" : "") + " of " +
            (a.module.empty() ? std::string("(no file)") : a.module) + " [" + (tier ? tier : "tier unknown") +
            (body.version.ilVersion ? ", IL version " + std::to_string(body.version.ilVersion) : std::string()) +
            (body.version.active ? ", active" : "") + "], +" + shortHex(offset) + " of " + std::to_string(body.size) +
            " bytes: ";
    json += "\"kind\": \"jit\", \"method\": {\"module\": ";
    appendJsonString(a.module, json);
    json += ", \"token\": \"" + hex32(a.method.token) + "\", \"methodDesc\": \"" + shortHex(body.methodDesc) +
            "\", \"dynamic\": " + (a.method.dynamic ? "true" : "false") + ", \"codeVersion\": {\"kind\": \"jit\"" +
            (tier ? std::string(", \"tier\": \"") + tier + "\"" : std::string()) +
            ", \"ilVersion\": " + std::to_string(body.version.ilVersion) +
            ", \"active\": " + (body.version.active ? "true" : "false") + "}, \"start\": \"" + shortHex(body.start) +
            "\", \"codeSize\": " + std::to_string(body.size) + "}, \"offset\": " + std::to_string(offset);
    entries(a.api, a.noBounds, offset, text, json);
    return true;
  }

  void read(const runtime::JitBody& body, JitAnswer& a) {
    a.read = true;
    Expected<runtime::MethodIdentity> m = code_.method(body.methodDesc);
    if (!m) {
      a.error = m.error();
      return;
    }
    a.method = *m;
    auto path = modules_.find(m->module);
    if (path == modules_.end()) {
      Expected<runtime::ManagedModule> module = code_.module(m->module);
      path = modules_.emplace(m->module, module ? module->path : std::string()).first;
    }
    a.module = path->second;
    if (body.debugInfo == 0) {
      a.noBounds = true;
      return;
    }
    Expected<runtime::JitDebugInfo> info = code_.debugInfo(body);
    if (!info) {
      a.error = info.error();
      return;
    }
    a.noBounds = info->bounds.empty();
    a.api = il::boundsToApi(info->bounds, body.size);
  }

  bool readyToRun(const runtime::CodeRangeSection& s, std::uint64_t address, std::string& text, std::string& json) {
    R2RModule& m = r2r_[s.begin];
    if (!m.image && !m.error) {
      Expected<runtime::ManagedModule> module = code_.module(s.module);
      if (!module) {
        m.error = module.error().message;
      } else {
        m.path = module->path;
        Expected<InputBytes> file = InputBytes::open(module->path);
        Expected<r2r::R2RImage> image =
            file ? r2r::readR2RImage(file->bytes(), nullptr) : Expected<r2r::R2RImage>(file.error());
        if (!image) {
          m.error = "its image " + module->path + " cannot be read: " + image.error().message;
        } else {
          m.file = std::move(*file);
          m.image = std::move(*image);
          m.owners = ownersOf(*m.image);
          m.tables = std::make_unique<ApiTables>(*m.image);
        }
      }
    }
    const std::uint64_t rva = address - s.begin;
    json += "\"kind\": \"r2r\", ";
    if (m.error) {
      text += "ReadyToRun code at RVA " + shortHex(rva) + ": " + *m.error;
      json += "\"module\": ";
      appendJsonString(m.path, json);
      json += ", \"rva\": \"" + shortHex(rva) + "\", \"method\": null, \"error\": ";
      appendJsonString(*m.error, json);
      json += "}";
      return false;
    }
    const Located l = locate(*m.image, m.owners, *m.tables, static_cast<std::uint32_t>(rva));
    json += "\"module\": ";
    appendJsonString(m.path, json);
    json += ", \"rva\": \"" + shortHex(rva) + "\", ";
    if (!l.method) {
      text += "ReadyToRun image " + m.path + ", RVA " + shortHex(rva) + ": in no method's code";
      json += "\"method\": null}";
      return false;
    }
    const std::string inst = instantiationOf(*l.method);
    text += "r2r method " + hex32(l.method->token) + (inst.empty() ? "" : " " + inst) + " of " + m.path + ", " +
            partName(l.part) + " +" + shortHex(l.offset) + " of " + std::to_string(l.method->codeSize) + " bytes: ";
    json += "\"method\": {\"token\": \"" + hex32(l.method->token) + "\"";
    if (!inst.empty()) {
      json += ", \"instantiation\": ";
      appendJsonString(inst, json);
    }
    json += ", \"codeVersion\": {\"kind\": \"r2r\"}, \"start\": \"" + shortHex(s.begin + l.method->entryRva) +
            "\", \"codeSize\": " + std::to_string(l.method->codeSize) + "}, \"part\": \"" + partName(l.part) +
            "\", \"offset\": " + std::to_string(l.offset);
    if (l.noBounds) {
      text += "no bounds";
      json += ", \"il\": null}";
      return true;
    }
    entries(l.entries, false, l.offset, text, json, true);
    return true;
  }

  // The API entries covering `offset` (all given when `covering`).
  static void entries(const std::vector<il::ApiEntry>& api, bool noBounds, std::uint32_t offset, std::string& text,
                      std::string& json, bool covering = false) {
    if (noBounds) {
      text += "no bounds";
      json += ", \"il\": null}";
      return;
    }
    json += ", \"il\": [";
    bool any = false;
    for (const il::ApiEntry& e : api) {
      if (!covering && !(e.nativeStartOffset <= offset && offset < e.nativeEndOffset)) continue;
      const std::string_view special = il::specialIlName(e.ilOffset);
      text += std::string(any ? ", " : "") + "IL " + (special.empty() ? shortHex(e.ilOffset) : std::string(special)) +
              " (native " + std::to_string(e.nativeStartOffset) + "-" + std::to_string(e.nativeEndOffset) + ")";
      if (any) json += ", ";
      appendEntryJson(e.ilOffset, e.nativeStartOffset, e.nativeEndOffset, json);
      any = true;
    }
    if (!any) text += "no IL offset";
    json += "]}";
  }

  const RuntimeTarget& t_;
  const runtime::RuntimeCode& code_;
  std::optional<std::vector<runtime::JitBody>> bodies_;
  std::vector<JitAnswer> answers_;
  std::unordered_map<std::uint64_t, std::string> modules_;
  std::map<std::uint64_t, R2RModule> r2r_;
};

}  // namespace

int locateProcess(const IlLocateOptions& options, std::optional<InputBytes> core, Report& report) {
  // With --pid the operands are all addresses.
  std::vector<std::string> texts = options.rvas;
  if (!options.pid.empty()) texts.insert(texts.begin(), options.image);
  std::vector<std::uint64_t> addresses;
  addresses.reserve(texts.size());
  for (const std::string& text : texts) {
    const std::optional<std::uint64_t> a = parseAddress(text);
    if (!a) return report.fail(kUsageOrIo, rules::kUsage, "ADDRESS " + quoteInput(text) + ": " + addressProblem(text));
    addresses.push_back(*a);
  }
  if (addresses.empty()) return report.fail(kUsageOrIo, rules::kUsage, "no ADDRESS to locate");
  int status = kInvalid;
  std::unique_ptr<RuntimeTarget> t = openRuntimeTarget(options.pid, std::move(core), report, status);
  if (!t) return status;
  ProcessLocator locator(*t);
  std::size_t unknown = 0;
  if (report.json()) report.object().beginArray("addresses");
  for (const std::uint64_t a : addresses) unknown += locator.answer(a, report) ? 0 : 1;
  if (report.json()) {
    report.object().endArray();
    report.object().number("unknown", unknown);
  }
  return unknown == 0 ? kSuccess : kInvalid;
}

}  // namespace gdmap::cli
