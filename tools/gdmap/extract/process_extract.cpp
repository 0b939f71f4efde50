// gdmap il extract --pid PID | CORE: every method body of a .NET process
// (live, or a core dump of it) as an IL-map description: each native code
// version of each JIT-compiled method (reader/runtime: the runtime's code
// heaps, read through its contract descriptor), and, unless --jit-only,
// every body of every ReadyToRun image the runtime mapped (the R2R reader
// on the image's file), all at their absolute addresses.
#include "extract/process_extract.hpp"
#include "app/exit_status.hpp"
#include "app/il_commands.hpp"
#include "extract/bound_lines.hpp"
#include "il/il_arguments.hpp"
#include "il/il_description_output.hpp"
#include "il/method_query.hpp"
#include "image/r2r_components.hpp"
#include "image/runtime_target.hpp"
#include "locate/locate_image_setup.hpp"

#include <gdmap/description/il_description_json.hpp>
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/reader/r2r_image.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/symbolize/module_names.hpp>
#include <gdmap/symbolize/module_paths.hpp>
#include <gdmap/symbolize/runtime_type_text.hpp>
#include <gdmap/symbolize/source_lines.hpp>

#include <algorithm>
#include <iostream>
#include <map>

namespace gdmap::cli {
namespace {

using symbolize::ModuleNames;
using symbolize::RuntimeTypeText;

struct ProcessCounts {
  std::size_t jitBodies = 0;
  std::size_t jitMethods = 0;  // written
  std::size_t dynamicMethods = 0;
  std::size_t instantiations = 0;         // JIT bodies of generic instantiations, named
  std::size_t unnamedInstantiations = 0;  // ... whose types could not all be named
  std::size_t explicitVersions = 0;
  std::map<std::string, std::size_t> tiers;  // written JIT bodies by tier name
  std::size_t r2rModules = 0;
  std::size_t r2rMethods = 0;
  std::size_t r2rModulesUnread = 0;
  std::size_t noDebugInfo = 0;
  std::size_t noBounds = 0;
  std::size_t unreadable = 0;  // bodies whose method or debug info could not be read
};

// A diagnostic that does not stop the extraction: one body the target does
// not hold whole (a core dump without its page) is said and skipped.
void warnBody(Report& report, const std::string& target, const Error& e) {
  Diagnostic d;
  d.severity = Severity::Warning;
  d.rule = e.rule;
  d.message = e.message + " (the body is left out)";
  d.file = target;
  report.add(std::move(d));
}

// A JIT-compiled method's names: with --names (`names`) its name, its
// generic arguments when its types can all be named (a method of a generic
// type or a generic method; methodDesc tells the others apart), with
// --names its signature.
void nameJitMethod(const RuntimeTarget& t, const runtime::JitBody& b, const runtime::MethodIdentity& id,
                   ModuleNames* names, RuntimeTypeText& types, ProcessCounts& c, il::Method& m, Report& report) {
  if (names) m.name = id.dynamic ? id.dynamicName : names->methodName(m.module, m.token);
  bool unnamed = false;  // an instantiation whose types cannot all be named: no signature either
  if (Expected<runtime::MethodInstantiation> inst = t.code->instantiation(b.methodDesc)) {
    m.instantiation = types.instantiation(*inst);
    unnamed = !m.instantiation && !(inst->typeArguments.empty() && inst->methodArguments.empty());
    c.unnamedInstantiations += unnamed ? 1 : 0;
  } else {
    unnamed = true;
    warnBody(report, t.name, inst.error());
  }
  c.instantiations += m.instantiation ? 1 : 0;
  if (names && !id.dynamic && !unnamed) {
    m.signature = names->signatureOf(m.module, m.token, m.instantiation ? &*m.instantiation : nullptr);
  }
}

// A JIT-compiled body's code version, size and code ranges; the version.
const il::CodeVersion& addJitCode(const runtime::JitBody& b, il::Method& m) {
  il::CodeVersion v;
  v.kind = il::CodeKind::Jit;
  v.tier = b.version.tier;
  v.ilVersion = b.version.ilVersion;
  v.active = b.version.active;
  m.codeVersion = v;
  m.codeSize = b.size;
  for (const runtime::CodeBlock& r : b.ranges) m.code.push_back({r.start, r.size, true});
  return *m.codeVersion;
}

// `modules` names the types of instantiations always, and the methods
// themselves with --names.
bool extractJit(const RuntimeTarget& t, const IlExtractOptions& options, ModuleNames& modules, ProcessCounts& c,
                std::vector<il::Method>& out, Report& report) {
  ModuleNames* names = options.names ? &modules : nullptr;
  RuntimeTypeText types(*t.code, modules);
  const runtime::RuntimeCode& code = *t.code;
  Expected<std::vector<runtime::JitBody>> bodies = code.jitBodies();
  if (!bodies) {
    addTargetError(report, t.name, bodies.error());
    return false;
  }
  // A module whose path the dump lacks (an assembly loaded from bytes has
  // none worth keeping): its bodies are listed without one.
  symbolize::ModulePaths modulePaths(code);
  const std::optional<std::uint32_t> only = optionalU32(options.method);
  for (const runtime::JitBody& b : *bodies) {
    ++c.jitBodies;
    Expected<runtime::MethodIdentity> id = code.method(b.methodDesc);
    if (!id) {
      ++c.unreadable;
      warnBody(report, t.name, id.error());
      continue;
    }
    if (only && id->token != *only) continue;
    // A body without debug info (a dynamic method, a P/Invoke stub the JIT
    // compiled) is listed with no bounds: its code and method are known,
    // and the runtime's own answer for it is an empty array.
    runtime::JitDebugInfo noInfo;
    Expected<runtime::JitDebugInfo> info =
        b.debugInfo == 0 ? Expected<runtime::JitDebugInfo>(noInfo) : code.debugInfo(b);
    if (!info) {
      ++c.unreadable;
      warnBody(report, t.name, info.error());
      continue;
    }
    if (b.debugInfo == 0) {
      ++c.noDebugInfo;
    } else if (info->bounds.empty()) {
      ++c.noBounds;
    }
    il::Method m;
    m.module = modulePaths.of(id->module);
    m.token = id->token;
    m.methodDesc = b.methodDesc;
    m.dynamicMethod = id->dynamic;
    nameJitMethod(t, b, *id, names, types, c, m, report);
    const il::CodeVersion& v = addJitCode(b, m);
    m.bounds = std::move(info->bounds);  // --api: made the API array as it is written
    ++c.jitMethods;
    c.dynamicMethods += id->dynamic ? 1 : 0;
    c.explicitVersions += b.version.explicitVersion ? 1 : 0;
    ++c.tiers[v.tier ? il::tierName(*v.tier) : "unknown"];
    out.push_back(std::move(m));
  }
  return true;
}

// Every body of every ReadyToRun image the runtime mapped, from the
// image's file (the mapped image is the file, laid out by sections: the
// R2R reader reads the file).
void extractReadyToRun(const RuntimeTarget& t, const IlExtractOptions& options, ModuleNames* names, ProcessCounts& c,
                       std::vector<il::Method>& out, Report& report) {
  const runtime::RuntimeCode& code = *t.code;
  const std::optional<std::uint32_t> only = optionalU32(options.method);
  for (const runtime::CodeRangeSection& s : code.rangeSections()) {
    if (s.kind != runtime::RangeKind::ReadyToRun) continue;
    Expected<runtime::ManagedModule> module = code.module(s.module);
    if (!module || module->path.empty()) {
      ++c.r2rModulesUnread;
      if (!module) warnBody(report, t.name, module.error());
      continue;
    }
    Expected<InputBytes> file = InputBytes::open(module->path);
    Expected<r2r::R2RImage> image =
        file ? r2r::readR2RImage(file->bytes(), names ? names->namesOf(module->path) : nullptr)
             : Expected<r2r::R2RImage>(file.error());
    if (!image) {
      ++c.r2rModulesUnread;
      Diagnostic d;
      d.severity = Severity::Warning;
      d.rule = image.error().rule;
      d.message = "the ReadyToRun image " + module->path + " mapped at " + shortHex(s.begin) +
                  " cannot be read (its methods are left out): " + image.error().message;
      d.file = t.name;
      report.add(std::move(d));
      continue;
    }
    ++c.r2rModules;
    for (const r2r::MethodBody& body : image->methods) {
      if (only && body.token != *only) continue;
      if (!body.hasDebugInfo || body.bounds.empty()) continue;
      const ByteSpan bytes = body.bounds.first(body.bounds.size() - body.boundsTrailing);
      Expected<il::BoundsView> view = il::openBounds(bytes, image->profile.bounds);
      if (!view) continue;  // the reader validated it: not reached
      il::Method m;
      m.module = module->path;
      m.token = body.token;
      m.instantiation = bodyInstantiation(body);
      if (names && image->components.empty()) {
        m.name = names->methodName(m.module, m.token);
        m.signature = names->signatureOf(m.module, m.token, m.instantiation ? &*m.instantiation : nullptr);
      }
      if (!image->components.empty() && body.component < image->components.size()) {
        m.component = std::to_string(body.component);
      }
      il::CodeVersion v;
      v.kind = il::CodeKind::ReadyToRun;
      m.codeVersion = v;
      m.codeSize = body.codeSize;
      m.code = bodyCodeRanges(body, *image, s.begin);
      m.bounds = view->toVector();
      ++c.r2rMethods;
      out.push_back(std::move(m));
    }
  }
}

void summarize(const RuntimeTarget& t, const ProcessCounts& c, const IlExtractOptions& options, Report& report) {
  const runtime::RuntimeCode& code = *t.code;
  const std::string version = code.productVersion();
  const std::string form =
      code.debugInfoForm() == runtime::JitDebugInfoForm::FlagByte ? ".NET 10 debug info" : ".NET 11 debug info";
  if (report.json()) {
    JsonObject& o = report.object();
    o.string("target", t.name);
    o.string("runtime", code.contractDescriptor().runtimePath);
    if (!version.empty()) o.string("runtimeVersion", version);
    o.boolean("descriptorFromFile", t.descriptorFromFile);
    o.number("jitBodies", c.jitBodies);
    o.number("jitMethods", c.jitMethods);
    o.number("dynamicMethods", c.dynamicMethods);
    o.number("instantiations", c.instantiations);
    o.number("unnamedInstantiations", c.unnamedInstantiations);
    o.number("explicitVersions", c.explicitVersions);
    JsonWriter& tiers = o.value("tiers");
    tiers.beginObject(JsonWriter::Layout::Inline);
    for (const auto& [name, n] : c.tiers) tiers.member(name, n);
    tiers.endObject();
    o.number("r2rModules", c.r2rModules);
    o.number("r2rMethods", c.r2rMethods);
    o.number("noDebugInfo", c.noDebugInfo);
    o.number("noBounds", c.noBounds);
    JsonWriter& skipped = o.value("skipped");
    skipped.beginObject(JsonWriter::Layout::Inline);
    skipped.member("unreadable", c.unreadable);
    skipped.member("r2rModulesUnread", c.r2rModulesUnread);
    skipped.endObject();
    return;
  }
  std::string line =
      t.name + ": " + code.contractDescriptor().runtimePath + (version.empty() ? std::string() : " (" + version + ")") +
      ", " + form + (t.descriptorFromFile ? ", descriptor read from the runtime's file" : "") + ": " +
      std::to_string(c.jitMethods) + " JIT-compiled bodies (" + std::to_string(c.explicitVersions) +
      " explicit code versions, " + std::to_string(c.dynamicMethods) + " dynamic methods, " +
      std::to_string(c.instantiations) + " generic instantiations" +
      (c.unnamedInstantiations ? " (" + std::to_string(c.unnamedInstantiations) + " more unnamed)" : "") + "; ";
  bool first = true;
  for (const auto& [name, n] : c.tiers) {
    line += (first ? "" : ", ") + name + " " + std::to_string(n);
    first = false;
  }
  line += ")";
  if (!options.jitOnly) {
    line += ", " + std::to_string(c.r2rMethods) + " ReadyToRun bodies of " + std::to_string(c.r2rModules) + " images";
    if (c.r2rModulesUnread) line += " (" + std::to_string(c.r2rModulesUnread) + " images not read)";
  }
  line += "; " + std::to_string(c.noDebugInfo) + " without debug info and " + std::to_string(c.noBounds) +
          " with no bounds (listed with none); skipped " + std::to_string(c.unreadable) + " unreadable";
  std::cerr << line << '\n';
}

}  // namespace

bool checkProcessOptions(const IlExtractOptions& options, Report& report) {
  const char* given = !options.component.empty()   ? "--component"
                      : !options.composite.empty() ? "--composite"
                      : options.strict             ? "--strict"
                      : !options.pdb.empty()       ? "--pdb"
                                                   : nullptr;
  if (!given) return true;
  report.fail(kUsageOrIo, rules::kUsage,
              std::string(given) + " is for a ReadyToRun image; a process (--pid or a core dump) does not take it");
  return false;
}

// --method NAME: keeps the bodies of the one method (module and token) it
// names; false (the error in `report`) when it names none or several.
bool keepNamed(const MethodQuery& query, const std::string& target, std::vector<il::Method>& methods, Report& report) {
  std::map<std::pair<std::string, std::uint32_t>, MethodCandidate> candidates;
  std::erase_if(methods, [&](const il::Method& m) { return !answersQuery(query, m.name, m.signature); });
  for (const il::Method& m : methods) {
    MethodCandidate c{m.token, m.module, m.signature.empty() ? m.name : m.signature};
    candidates.try_emplace({m.module, m.token}, std::move(c));
  }
  if (candidates.size() > 1) {
    std::vector<MethodCandidate> listed;
    listed.reserve(candidates.size());
    for (auto& [key, c] : candidates) listed.push_back(std::move(c));
    ambiguousMethod(query, listed, target, report);
    return false;
  }
  if (methods.empty()) {
    Diagnostic d;
    d.rule = rules::kIlMethodNotFound;
    d.file = target;
    d.message = "no method of the process with code is named " + quoteInput(query.name, 400);
    report.add(std::move(d));
    return false;
  }
  return true;
}

int extractProcess(const IlExtractOptions& given, std::optional<InputBytes> core, const Output& output,
                   Report& report) {
  // --method NAME needs the names: it implies --names.
  const MethodQuery query = parseMethodQuery(given.method);
  IlExtractOptions options = given;
  options.names |= query.byName();
  int status = kInvalid;
  std::unique_ptr<RuntimeTarget> t = openRuntimeTarget(options.pid, std::move(core), report, status);
  if (!t) return status;
  ProcessCounts counts;
  std::vector<il::Method> methods;
  ModuleNames modules([&](Diagnostic d) {
    d.file = t->name;
    report.add(std::move(d));
  });
  if (!extractJit(*t, options, modules, counts, methods, report)) return kInvalid;
  if (!options.jitOnly) extractReadyToRun(*t, options, options.names ? &modules : nullptr, counts, methods, report);
  // One order on every machine: by the code's address.
  std::stable_sort(methods.begin(), methods.end(), [](const il::Method& a, const il::Method& b) {
    return a.code.front().start < b.code.front().start;
  });
  summarize(*t, counts, options, report);
  if (query.byName() && !keepNamed(query, t->name, methods, report)) return kInvalid;
  // --lines: each module's PDB beside its file (none: no lines, one note).
  symbolize::PdbCache pdbs;
  MethodFinish lines;
  if (options.lines) {
    lines = [&pdbs](il::Method& m) -> Status {
      const symbolize::ImagePdb* pdb = m.dynamicMethod ? nullptr : pdbs.of(m.module);
      return pdb ? addBoundLines(m, *pdb) : Status(Success{});
    };
  }
  status = writeIlDescription(output, methods, options.api, report, lines);
  for (const symbolize::PdbNote& note : pdbs.takeNotes())
    addPdbNote(report, note, Severity::Note, "--lines: no source lines for its methods");
  if (status != kSuccess) return status;
  if (report.json()) report.object().string("output", options.output);
  return kSuccess;
}

}  // namespace gdmap::cli
