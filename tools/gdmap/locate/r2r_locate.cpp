#include "locate/r2r_locate.hpp"

#include "common/json_object.hpp"
#include "il/il_entry_json.hpp"

#include <gdmap/schema/hex.hpp>

namespace gdmap::cli {

std::string ilText(std::uint32_t il) {
  const std::string_view special = il::specialIlName(il);
  return special.empty() ? shortHex(il) : std::string(special);
}

std::string instantiationOf(const r2r::MethodBody& m) {
  const std::optional<il::Instantiation> inst = bodyInstantiation(m);
  return inst ? il::instantiationText(inst) : std::string();
}

std::string stringArrayJson(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    appendJsonString(items[i], out);
  }
  return out + "]";
}

std::string lookupText(symbolize::AddressKind kind, std::uint32_t offset, std::uint32_t lookup) {
  return kind == symbolize::AddressKind::Return && lookup != offset ? ", looked up at +" + shortHex(lookup)
                                                                    : std::string();
}

std::string sourceText(const std::optional<pdb::SourceLine>& source) {
  if (!source) return {};
  return " at " + source->document + ":" + std::to_string(source->line) + ":" + std::to_string(source->column);
}

std::string symbolJson(symbolize::AddressKind kind, const symbolize::IlOffset& il,
                       const std::optional<pdb::SourceLine>& source) {
  std::string out = ", \"lookup\": \"" + std::string(symbolize::addressKindName(kind)) + "\", \"ilOffset\": ";
  if (il.entry) {
    out += '"';
    out += ilText(il.entry->ilOffset);
    // The number StackFrame.GetILOffset() gives for it (a prolog's and an
    // unmapped entry's: 0; an epilog's: the method's greatest IL offset).
    out += "\", \"stackTraceIlOffset\": " + std::to_string(il.ilOffset);
  } else {
    out += "null, \"stackTraceIlOffset\": null";
  }
  out += ", \"source\": ";
  if (!source) return out + "null";
  out += "{\"document\": ";
  appendJsonString(source->document, out);
  return out + ", \"line\": " + std::to_string(source->line) + ", \"column\": " + std::to_string(source->column) +
         ", \"endLine\": " + std::to_string(source->endLine) + ", \"endColumn\": " + std::to_string(source->endColumn) +
         "}";
}

const metadata::AssemblyTypeNames* MethodNames::of(const r2r::MethodBody& m) const {
  if (components == nullptr || components->empty()) return image;
  return m.component < components->size() ? (*components)[m.component].names.get() : nullptr;
}

std::string MethodNames::signatureOf(const r2r::MethodBody& m) const {
  const metadata::MethodSignatures* signatures = imageSignatures;
  if (components != nullptr && !components->empty())
    signatures = m.component < components->size() ? (*components)[m.component].signatures.get() : nullptr;
  if (signatures == nullptr || of(m) == nullptr) return {};
  const std::optional<il::Instantiation> inst = bodyInstantiation(m);
  return signatures->signatureOf(m.token, inst ? &*inst : nullptr);
}

namespace {

// "0x00010758" for an RVA given; "0x7f0000010758: [FILE ]RVA 0x00010758"
// for an absolute address.
std::string head(const ImageAnswer& a) {
  if (!a.address) return hex32(a.located.rva);
  return shortHex(*a.address) + ": " + (a.module.empty() ? "" : a.module + " ") + "RVA " + hex32(a.located.rva);
}

// "0x06000003[ of COMPONENT] NAME <inst>": a method as an answer names it,
// by SOS's text (parameters, instantiation) where it can be formed, else as
// ILAsm names it. `shownComponent` is printed after the token (the answer's
// own method, in a composite image).
void appendMethodText(const r2r::MethodBody& m, const MethodNames& methodNames, bool component,
                      const std::string& shownComponent, std::string& out) {
  out += hex32(m.token);
  if (!shownComponent.empty()) out += " of " + shownComponent;
  const metadata::AssemblyTypeNames* names = methodNames.of(m);
  if (names && !(m.hasModule && !component)) {
    const std::string signature = methodNames.signatureOf(m);
    out += ' ' + (signature.empty() ? names->methodName(m.token) : signature);
  }
  if (const std::string inst = instantiationOf(m); !inst.empty()) out += ' ' + inst;
}

std::string entriesText(const symbolize::Located& l) {
  if (l.noBounds) return "no bounds";
  if (l.entries.empty()) return "no IL offset";
  std::string out;
  for (std::size_t i = 0; i < l.entries.size(); ++i) {
    const il::ApiEntry& e = l.entries[i];
    out += (i ? ", " : "") + std::string("IL ") + ilText(e.ilOffset) + " (native " +
           std::to_string(e.nativeStartOffset) + "-" + std::to_string(e.nativeEndOffset) + ")";
  }
  return out;
}

}  // namespace

namespace {

// "method 0x06000003 of Sample.B Name <inst> (one body with method ...)".
std::string methodText(const ImageAnswer& a, const MethodNames& methodNames) {
  const symbolize::Located& l = a.located;
  const bool component = !a.component.empty();
  std::string out = "method ";
  appendMethodText(*l.method, methodNames, component, a.component, out);
  // Methods sharing the body: one code, several methods the runtime runs it for.
  for (std::size_t i = 0; i < l.sharing.size(); ++i) {
    out += i == 0 ? " (one body with method " : ", method ";
    appendMethodText(*l.sharing[i], methodNames, component, {}, out);
    if (i + 1 == l.sharing.size()) out += ')';
  }
  return out;
}

}  // namespace

std::string imageAnswerText(const ImageAnswer& a, const MethodNames& methodNames) {
  if (!a.problem.empty()) return shortHex(a.address.value_or(0)) + ": " + a.problem;
  const symbolize::Located& l = a.located;
  std::string out = head(a) + ": ";
  if (l.method == nullptr) return out + "in no method's code";
  auto text = methodNames.texts.find(l.method);
  if (text == methodNames.texts.end()) text = methodNames.texts.emplace(l.method, methodText(a, methodNames)).first;
  out += text->second;
  out += ", ";
  out += symbolize::partName(l.part);
  out += " +";
  appendShortHex(l.offset, out);
  out += " of " + std::to_string(l.method->codeSize) + " bytes" + lookupText(l.kind, l.offset, l.lookup) + ": " +
         entriesText(l);
  return out + sourceText(a.source);
}

namespace {

void appendMethodJson(const ImageAnswer& a, const MethodNames& methodNames, std::string& out) {
  const metadata::AssemblyTypeNames* names = methodNames.of(*a.located.method);
  const r2r::MethodBody& m = *a.located.method;
  out += "\"method\": {\"token\": \"" + hex32(m.token) + "\"";
  if (!a.component.empty()) {
    out += ", \"component\": ";
    appendJsonString(a.component, out);
  }
  if (names && !(m.hasModule && a.component.empty())) {
    out += ", \"name\": ";
    appendJsonString(names->methodName(m.token), out);
    if (const std::string signature = methodNames.signatureOf(m); !signature.empty()) {
      out += ", \"signature\": ";
      appendJsonString(signature, out);
    }
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
}

void appendSharingJson(const ImageAnswer& a, const metadata::AssemblyTypeNames* names, std::string& out) {
  out += ", \"sharedWith\": [";
  for (std::size_t i = 0; i < a.located.sharing.size(); ++i) {
    const r2r::MethodBody& s = *a.located.sharing[i];
    out += (i ? ", " : "") + std::string("{\"token\": \"") + hex32(s.token) + "\"";
    if (names && !(s.hasModule && a.component.empty())) {
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

}  // namespace

std::string imageAnswerJson(const ImageAnswer& a, const MethodNames& methodNames) {
  const symbolize::Located& l = a.located;
  std::string out = "{";
  if (a.address) out += "\"address\": \"" + shortHex(*a.address) + "\", ";
  if (a.address && !a.module.empty()) {
    out += "\"module\": ";
    appendJsonString(a.module, out);
    out += ", ";
  }
  if (!a.problem.empty()) {
    out += "\"rva\": null, \"method\": null, \"error\": ";
    appendJsonString(a.problem, out);
    return out + symbolJson(l.kind, l.il, std::nullopt) + "}";
  }
  out += "\"rva\": \"" + hex32(l.rva) + "\", ";
  if (l.method == nullptr) return out + "\"method\": null" + symbolJson(l.kind, l.il, std::nullopt) + "}";
  const metadata::AssemblyTypeNames* names = methodNames.of(*l.method);
  appendMethodJson(a, methodNames, out);
  if (!l.sharing.empty()) appendSharingJson(a, names, out);
  out += ", \"part\": \"" + std::string(symbolize::partName(l.part)) + "\", \"offset\": " + std::to_string(l.offset);
  if (l.noBounds) {
    out += ", \"il\": null";
  } else {
    out += ", \"il\": [";
    for (std::size_t i = 0; i < l.entries.size(); ++i) {
      if (i) out += ", ";
      appendEntryJson(l.entries[i].ilOffset, l.entries[i].nativeStartOffset, l.entries[i].nativeEndOffset, out);
    }
    out += "]";
  }
  return out + symbolJson(l.kind, l.il, a.source) + "}";
}

}  // namespace gdmap::cli
