// gdmap il locate --pid PID ADDRESS... | CORE ADDRESS...: addr2line for a
// .NET process. Each address is looked up in the runtime's range sections:
// JIT-compiled code (the body holding it among every body of the code
// heaps, enumerated once and searched by address, with its method, code
// version and the profiling API's entries covering the offset), a
// ReadyToRun image's code (the image's own answer, the image read from its
// file the first time one of its addresses is asked), or a stub. Each
// answer is found once, then written as text or as JSON.
#include "process_locate.hpp"
#include "exit_status.hpp"
#include "il_arguments.hpp"
#include "il_entry_json.hpp"
#include "json_object.hpp"
#include "module_names.hpp"
#include "r2r_locate.hpp"
#include "runtime_target.hpp"
#include "runtime_type_text.hpp"

#include <gdmap/schema/bounds_to_api.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <iostream>
#include <map>
#include <unordered_map>

#include <unistd.h>
#include <cerrno>
#include <cstring>

namespace gdmap::cli {
namespace {

// What is known of one JIT-compiled body once an address in it was asked.
struct JitMethod {
  bool read = false;
  std::optional<Error> error;  // its method or debug info could not be read
  runtime::MethodIdentity method;
  std::optional<il::Instantiation> instantiation;
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

// One address's answer.
struct Answer {
  enum class Kind { None, Jit, ReadyToRun, Stub, Other } kind = Kind::None;
  std::uint64_t address = 0;
  const runtime::CodeRangeSection* section = nullptr;
  // Jit: the body and its method (null: in a code heap, in no body).
  const runtime::JitBody* body = nullptr;
  const JitMethod* jit = nullptr;
  // ReadyToRun: the image and its own answer.
  const R2RModule* module = nullptr;
  std::uint64_t rva = 0;
  Located located;
  // Both: the offset in the method's code and the entries covering it.
  std::uint32_t offset = 0;
  std::vector<il::ApiEntry> entries;
  bool noBounds = false;
  std::string name;   // --names: the method's, from its module's metadata (or a dynamic method's own)
  std::string error;  // the method or image could not be read
  bool found() const { return error.empty() && (body != nullptr || located.method != nullptr); }
};

const char* tierOf(const runtime::JitBody& body) {
  return body.version.tier ? il::tierName(*body.version.tier) : nullptr;
}

std::string entriesText(const Answer& a) {
  if (a.noBounds) return "no bounds";
  if (a.entries.empty()) return "no IL offset";
  std::string out;
  for (const il::ApiEntry& e : a.entries) {
    const std::string_view special = il::specialIlName(e.ilOffset);
    out += std::string(out.empty() ? "" : ", ") + "IL " +
           (special.empty() ? shortHex(e.ilOffset) : std::string(special)) + " (native " +
           std::to_string(e.nativeStartOffset) + "-" + std::to_string(e.nativeEndOffset) + ")";
  }
  return out;
}

std::string entriesJson(const Answer& a) {
  if (a.noBounds) return ", \"il\": null";
  std::string out = ", \"il\": [";
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    if (i) out += ", ";
    appendEntryJson(a.entries[i].ilOffset, a.entries[i].nativeStartOffset, a.entries[i].nativeEndOffset, out);
  }
  return out + "]";
}

std::string text(const Answer& a) {
  std::string out = shortHex(a.address) + ": ";
  switch (a.kind) {
    case Answer::Kind::None: return out + "in no code the runtime knows";
    case Answer::Kind::Stub:
    case Answer::Kind::Other:
      return out + "in the runtime's " + (a.kind == Answer::Kind::Stub ? "stubs" : "other code") + " [" +
             shortHex(a.section->begin) + ", " + shortHex(a.section->end) + "): no method";
    case Answer::Kind::Jit: {
      if (!a.body) return out + "in a JIT code heap, in no method's code (a stub or free space)";
      const runtime::JitBody& b = *a.body;
      if (!a.error.empty()) return out + "JIT-compiled code of the body at " + shortHex(b.start) + ": " + a.error;
      const char* tier = tierOf(b);
      const std::string inst = a.jit->instantiation ? " " + il::instantiationText(a.jit->instantiation) : "";
      return out + "jit method " + hex32(a.jit->method.token) + (a.name.empty() ? "" : " " + a.name) + inst +
             (a.jit->method.dynamic ? " (dynamic)" : "") + " of " +
             (a.jit->module.empty() ? std::string("(no file)") : a.jit->module) + " [" +
             (tier ? tier : "tier unknown") +
             (b.version.ilVersion ? ", IL version " + std::to_string(b.version.ilVersion) : std::string()) +
             (b.version.active ? ", active" : "") + "], +" + shortHex(a.offset) + " of " + std::to_string(b.size) +
             " bytes: " + entriesText(a);
    }
    case Answer::Kind::ReadyToRun: {
      if (!a.error.empty()) return out + "ReadyToRun code at RVA " + shortHex(a.rva) + ": " + a.error;
      if (!a.located.method) {
        return out + "ReadyToRun image " + a.module->path + ", RVA " + shortHex(a.rva) + ": in no method's code";
      }
      const r2r::MethodBody& m = *a.located.method;
      const std::string inst = instantiationOf(m);
      return out + "r2r method " + hex32(m.token) + (a.name.empty() ? "" : " " + a.name) +
             (inst.empty() ? "" : " " + inst) + " of " + a.module->path + ", " + partName(a.located.part) + " +" +
             shortHex(a.offset) + " of " + std::to_string(m.codeSize) + " bytes: " + entriesText(a);
    }
  }
  return out;
}

std::string json(const Answer& a) {
  std::string out = "{\"address\": \"" + shortHex(a.address) + "\", ";
  switch (a.kind) {
    case Answer::Kind::None: return out + "\"kind\": null, \"method\": null}";
    case Answer::Kind::Stub:
    case Answer::Kind::Other:
      return out + "\"kind\": \"" + (a.kind == Answer::Kind::Stub ? "stub" : "other") + "\", \"method\": null}";
    case Answer::Kind::Jit: {
      out += "\"kind\": \"jit\", ";
      if (!a.body) return out + "\"method\": null}";
      if (!a.error.empty()) {
        out += "\"method\": null, \"error\": ";
        appendJsonString(a.error, out);
        return out + "}";
      }
      const runtime::JitBody& b = *a.body;
      const char* tier = tierOf(b);
      out += "\"method\": {\"module\": ";
      appendJsonString(a.jit->module, out);
      out += ", \"token\": \"" + hex32(a.jit->method.token) + "\"";
      if (!a.name.empty()) {
        out += ", \"name\": ";
        appendJsonString(a.name, out);
      }
      if (const std::optional<il::Instantiation>& inst = a.jit->instantiation) {
        out += ", \"instantiation\": {\"type\": " + stringArrayJson(inst->typeArguments) +
               ", \"method\": " + stringArrayJson(inst->methodArguments) + "}";
      }
      out += ", \"methodDesc\": \"" + shortHex(b.methodDesc) +
             "\", \"dynamic\": " + (a.jit->method.dynamic ? "true" : "false") +
             ", \"codeVersion\": {\"kind\": \"jit\"" + (tier ? std::string(", \"tier\": \"") + tier + "\"" : "") +
             ", \"ilVersion\": " + std::to_string(b.version.ilVersion) +
             ", \"active\": " + (b.version.active ? "true" : "false") + "}, \"start\": \"" + shortHex(b.start) +
             "\", \"codeSize\": " + std::to_string(b.size) + "}, \"offset\": " + std::to_string(a.offset);
      return out + entriesJson(a) + "}";
    }
    case Answer::Kind::ReadyToRun: {
      out += "\"kind\": \"r2r\", \"module\": ";
      appendJsonString(a.module->path, out);
      out += ", \"rva\": \"" + shortHex(a.rva) + "\", ";
      if (!a.error.empty()) {
        out += "\"method\": null, \"error\": ";
        appendJsonString(a.error, out);
        return out + "}";
      }
      if (!a.located.method) return out + "\"method\": null}";
      const r2r::MethodBody& m = *a.located.method;
      out += "\"method\": {\"token\": \"" + hex32(m.token) + "\"";
      if (!a.name.empty()) {
        out += ", \"name\": ";
        appendJsonString(a.name, out);
      }
      if (const std::string inst = instantiationOf(m); !inst.empty()) {
        out += ", \"instantiation\": ";
        appendJsonString(inst, out);
      }
      out += ", \"codeVersion\": {\"kind\": \"r2r\"}, \"start\": \"" + shortHex(a.section->begin + m.entryRva) +
             "\", \"codeSize\": " + std::to_string(m.codeSize) + "}, \"part\": \"" + partName(a.located.part) +
             "\", \"offset\": " + std::to_string(a.offset);
      return out + entriesJson(a) + "}";
    }
  }
  return out + "}";
}

class ProcessLocator {
 public:
  ProcessLocator(const RuntimeTarget& t, bool names, Report& report)
      : t_(t), code_(*t.code), report_(report), modules_(report, t.name), types_(code_, modules_), names_(names) {}

  Answer answer(std::uint64_t address) {
    Answer a;
    a.address = address;
    a.section = code_.sectionAt(address);
    if (!a.section) return a;
    switch (a.section->kind) {
      case runtime::RangeKind::JitCodeHeap: jit(a); break;
      case runtime::RangeKind::ReadyToRun: readyToRun(a); break;
      case runtime::RangeKind::Stubs: a.kind = Answer::Kind::Stub; break;
      default: a.kind = Answer::Kind::Other; break;
    }
    return a;
  }

 private:
  void jit(Answer& a) {
    a.kind = Answer::Kind::Jit;
    if (!bodies_) {
      Expected<std::vector<runtime::JitBody>> all = code_.jitBodies();
      if (!all) {
        addTargetError(report_, t_.name, all.error());
        bodies_.emplace();
      } else {
        bodies_ = std::move(*all);
      }
      methods_.resize(bodies_->size());
    }
    const std::vector<runtime::JitBody>& b = *bodies_;
    const auto it = std::upper_bound(b.begin(), b.end(), a.address,
                                     [](std::uint64_t x, const runtime::JitBody& body) { return x < body.start; });
    if (it == b.begin() || a.address >= std::prev(it)->start + std::prev(it)->size) return;
    const auto index = static_cast<std::size_t>(std::prev(it) - b.begin());
    a.body = &b[index];
    JitMethod& m = methods_[index];
    if (!m.read) read(*a.body, m);
    a.jit = &m;
    if (m.error) {
      a.error = m.error->message;
      return;
    }
    a.offset = static_cast<std::uint32_t>(a.address - a.body->start);
    if (names_) a.name = m.method.dynamic ? m.method.dynamicName : modules_.methodName(m.module, m.method.token);
    a.noBounds = m.noBounds;
    for (const il::ApiEntry& e : m.api) {
      if (e.nativeStartOffset <= a.offset && a.offset < e.nativeEndOffset) a.entries.push_back(e);
    }
  }

  void read(const runtime::JitBody& body, JitMethod& m) {
    m.read = true;
    Expected<runtime::MethodIdentity> id = code_.method(body.methodDesc);
    if (!id) {
      m.error = id.error();
      return;
    }
    m.method = *id;
    if (Expected<runtime::MethodInstantiation> inst = code_.instantiation(body.methodDesc)) {
      m.instantiation = types_.instantiation(*inst);
    }
    auto path = modulePaths_.find(id->module);
    if (path == modulePaths_.end()) {
      Expected<runtime::ManagedModule> module = code_.module(id->module);
      path = modulePaths_.emplace(id->module, module ? module->path : std::string()).first;
    }
    m.module = path->second;
    if (body.debugInfo == 0) {
      m.noBounds = true;
      return;
    }
    Expected<runtime::JitDebugInfo> info = code_.debugInfo(body);
    if (!info) {
      m.error = info.error();
      return;
    }
    m.noBounds = info->bounds.empty();
    m.api = il::boundsToApi(info->bounds, body.size);
  }

  void readyToRun(Answer& a) {
    a.kind = Answer::Kind::ReadyToRun;
    R2RModule& m = images_[a.section->begin];
    if (!m.image && !m.error) open(*a.section, m);
    a.module = &m;
    a.rva = a.address - a.section->begin;
    if (m.error) {
      a.error = *m.error;
      return;
    }
    a.located = locate(*m.image, m.owners, *m.tables, static_cast<std::uint32_t>(a.rva));
    if (names_ && a.located.method && m.image->components.empty()) {
      a.name = modules_.methodName(m.path, a.located.method->token);
    }
    a.offset = a.located.offset;
    a.entries = a.located.entries;
    a.noBounds = a.located.noBounds;
  }

  void open(const runtime::CodeRangeSection& s, R2RModule& m) {
    Expected<runtime::ManagedModule> module = code_.module(s.module);
    if (!module) {
      m.error = module.error().message;
      return;
    }
    m.path = module->path;
    Expected<InputBytes> file = InputBytes::open(module->path);
    Expected<r2r::R2RImage> image =
        file ? r2r::readR2RImage(file->bytes(), nullptr) : Expected<r2r::R2RImage>(file.error());
    if (!image) {
      m.error = "its image " + module->path + " cannot be read: " + image.error().message;
      return;
    }
    m.file = std::move(*file);
    m.image = std::move(*image);
    m.owners = ownersOf(*m.image);
    m.tables = std::make_unique<ApiTables>(*m.image);
  }

  const RuntimeTarget& t_;
  const runtime::RuntimeCode& code_;
  Report& report_;
  ModuleNames modules_;  // names the types of instantiations, and with --names the methods
  RuntimeTypeText types_;
  bool names_;
  std::optional<std::vector<runtime::JitBody>> bodies_;
  std::vector<JitMethod> methods_;
  std::unordered_map<std::uint64_t, std::string> modulePaths_;
  std::map<std::uint64_t, R2RModule> images_;
};

// Calls `line` for each line of stdin (without its newline) and `idle`
// before each wait for more input, so that a caller feeding addresses one
// at a time gets each answer at once. A line longer than 4 KiB is cut.
template <typename Line, typename Idle>
void forEachStdinLine(Line&& line, Idle&& idle) {
  std::vector<char> buffer(1 << 16);
  std::size_t have = 0;
  std::size_t number = 0;
  for (;;) {
    idle();
    const ssize_t got = ::read(0, buffer.data() + have, buffer.size() - have);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    have += static_cast<std::size_t>(got);
    std::size_t start = 0;
    for (std::size_t i = 0; i < have; ++i) {
      if (buffer[i] != '\n') continue;
      line(std::string_view(buffer.data() + start, i - start), ++number);
      start = i + 1;
    }
    if (start == 0 && have == buffer.size()) {  // a line longer than the buffer: cut
      line(std::string_view(buffer.data(), 4096), ++number);
      have = 0;
      continue;
    }
    std::memmove(buffer.data(), buffer.data() + start, have - start);
    have -= start;
  }
  if (have > 0) line(std::string_view(buffer.data(), have), ++number);
}

}  // namespace

int locateProcess(const IlLocateOptions& options, std::optional<InputBytes> core, Report& report) {
  // With --pid the operands are all addresses.
  std::vector<std::string> texts = options.rvas;
  if (!options.pid.empty() && !options.image.empty()) texts.insert(texts.begin(), options.image);
  std::vector<std::uint64_t> addresses;
  addresses.reserve(texts.size());
  for (const std::string& t : texts) {
    const std::optional<std::uint64_t> a = parseAddress(t);
    if (!a) return report.fail(kUsageOrIo, rules::kUsage, "ADDRESS " + quoteInput(t) + ": " + addressProblem(t));
    addresses.push_back(*a);
  }
  // --json is one object, written at the end: stdin may never end.
  if (texts.empty() && report.json()) {
    return report.fail(kUsageOrIo, rules::kUsage,
                       "--json needs the addresses on the command line (from stdin each answer is a line of text, "
                       "written as it comes)");
  }
  int status = kInvalid;
  std::unique_ptr<RuntimeTarget> t = openRuntimeTarget(options.pid, std::move(core), report, status);
  if (!t) return status;
  ProcessLocator locator(*t, options.names, report);
  std::size_t unknown = 0;
  if (report.json()) report.object().beginArray("addresses");
  const auto say = [&](const Answer& a) {
    unknown += a.found() ? 0 : 1;
    if (report.json()) {
      report.object().arrayRaw(json(a));
    } else {
      std::cout << text(a) << '\n';
    }
  };
  for (const std::uint64_t address : addresses) say(locator.answer(address));
  // No address given: one per line of stdin, each answered as it comes (a
  // profiler's symbolizer keeps the process open and feeds it samples).
  if (texts.empty()) {
    const auto answerLine = [&](std::string_view line, std::size_t number) {
      const std::size_t first = line.find_first_not_of(" \t\r");
      if (first == std::string_view::npos) return;
      const std::string word(line.substr(first, line.find_last_not_of(" \t\r") + 1 - first));
      if (const std::optional<std::uint64_t> a = parseAddress(word)) {
        say(locator.answer(*a));
        return;
      }
      ++unknown;
      Diagnostic d;
      d.rule = rules::kUsage;
      d.message = "stdin line " + std::to_string(number) + ": " + addressProblem(word);
      d.file = t->name;
      report.add(std::move(d));
    };
    forEachStdinLine(answerLine, [&] {
      if (!report.json()) std::cout.flush();  // answered what came: flushed before waiting for more
    });
  }
  if (report.json()) {
    report.object().endArray();
    report.object().number("unknown", unknown);
  }
  return unknown == 0 ? kSuccess : kInvalid;
}

}  // namespace gdmap::cli
