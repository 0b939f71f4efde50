#include "image/r2r_components.hpp"

#include "app/exit_status.hpp"
#include "common/file_io.hpp"
#include "common/json_object.hpp"
#include "common/type_names_input.hpp"

#include <gdmap/metadata/assembly_refs.hpp>
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/reader/pe_image.hpp>
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

namespace gdmap::cli {

std::vector<std::string> componentNames(const r2r::R2RImage& image, ByteSpan file) {
  std::vector<std::string> names(image.components.size());
  const r2r::Section* manifest = image.findSection(r2r::section::kManifestMetadata);
  if (manifest != nullptr) {
    const ByteSpan root = file.subspan(static_cast<std::size_t>(manifest->fileOffset), manifest->size);
    if (Expected<std::vector<std::string>> refs = metadata::assemblyRefNames(root, manifest->fileOffset)) {
      for (std::size_t i = 0; i < names.size() && i < refs->size(); ++i) names[i] = (*refs)[i];
    }
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) names[i] = std::to_string(i);
  }
  return names;
}

std::string simpleName(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::size_t dot = base.rfind('.');
  if (dot != std::string::npos && dot > 0) base.resize(dot);
  return base;
}

std::string besides(const std::string& path, const std::string& name) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? name : path.substr(0, slash + 1) + name;
}

AssemblyMetadata assemblyMetadata(ByteSpan bytes, const std::string& file, Report& report) {
  AssemblyMetadata out;
  out.bytes = bytes;
  out.names = assemblyNames(bytes, file, "--names: its metadata cannot be read: ", report);
  if (out.names) {
    if (Expected<std::vector<metadata::MethodIl>> il = metadata::methodIlBodies(bytes)) out.ilBodies = std::move(*il);
    if (Expected<metadata::MethodSignatures> s = metadata::MethodSignatures::open(bytes))
      out.signatures = std::make_unique<metadata::MethodSignatures>(std::move(*s));
  }
  return out;
}

std::vector<AssemblyMetadata> componentMetadata(const std::vector<std::string>& names, const std::string& compositePath,
                                                Report& report, int& status) {
  std::vector<AssemblyMetadata> result(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) continue;
    const std::string path = besides(compositePath, names[i] + ".dll");
    std::optional<InputBytes> component = openInput(path, report);
    status = kUsageOrIo;
    if (!component) return {};
    status = kInvalid;
    result[i] = assemblyMetadata(component->bytes(), path, report);
    result[i].opened = std::move(component);  // a mapping moves with its bytes
    if (!result[i].names) return {};
  }
  return result;
}

bool hasOwnMetadata(ByteSpan file) {
  const Expected<pe::PeImage> pe = pe::PeImage::open(file);
  return pe && pe->cliHeader();
}

std::vector<il::CodeRange> bodyCodeRanges(const r2r::MethodBody& body, const r2r::R2RImage& image,
                                          std::optional<std::uint64_t> base) {
  std::vector<il::CodeRange> ranges;
  ranges.reserve(body.runtimeFunctionCount + body.coldRuntimeFunctionCount);
  const auto add = [&](std::uint32_t first, std::uint32_t count) {
    for (std::uint32_t f = first; f < first + count; ++f) {
      const r2r::RuntimeFunction& rf = image.runtimeFunctions[f];
      ranges.push_back({base.value_or(0) + rf.begin, rf.size(), base.has_value()});
    }
  };
  add(body.firstRuntimeFunction, body.runtimeFunctionCount);
  add(body.firstColdRuntimeFunction, body.coldRuntimeFunctionCount);
  return ranges;
}

std::optional<il::Instantiation> bodyInstantiation(const r2r::MethodBody& body) {
  if (!body.instantiated && !body.asyncVariant && !body.resumptionStub) return std::nullopt;
  il::Instantiation inst;
  inst.typeArguments = body.typeArguments;
  inst.methodArguments = body.methodArguments;
  inst.unboxingStub = (body.signatureFlags & r2r::method_sig::kUnboxingStub) != 0;
  inst.asyncVariant = body.asyncVariant;
  inst.resumptionStub = body.resumptionStub;
  return inst;
}

bool reportImageWarnings(const r2r::R2RImage& image, const std::string& file, bool strict, Report& report) {
  for (const Error& warning : image.warnings) {
    Diagnostic d = binaryDiagnostic(warning);
    d.file = file;
    d.severity = strict ? Severity::Error : Severity::Warning;
    if (strict) d.message += " (refused: --strict)";
    report.add(std::move(d));
  }
  return !(strict && !image.warnings.empty());
}

bool checkIlOffsets(const r2r::R2RImage& image, ByteSpan file, ByteSpan assembly,
                    const std::vector<metadata::MethodIl>& bodies, std::optional<std::uint32_t> component,
                    const std::string& fileName, Report& report) {
  // The reader kept each body's largest IL offset: the check is a
  // comparison per body, and only a body that fails is looked at again.
  bool ok = true;
  for (const r2r::MethodBody& m : image.methods) {
    if (component && m.component != *component) continue;
    if (!m.largestIlOffset || m.resumptionStub || m.hasModule || m.token >> 24 != 0x06) continue;
    const std::uint32_t row = m.token & 0x00FFFFFFu;
    if (row == 0 || row > bodies.size()) continue;
    const metadata::MethodIl& il = bodies[row - 1];
    if (!il.codeSize || *m.largestIlOffset < *il.codeSize || (il.runtimeAsync && !m.asyncVariant)) continue;
    if (const Expected<bool> intrinsic = metadata::hasIntrinsicAttribute(assembly, row); intrinsic && *intrinsic) {
      continue;
    }
    // The first bound past the body names the place.
    std::size_t index = 0;
    std::uint32_t ilOffset = *m.largestIlOffset;
    if (const Expected<il::BoundsView> view =
            il::openBounds(m.bounds.first(m.bounds.size() - m.boundsTrailing), image.profile.bounds)) {
      il::BoundsView::Cursor cursor = view->cursor();
      for (il::Bound bound; cursor.next(bound); ++index) {
        if (bound.ilOffset < il::kEpilog && bound.ilOffset >= *il.codeSize) {
          ilOffset = bound.ilOffset;
          break;
        }
      }
    }
    Diagnostic d;
    d.rule = rules::kR2rIlOffsetPastBody;
    d.file = fileName;
    d.offset = static_cast<std::size_t>(m.bounds.data() - file.data());
    d.message = (m.asyncVariant ? "method " + hex32(m.token) + " (async variant)" : "method " + hex32(m.token)) +
                ": bounds[" + std::to_string(index) + "] names IL offset " + shortHex(ilOffset) +
                ", past the method's " + std::to_string(*il.codeSize) +
                " bytes of IL: the image is misread, or not what its metadata says";
    report.add(std::move(d));
    ok = false;
  }
  return ok;
}

void listComponents(const r2r::R2RImage& image, const std::vector<std::string>& names, const std::string& file,
                    Report& report) {
  std::vector<std::size_t> bodies(names.size());
  for (const r2r::MethodBody& m : image.methods) {
    if (m.component < bodies.size()) ++bodies[m.component];
  }
  if (report.json()) {
    JsonObject& o = report.object();
    o.beginArray("components");
    for (std::size_t i = 0; i < names.size(); ++i) {
      std::string entry = "{\"name\": ";
      appendJsonString(names[i], entry);
      entry += ", \"bodies\": " + std::to_string(bodies[i]) + "}";
      o.arrayRaw(entry);
    }
    o.endArray();
    return;
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    Diagnostic d;
    d.severity = Severity::Note;
    d.file = file;
    d.message = "component " + std::to_string(i) + ": " + names[i] + " (" + std::to_string(bodies[i]) + " bodies)";
    report.add(std::move(d));
  }
}

}  // namespace gdmap::cli
