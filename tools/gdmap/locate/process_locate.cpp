// gdmap il locate --pid PID ADDRESS... | CORE ADDRESS...: addr2line for a
// .NET process. Each address is looked up in the runtime's range sections:
// JIT-compiled code (the body holding it among every body of the code
// heaps, enumerated once and searched by address, with its method, code
// version and the profiling API's entries covering the offset), a
// ReadyToRun image's code (the image's own answer, the image read from its
// file the first time one of its addresses is asked), or a stub. Each
// answer is found once, then written as text or as JSON.
#include "locate/process_locate.hpp"
#include "app/exit_status.hpp"
#include "common/json_object.hpp"
#include "il/il_arguments.hpp"
#include "il/il_entry_json.hpp"
#include "image/runtime_target.hpp"
#include "locate/address_lines.hpp"
#include "locate/locate_image_setup.hpp"
#include "locate/r2r_locate.hpp"

#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/symbolize/module_names.hpp>
#include <gdmap/symbolize/process_locator.hpp>
#include <gdmap/symbolize/runtime_type_text.hpp>

#include <iostream>
#include <unordered_map>

namespace gdmap::cli {
namespace {

// One address's answer, with what the CLI adds: the method's name
// (--names) and its instantiation as type text.
struct Answer {
  symbolize::ProcessAnswer found;
  std::string name;       // --names: the method's, from its module's metadata (or a dynamic method's own)
  std::string signature;  // --names: as SOS names it, where it can be formed
  const std::optional<il::Instantiation>* instantiation = nullptr;  // a JIT-compiled body's, named
};

const char* tierOf(const runtime::JitBody& body) {
  return body.version.tier ? il::tierName(*body.version.tier) : nullptr;
}

std::string entriesText(const symbolize::ProcessAnswer& a) {
  if (a.noBounds) return "no bounds";
  if (a.entries.empty()) return "no IL offset";
  std::string out;
  for (const il::ApiEntry& e : a.entries) {
    out += std::string(out.empty() ? "" : ", ") + "IL " + ilText(e.ilOffset) + " (native " +
           std::to_string(e.nativeStartOffset) + "-" + std::to_string(e.nativeEndOffset) + ")";
  }
  return out;
}

// The entries, the lookup of a return address, the line.
void writeTail(JsonWriter& w, const symbolize::ProcessAnswer& a) {
  writeEntries(w, a.noBounds, a.entries);
  writeSymbol(w, a.kind, a.il, a.source);
}

// " NAME": as SOS names the method where it can, else as ILAsm does.
std::string shownName(const Answer& answer) {
  const std::string& name = answer.signature.empty() ? answer.name : answer.signature;
  return name.empty() ? std::string() : " " + name;
}

void writeName(JsonWriter& w, const Answer& answer) {
  if (answer.name.empty()) return;
  w.key("name");
  w.string(answer.name);
  if (answer.signature.empty()) return;
  w.key("signature");
  w.string(answer.signature);
}

std::string tailText(const symbolize::ProcessAnswer& a) {
  return lookupText(a.kind, a.offset, a.lookup) + ": " + entriesText(a) + sourceText(a.source);
}

std::string jitText(const Answer& answer) {
  const symbolize::ProcessAnswer& a = answer.found;
  if (!a.body) return "in a JIT code heap, in no method's code (a stub or free space)";
  const runtime::JitBody& b = *a.body;
  if (!a.error.empty()) return "JIT-compiled code of the body at " + shortHex(b.start) + ": " + a.error;
  const char* tier = tierOf(b);
  std::string inst;
  if (answer.instantiation && *answer.instantiation) (inst = " ") += il::instantiationText(*answer.instantiation);
  return "jit method " + hex32(a.jit->method.token) + shownName(answer) + inst +
         (a.jit->method.dynamic ? " (dynamic)" : "") + " of " +
         (a.jit->module.empty() ? std::string("(no file)") : a.jit->module) + " [" + (tier ? tier : "tier unknown") +
         (b.version.ilVersion ? ", IL version " + std::to_string(b.version.ilVersion) : std::string()) +
         (b.version.active ? ", active" : "") + "], +" + shortHex(a.offset) + " of " + std::to_string(b.size) +
         " bytes" + tailText(a);
}

std::string readyToRunText(const Answer& answer) {
  const symbolize::ProcessAnswer& a = answer.found;
  if (!a.error.empty()) return "ReadyToRun code at RVA " + shortHex(a.rva) + ": " + a.error;
  if (!a.located.method)
    return "ReadyToRun image " + a.image->path + ", RVA " + shortHex(a.rva) + ": in no method's code";
  const r2r::MethodBody& m = *a.located.method;
  const std::string inst = instantiationOf(m);
  return "r2r method " + hex32(m.token) + shownName(answer) + (inst.empty() ? "" : " " + inst) + " of " +
         a.image->path + ", " + symbolize::partName(a.located.part) + " +" + shortHex(a.offset) + " of " +
         std::to_string(m.codeSize) + " bytes" + tailText(a);
}

std::string text(const Answer& answer) {
  const symbolize::ProcessAnswer& a = answer.found;
  std::string out = shortHex(a.address) + ": ";
  switch (a.code) {
    case symbolize::CodeKind::None: return out + "in no code the runtime knows";
    case symbolize::CodeKind::Stub:
    case symbolize::CodeKind::Other:
      return out + "in the runtime's " + (a.code == symbolize::CodeKind::Stub ? "stubs" : "other code") + " [" +
             shortHex(a.section->begin) + ", " + shortHex(a.section->end) + "): no method";
    case symbolize::CodeKind::Jit: return out + jitText(answer);
    case symbolize::CodeKind::ReadyToRun: return out + readyToRunText(answer);
  }
  return out;
}

using Layout = JsonWriter::Layout;

// An answer without a method: null, and why when known.
void writeNoMethod(JsonWriter& w, const symbolize::ProcessAnswer& a, const std::string& error) {
  w.key("method");
  w.null();
  if (!error.empty()) {
    w.key("error");
    w.string(error);
  }
  writeSymbol(w, a.kind, a.il, a.source);
}

void writeCodeVersion(JsonWriter& w, const runtime::JitBody& b) {
  w.key("codeVersion");
  w.beginObject(Layout::Inline);
  w.key("kind");
  w.plainString("jit");
  if (const char* tier = tierOf(b)) {
    w.key("tier");
    w.plainString(tier);
  }
  w.member("ilVersion", b.version.ilVersion);
  w.key("active");
  w.boolean(b.version.active);
  w.endObject();
}

void writeJit(JsonWriter& w, const Answer& answer) {
  const symbolize::ProcessAnswer& a = answer.found;
  w.key("kind");
  w.plainString("jit");
  if (!a.body) return writeNoMethod(w, a, {});
  if (!a.error.empty()) return writeNoMethod(w, a, a.error);
  const runtime::JitBody& b = *a.body;
  w.key("method");
  w.beginObject(Layout::Inline);
  w.key("module");
  w.string(a.jit->module);
  w.key("token");
  w.hex32(a.jit->method.token);
  writeName(w, answer);
  // A JIT-compiled body's instantiation has no stub flags: its arguments.
  if (answer.instantiation && *answer.instantiation) writeInstantiation(w, **answer.instantiation);
  w.key("methodDesc");
  w.shortHex(b.methodDesc);
  w.key("dynamic");
  w.boolean(a.jit->method.dynamic);
  writeCodeVersion(w, b);
  w.key("start");
  w.shortHex(b.start);
  w.member("codeSize", b.size);
  w.endObject();
  w.member("offset", a.offset);
  writeTail(w, a);
}

void writeReadyToRun(JsonWriter& w, const Answer& answer) {
  const symbolize::ProcessAnswer& a = answer.found;
  w.key("kind");
  w.plainString("r2r");
  w.key("module");
  w.string(a.image->path);
  w.key("rva");
  w.shortHex(a.rva);
  if (!a.error.empty() || !a.located.method) return writeNoMethod(w, a, a.error);
  const r2r::MethodBody& m = *a.located.method;
  w.key("method");
  w.beginObject(Layout::Inline);
  w.key("token");
  w.hex32(m.token);
  writeName(w, answer);
  if (const std::string inst = instantiationOf(m); !inst.empty()) {
    w.key("instantiation");
    w.string(inst);
  }
  w.key("codeVersion");
  w.beginObject(Layout::Inline);
  w.key("kind");
  w.plainString("r2r");
  w.endObject();
  w.key("start");
  w.shortHex(a.section->begin + m.entryRva);
  w.member("codeSize", m.codeSize);
  w.endObject();
  w.key("part");
  w.plainString(symbolize::partName(a.located.part));
  w.member("offset", a.offset);
  writeTail(w, a);
}

std::string json(const Answer& answer) {
  const symbolize::ProcessAnswer& a = answer.found;
  std::string out;
  JsonWriter w(out);
  w.beginObject(Layout::Inline);
  w.key("address");
  w.shortHex(a.address);
  switch (a.code) {
    case symbolize::CodeKind::None:
      w.key("kind");
      w.null();
      writeNoMethod(w, a, {});
      break;
    case symbolize::CodeKind::Stub:
    case symbolize::CodeKind::Other:
      w.key("kind");
      w.plainString(a.code == symbolize::CodeKind::Stub ? "stub" : "other");
      writeNoMethod(w, a, {});
      break;
    case symbolize::CodeKind::Jit: writeJit(w, answer); break;
    case symbolize::CodeKind::ReadyToRun: writeReadyToRun(w, answer); break;
  }
  w.endObject();
  return out;
}

// symbolize's answers, named for the CLI: --names from each module's
// metadata, instantiations as type text (once per body).
class Namer {
 public:
  Namer(const RuntimeTarget& t, bool names, Report& report)
      : modules_([&report, &t](Diagnostic d) {
          d.file = t.name;
          report.add(std::move(d));
        }),
        types_(*t.code, modules_),
        names_(names) {}

  Answer name(symbolize::ProcessAnswer found) {
    Answer a{std::move(found), {}, {}, nullptr};
    const symbolize::ProcessAnswer& f = a.found;
    if (f.jit != nullptr && !f.jit->error) {
      auto inst = instantiations_.find(f.jit);
      if (inst == instantiations_.end()) {
        std::optional<il::Instantiation> text;
        if (f.jit->instantiation) text = types_.instantiation(*f.jit->instantiation);
        inst = instantiations_.emplace(f.jit, std::move(text)).first;
      }
      a.instantiation = &inst->second;
      if (names_) {
        a.name =
            f.jit->method.dynamic ? f.jit->method.dynamicName : modules_.methodName(f.jit->module, f.jit->method.token);
        if (!f.jit->method.dynamic) {
          const il::Instantiation* body = inst->second ? &*inst->second : nullptr;
          if (body != nullptr || !f.jit->instantiation)
            a.signature = modules_.signatureOf(f.jit->module, f.jit->method.token, body);
        }
      }
    }
    if (names_ && f.located.method && f.image->image->components.empty()) {
      a.name = modules_.methodName(f.image->path, f.located.method->token);
      const std::optional<il::Instantiation> body = bodyInstantiation(*f.located.method);
      a.signature = modules_.signatureOf(f.image->path, f.located.method->token, body ? &*body : nullptr);
    }
    return a;
  }

 private:
  symbolize::ModuleNames modules_;  // names the types of instantiations, and with --names the methods
  symbolize::RuntimeTypeText types_;
  bool names_;
  std::unordered_map<const symbolize::JitMethod*, std::optional<il::Instantiation>> instantiations_;
};

}  // namespace

int locateProcess(const IlLocateOptions& options, std::optional<InputBytes> core, Report& report) {
  // With --pid the operands are all addresses.
  std::vector<std::string> texts = options.rvas;
  if (!options.pid.empty() && !options.image.empty()) texts.insert(texts.begin(), options.image);
  std::vector<std::uint64_t> addresses;
  if (!parseAddressOperands(texts, AddressForm::Absolute, addresses, report)) return kUsageOrIo;
  int status = kInvalid;
  std::unique_ptr<RuntimeTarget> t = openRuntimeTarget(options.pid, std::move(core), report, status);
  if (!t) return status;
  symbolize::ProcessLocator locator(*t->code, symbolize::ProcessLocatorOptions{!options.noLines});
  Namer namer(*t, options.names, report);
  const symbolize::AddressKind kind =
      options.returnAddresses ? symbolize::AddressKind::Return : symbolize::AddressKind::Exact;
  std::size_t unknown = 0;
  std::size_t read = 0;
  if (report.json()) report.object().beginArray("addresses");
  const auto say = [&](std::uint64_t address) {
    const Answer a = namer.name(locator.locate(address, kind));
    if (std::optional<Error> walk = locator.takeWalkError()) addTargetError(report, t->name, *walk);
    for (const symbolize::PdbNote& note : locator.takePdbNotes()) addPdbNote(report, note);
    unknown += a.found.found() ? 0 : 1;
    writeAnswer(report, report.json() ? json(a) : text(a));
  };
  if (!answerAddresses(addresses, AddressForm::Absolute, options.input, t->name, report, say, unknown, read))
    return kUsageOrIo;
  return endAnswers(report, unknown);
}

}  // namespace gdmap::cli
