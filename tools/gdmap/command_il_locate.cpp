// gdmap il locate: addr2line for ReadyToRun images (docs/r2r.md). For each
// RVA: the runtime function holding it, the method body that owns that
// function (token, instantiation, name with --names), the offset in the
// method's code, and the IL offset(s) whose API entries cover it — what a
// sampling profiler needs to turn an instruction pointer into a line.
#include "exit_status.hpp"
#include "file_io.hpp"
#include "il_arguments.hpp"
#include "il_commands.hpp"
#include "il_entry_json.hpp"
#include "json_object.hpp"
#include "process_locate.hpp"
#include "r2r_components.hpp"
#include "r2r_locate.hpp"
#include "report.hpp"
#include "runtime_target.hpp"
#include "type_names_input.hpp"

#include <gdmap/metadata/assembly_type_names.hpp>
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/reader/r2r_image.hpp>
#include <gdmap/schema/bounds_to_api.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace gdmap::cli {
namespace {
struct MethodNames {
  const metadata::AssemblyTypeNames* image = nullptr;
  const std::vector<AssemblyMetadata>* components = nullptr;
  const metadata::AssemblyTypeNames* of(const r2r::MethodBody& m) const {
    if (components == nullptr || components->empty()) return image;
    return m.component < components->size() ? (*components)[m.component].names.get() : nullptr;
  }
};

void printText(const Located& l, const MethodNames& methodNames) {
  std::cout << hex32(l.rva) << ": ";
  if (l.method == nullptr) {
    std::cout << "in no method's code\n";
    return;
  }
  const r2r::MethodBody& m = *l.method;
  std::cout << "method " << hex32(m.token);
  if (!l.component.empty()) std::cout << " of " << l.component;
  const metadata::AssemblyTypeNames* names = methodNames.of(m);
  if (names && !(m.hasModule && l.component.empty())) std::cout << ' ' << names->methodName(m.token);
  if (const std::string inst = instantiationOf(m); !inst.empty()) std::cout << ' ' << inst;
  // Methods sharing the body: one code, several methods the runtime runs it for.
  for (std::size_t i = 0; i < l.sharing.size(); ++i) {
    const r2r::MethodBody& s = *l.sharing[i];
    std::cout << (i == 0 ? " (one body with method " : ", method ") << hex32(s.token);
    if (names && !(s.hasModule && l.component.empty())) std::cout << ' ' << names->methodName(s.token);
    if (const std::string inst = instantiationOf(s); !inst.empty()) std::cout << ' ' << inst;
    if (i + 1 == l.sharing.size()) std::cout << ')';
  }
  std::cout << ", " << partName(l.part) << " +" << shortHex(l.offset) << " of " << m.codeSize << " bytes: ";
  if (l.noBounds) {
    std::cout << "no bounds\n";
    return;
  }
  if (l.entries.empty()) {
    std::cout << "no IL offset\n";
    return;
  }
  for (std::size_t i = 0; i < l.entries.size(); ++i) {
    const il::ApiEntry& e = l.entries[i];
    std::cout << (i ? ", " : "") << "IL " << ilText(e.ilOffset) << " (native " << e.nativeStartOffset << "-"
              << e.nativeEndOffset << ")";
  }
  std::cout << '\n';
}

std::string locatedJson(const Located& l, const MethodNames& methodNames) {
  std::string out = "{\"rva\": \"" + hex32(l.rva) + "\", ";
  if (l.method == nullptr) return out + "\"method\": null}";
  const r2r::MethodBody& m = *l.method;
  out += "\"method\": {\"token\": \"" + hex32(m.token) + "\"";
  if (!l.component.empty()) {
    out += ", \"component\": ";
    appendJsonString(l.component, out);
  }
  const metadata::AssemblyTypeNames* names = methodNames.of(m);
  if (names && !(m.hasModule && l.component.empty())) {
    out += ", \"name\": ";
    appendJsonString(names->methodName(m.token), out);
  }
  if (const std::optional<il::Instantiation> inst = bodyInstantiation(m)) {
    out += ", \"instantiation\": {\"type\": " + stringArrayJson(inst->typeArguments) +
           ", \"method\": " + stringArrayJson(inst->methodArguments);
    if (inst->unboxingStub) out += ", \"unboxingStub\": true";
    if (inst->asyncVariant) out += ", \"asyncVariant\": true";
    if (inst->resumptionStub) out += ", \"resumptionStub\": true";
    out += "}";
  }
  out += ", \"codeSize\": " + std::to_string(m.codeSize) + ", \"entryRva\": \"" + hex32(m.entryRva) + "\"}";
  if (!l.sharing.empty()) {
    out += ", \"sharedWith\": [";
    for (std::size_t i = 0; i < l.sharing.size(); ++i) {
      const r2r::MethodBody& s = *l.sharing[i];
      out += (i ? ", " : "") + std::string("{\"token\": \"") + hex32(s.token) + "\"";
      if (names && !(s.hasModule && l.component.empty())) {
        out += ", \"name\": ";
        appendJsonString(names->methodName(s.token), out);
      }
      if (const std::string inst = instantiationOf(s); !inst.empty()) {
        out += ", \"instantiation\": ";
        appendJsonString(inst, out);
      }
      out += "}";
    }
    out += "]";
  }
  out += ", \"part\": \"" + std::string(partName(l.part)) + "\", \"offset\": " + std::to_string(l.offset);
  if (l.noBounds) return out + ", \"il\": null}";
  out += ", \"il\": [";
  for (std::size_t i = 0; i < l.entries.size(); ++i) {
    if (i) out += ", ";
    appendEntryJson(l.entries[i].ilOffset, l.entries[i].nativeStartOffset, l.entries[i].nativeEndOffset, out);
  }
  return out + "]}";
}

int locateCommand(const IlLocateOptions& options, Report& report) {
  const bool process = !options.pid.empty();
  if (!process && options.image.empty()) {
    return report.fail(kUsageOrIo, rules::kUsage, "an IMAGE (a ReadyToRun image or a core dump) or --pid is needed");
  }
  auto input = process ? std::optional<InputBytes>() : openInput(options.image, report);
  if (!process && !input) return kUsageOrIo;
  if (process || isCoreDump(input->bytes())) {
    if (options.strict) {
      return report.fail(kUsageOrIo, rules::kUsage,
                         "--strict is for a ReadyToRun image; a process (--pid or a core dump) does not take it");
    }
    return locateProcess(options, std::move(input), report);
  }
  if (options.rvas.empty()) return report.fail(kUsageOrIo, rules::kUsage, "no RVA to locate");
  for (const std::string& text : options.rvas) {
    if (!parseU32(text))
      return report.fail(kUsageOrIo, rules::kUsage, "RVA " + quoteInput(text) + ": " + u32Problem(text));
  }
  const std::string& name = input->displayName();
  const ByteSpan file = input->bytes();
  // --names: the image's own metadata, or a composite image's components'
  // (their files beside it).
  std::unique_ptr<metadata::AssemblyTypeNames> names;
  const bool ownMetadata = hasOwnMetadata(file);
  if (options.names && ownMetadata &&
      !(names = assemblyNames(file, name, "--names: its metadata cannot be read: ", report)))
    return kInvalid;
  Expected<r2r::R2RImage> image = r2r::readR2RImage(file, names.get());
  if (options.names && !ownMetadata && !(image && !image->components.empty())) {
    assemblyNames(file, name, "--names: its metadata cannot be read: ", report);
    return kInvalid;
  }
  if (!image) {
    Diagnostic d = binaryDiagnostic(image.error());
    d.file = name;
    report.add(std::move(d));
    return kInvalid;
  }
  if (!reportImageWarnings(*image, name, options.strict, report)) return kInvalid;
  if (!image->ownerComposite.empty()) {
    Diagnostic d;
    d.rule = rules::kIlMethodNotFound;
    d.message = "a component assembly: its code is in the composite image " + image->ownerComposite +
                "; locate addresses in that image";
    d.file = name;
    report.add(std::move(d));
    return kInvalid;
  }
  const std::vector<std::string> components = componentNames(*image, file);
  const std::vector<std::optional<Owner>> owners = ownersOf(*image);
  ApiTables tables(*image);
  // --names in a composite image: the metadata of the components the
  // addresses fall in, no other (a framework composite has 173 of them),
  // found by a first pass over the addresses that keeps nothing else.
  std::vector<AssemblyMetadata> componentsMetadata;
  if (options.names && !components.empty()) {
    std::vector<std::string> needed(components.size());
    for (const std::string& text : options.rvas) {
      const std::optional<std::size_t> f = functionAt(*image, *parseU32(text));
      if (f && owners[*f]) {
        const std::uint32_t c = image->methods[owners[*f]->method].component;
        needed[c] = components[c];
      }
    }
    int status = kInvalid;
    componentsMetadata = componentMetadata(needed, name, report, status);
    if (componentsMetadata.empty() && report.errors() != 0) return status;
  }
  const MethodNames methodNames{names.get(), &componentsMetadata};
  // The self-check the metadata allows (the image's own, or the components'
  // with --names): IL offsets inside their method's IL.
  bool ilInside = true;
  if (components.empty() && ownMetadata) {
    if (Expected<std::vector<metadata::MethodIl>> il = metadata::methodIlBodies(file)) {
      ilInside = checkIlOffsets(*image, file, file, *il, std::nullopt, name, report);
    }
  }
  for (std::uint32_t c = 0; c < componentsMetadata.size(); ++c) {
    if (componentsMetadata[c].bytes.empty()) continue;
    ilInside &=
        checkIlOffsets(*image, file, componentsMetadata[c].bytes, componentsMetadata[c].ilBodies, c, name, report);
  }
  if (!ilInside) return kInvalid;
  std::size_t unknown = 0;
  if (report.json()) report.object().beginArray("addresses");
  for (const std::string& text : options.rvas) {
    Located l = locate(*image, owners, tables, *parseU32(text));
    if (l.method != nullptr && !components.empty()) l.component = components[l.method->component];
    if (l.method == nullptr) ++unknown;
    if (report.json()) report.object().arrayRaw(locatedJson(l, methodNames));
    else printText(l, methodNames);
  }
  if (report.json()) {
    report.object().endArray();
    report.object().number("unknown", unknown);
  }
  return unknown == 0 ? kSuccess : kInvalid;
}

}  // namespace

int runIlLocate(const IlLocateOptions& options, Report& report) {
  report.nameInput(options.pid.empty() ? options.image : "process " + options.pid);
  return runToVerdict(locateCommand, options, report, {"addresses", "unknown"});
}

}  // namespace gdmap::cli
