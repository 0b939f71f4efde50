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

void writeStringArray(JsonWriter& w, const std::vector<std::string>& items) {
  w.beginArray(JsonWriter::Layout::Inline);
  for (const std::string& item : items) w.string(item);
  w.endArray();
}

void writeInstantiation(JsonWriter& w, const il::Instantiation& inst) {
  w.key("instantiation");
  w.beginObject(JsonWriter::Layout::Inline);
  w.key("type");
  writeStringArray(w, inst.typeArguments);
  w.key("method");
  writeStringArray(w, inst.methodArguments);
  const auto flag = [&](bool set, std::string_view key) {
    if (!set) return;
    w.key(key);
    w.boolean(true);
  };
  flag(inst.unboxingStub, "unboxingStub");
  flag(inst.asyncVariant, "asyncVariant");
  flag(inst.resumptionStub, "resumptionStub");
  w.endObject();
}

std::string lookupText(symbolize::AddressKind kind, std::uint32_t offset, std::uint32_t lookup) {
  return kind == symbolize::AddressKind::Return && lookup != offset ? ", looked up at +" + shortHex(lookup)
                                                                    : std::string();
}

std::string sourceText(const std::optional<pdb::SourceLine>& source) {
  if (!source) return {};
  return " at " + source->document + ":" + std::to_string(source->line) + ":" + std::to_string(source->column);
}

void writeSymbol(JsonWriter& w, symbolize::AddressKind kind, const symbolize::IlOffset& il,
                 const std::optional<pdb::SourceLine>& source) {
  w.key("lookup");
  w.plainString(symbolize::addressKindName(kind));
  w.key("ilOffset");
  if (il.entry) {
    w.plainString(ilText(il.entry->ilOffset));
    // The number StackFrame.GetILOffset() gives for it (a prolog's and an
    // unmapped entry's: 0; an epilog's: the method's greatest IL offset).
    w.member("stackTraceIlOffset", il.ilOffset);
  } else {
    w.null();
    w.key("stackTraceIlOffset");
    w.null();
  }
  w.key("source");
  if (!source) return w.null();
  w.beginObject(JsonWriter::Layout::Inline);
  w.key("document");
  w.string(source->document);
  w.member("line", source->line);
  w.member("column", source->column);
  w.member("endLine", source->endLine);
  w.member("endColumn", source->endColumn);
  w.endObject();
}

void writeEntries(JsonWriter& w, bool noBounds, const std::vector<il::ApiEntry>& entries) {
  w.key("il");
  if (noBounds) return w.null();
  w.beginArray(JsonWriter::Layout::Inline);
  for (const il::ApiEntry& e : entries) writeEntryJson(w, e.ilOffset, e.nativeStartOffset, e.nativeEndOffset);
  w.endArray();
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

using Layout = JsonWriter::Layout;

void writeMethod(JsonWriter& w, const ImageAnswer& a, const MethodNames& methodNames) {
  const metadata::AssemblyTypeNames* names = methodNames.of(*a.located.method);
  const r2r::MethodBody& m = *a.located.method;
  w.key("method");
  w.beginObject(Layout::Inline);
  w.key("token");
  w.hex32(m.token);
  if (!a.component.empty()) {
    w.key("component");
    w.string(a.component);
  }
  if (names && !(m.hasModule && a.component.empty())) {
    w.key("name");
    w.string(names->methodName(m.token));
    if (const std::string signature = methodNames.signatureOf(m); !signature.empty()) {
      w.key("signature");
      w.string(signature);
    }
  }
  if (const std::optional<il::Instantiation> inst = bodyInstantiation(m)) writeInstantiation(w, *inst);
  w.member("codeSize", m.codeSize);
  w.key("entryRva");
  w.hex32(m.entryRva);
  w.endObject();
}

void writeSharing(JsonWriter& w, const ImageAnswer& a, const metadata::AssemblyTypeNames* names) {
  w.key("sharedWith");
  w.beginArray(Layout::Inline);
  for (const r2r::MethodBody* shared : a.located.sharing) {
    const r2r::MethodBody& s = *shared;
    w.beginObject(Layout::Inline);
    w.key("token");
    w.hex32(s.token);
    if (names && !(s.hasModule && a.component.empty())) {
      w.key("name");
      w.string(names->methodName(s.token));
    }
    if (const std::string inst = instantiationOf(s); !inst.empty()) {
      w.key("instantiation");
      w.string(inst);
    }
    w.endObject();
  }
  w.endArray();
}

// The answer's members after its address and module.
void writeImageAnswer(JsonWriter& w, const ImageAnswer& a, const MethodNames& methodNames) {
  const symbolize::Located& l = a.located;
  if (!a.problem.empty()) {
    w.key("rva");
    w.null();
    w.key("method");
    w.null();
    w.key("error");
    w.string(a.problem);
    return writeSymbol(w, l.kind, l.il, std::nullopt);
  }
  w.key("rva");
  w.hex32(l.rva);
  if (l.method == nullptr) {
    w.key("method");
    w.null();
    return writeSymbol(w, l.kind, l.il, std::nullopt);
  }
  writeMethod(w, a, methodNames);
  if (!l.sharing.empty()) writeSharing(w, a, methodNames.of(*l.method));
  w.key("part");
  w.plainString(symbolize::partName(l.part));
  w.member("offset", l.offset);
  writeEntries(w, l.noBounds, l.entries);
  writeSymbol(w, l.kind, l.il, a.source);
}

}  // namespace

std::string imageAnswerJson(const ImageAnswer& a, const MethodNames& methodNames) {
  std::string out;
  JsonWriter w(out);
  w.beginObject(Layout::Inline);
  if (a.address) {
    w.key("address");
    w.shortHex(*a.address);
  }
  if (a.address && !a.module.empty()) {
    w.key("module");
    w.string(a.module);
  }
  writeImageAnswer(w, a, methodNames);
  w.endObject();
  return out;
}

}  // namespace gdmap::cli
