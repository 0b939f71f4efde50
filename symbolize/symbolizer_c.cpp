// The C calls of <gdmap/symbolize/symbolizer.h>, over ImageSymbolizer and
// ProcessLocator.
#include <gdmap/symbolize/symbolizer.h>

#include <gdmap/internal/c_target.hpp>
#include <gdmap/reader/contract_descriptor.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/symbolize/image_symbolizer.hpp>
#include <gdmap/symbolize/process_locator.hpp>

#include <algorithm>
#include <optional>
#include <string>

struct gdmap_symbolizer {
  std::optional<gdmap::symbolize::ImageSymbolizer> image;
  std::uint64_t base = 0;
  std::optional<gdmap::runtime::RuntimeCode> code;  // never moves once set: `process` points at it
  std::optional<gdmap::symbolize::ProcessLocator> process;
  bool located = false;  // a locate succeeded: module and document are its
  std::string module;
  std::string document;
};

namespace {

using gdmap::internal::describe;
namespace sym = gdmap::symbolize;

void clear(gdmap_error* error) { describe(error, "", 0, ""); }

std::int32_t mappingOf(sym::IlMapping mapping) { return static_cast<std::int32_t>(mapping); }

void fillLine(const std::optional<gdmap::pdb::SourceLine>& line, gdmap_symbol& out, std::string& document) {
  document.clear();
  if (!line) return;
  out.flags |= GDMAP_SYMBOL_LINE;
  out.line = line->line;
  out.column = line->column;
  out.endLine = line->endLine;
  out.endColumn = line->endColumn;
  document = line->document;
}

std::uint32_t partFlags(sym::Part part) {
  return part == sym::Part::Funclet ? GDMAP_SYMBOL_FUNCLET : part == sym::Part::Cold ? GDMAP_SYMBOL_COLD : 0u;
}

// An image's answer; false when the address is in no method.
bool locateInImage(gdmap_symbolizer& s, std::uint64_t address, sym::AddressKind kind, gdmap_symbol& out) {
  if (address < s.base || address - s.base > UINT32_MAX) return false;
  const sym::Located l = s.image->locate(static_cast<std::uint32_t>(address - s.base), kind);
  if (l.method == nullptr) return false;
  out.methodStart = s.base + l.method->entryRva;
  out.token = l.method->token;
  out.nativeOffset = l.offset;
  out.ilOffset = l.il.ilOffset;
  out.mapping = mappingOf(l.il.mapping);
  out.flags = partFlags(l.part);
  s.module = s.image->path();
  fillLine(s.image->sourceLine(l), out, s.document);
  return true;
}

// A target's answer; false when the address is in no method (`error`
// described when what holds it cannot be read).
bool locateInTarget(gdmap_symbolizer& s, std::uint64_t address, sym::AddressKind kind, gdmap_symbol& out,
                    gdmap_error* error) {
  const sym::ProcessAnswer a = s.process->locate(address, kind);
  if (!a.error.empty()) {
    // A method's own error keeps its rule and target address; an image
    // that could not be read is named by its message.
    if (a.jit != nullptr && a.jit->error) describe(error, *a.jit->error);
    else describe(error, gdmap::rules::kRuntimeDataInvalid, address, a.error);
    return false;
  }
  if (!a.found()) return false;
  out.methodStart = a.body != nullptr ? a.body->start : a.section->begin + a.located.method->entryRva;
  out.token = a.token();
  out.nativeOffset = a.offset;
  out.ilOffset = a.il.ilOffset;
  out.mapping = mappingOf(a.il.mapping);
  out.flags = a.body != nullptr ? GDMAP_SYMBOL_JIT : partFlags(a.located.part);
  s.module = a.module();
  fillLine(a.source, out, s.document);
  return true;
}

// The two-call protocol for a string: the size always, then what fits.
gdmap_hresult copyString(const std::string& text, std::uint32_t cch, std::uint32_t* pcch, char out[]) {
  if (pcch) *pcch = static_cast<std::uint32_t>(text.size() + 1);
  if (out && cch > 0) {
    const std::size_t n = std::min<std::size_t>(cch - 1, text.size());
    std::copy_n(text.data(), n, out);
    out[n] = '\0';
  }
  return GDMAP_S_OK;
}

}  // namespace

extern "C" {

gdmap_symbolizer* gdmap_symbolizer_open_image(const char* imagePath, const char* pdbPath, uint64_t base,
                                              gdmap_error* error) {
  try {
    if (imagePath == nullptr) {
      describe(error, gdmap::rules::kUsage, 0, "no image path");
      return nullptr;
    }
    gdmap::Expected<sym::ImageSymbolizer> image =
        sym::ImageSymbolizer::open(imagePath, sym::ImageSymbolizerOptions{pdbPath ? pdbPath : "", true});
    if (!image) {
      describe(error, image.error());
      return nullptr;
    }
    auto s = std::make_unique<gdmap_symbolizer>();
    s->image.emplace(std::move(*image));
    s->base = base;
    clear(error);
    return s.release();
  } catch (...) {
    describe(error, gdmap::rules::kOutOfMemory, 0, "out of memory");
    return nullptr;
  }
}

gdmap_symbolizer* gdmap_symbolizer_open_target(const gdmap_target* target, uint64_t descriptorAddress, int lines,
                                               gdmap_error* error) {
  try {
    const gdmap::TargetMemory* memory = gdmap::internal::targetMemory(target, error);
    if (memory == nullptr) return nullptr;
    gdmap::Expected<gdmap::runtime::RuntimeCode> code = gdmap::runtime::RuntimeCode::openAt(*memory, descriptorAddress);
    if (!code) {
      describe(error, code.error());
      return nullptr;
    }
    auto s = std::make_unique<gdmap_symbolizer>();
    s->code.emplace(std::move(*code));
    s->process.emplace(*s->code, sym::ProcessLocatorOptions{lines != 0});
    clear(error);
    return s.release();
  } catch (...) {
    describe(error, gdmap::rules::kOutOfMemory, 0, "out of memory");
    return nullptr;
  }
}

void gdmap_symbolizer_close(gdmap_symbolizer* symbolizer) { delete symbolizer; }

gdmap_hresult gdmap_symbolizer_locate(gdmap_symbolizer* symbolizer, uint64_t address, gdmap_address_kind kind,
                                      gdmap_symbol* symbol, gdmap_error* error) {
  if (symbolizer == nullptr || symbol == nullptr) return GDMAP_E_INVALIDARG;
  if (kind != GDMAP_ADDRESS_EXACT && kind != GDMAP_ADDRESS_RETURN) return GDMAP_E_INVALIDARG;
  try {
    clear(error);
    gdmap_symbol out{};
    out.address = address;
    const sym::AddressKind k = kind == GDMAP_ADDRESS_RETURN ? sym::AddressKind::Return : sym::AddressKind::Exact;
    const bool found = symbolizer->image ? locateInImage(*symbolizer, address, k, out)
                                         : locateInTarget(*symbolizer, address, k, out, error);
    if (!found) return GDMAP_E_FAIL;
    symbolizer->located = true;
    *symbol = out;
    return GDMAP_S_OK;
  } catch (...) {
    describe(error, gdmap::rules::kOutOfMemory, 0, "out of memory");
    return GDMAP_E_FAIL;
  }
}

gdmap_hresult gdmap_symbolizer_module(gdmap_symbolizer* symbolizer, uint32_t cch, uint32_t* pcch, char path[],
                                      gdmap_error* error) {
  if (symbolizer == nullptr || (cch > 0 && (pcch == nullptr || path == nullptr))) return GDMAP_E_INVALIDARG;
  if (!symbolizer->located) {
    describe(error, gdmap::rules::kUsage, 0, "no address was located yet");
    return GDMAP_E_FAIL;
  }
  clear(error);
  return copyString(symbolizer->module, cch, pcch, path);
}

gdmap_hresult gdmap_symbolizer_document(gdmap_symbolizer* symbolizer, uint32_t cch, uint32_t* pcch, char document[],
                                        gdmap_error* error) {
  if (symbolizer == nullptr || (cch > 0 && (pcch == nullptr || document == nullptr))) return GDMAP_E_INVALIDARG;
  if (!symbolizer->located) {
    describe(error, gdmap::rules::kUsage, 0, "no address was located yet");
    return GDMAP_E_FAIL;
  }
  clear(error);
  return copyString(symbolizer->document, cch, pcch, document);
}

}  // extern "C"
