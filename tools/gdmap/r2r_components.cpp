#include "r2r_components.hpp"

#include "exit_status.hpp"
#include "file_io.hpp"
#include "json_object.hpp"
#include "type_names_input.hpp"

#include <gdmap/metadata/assembly_refs.hpp>
#include <gdmap/reader/pe_image.hpp>
#include <gdmap/schema/diagnostic.hpp>

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

std::string besides(const std::string& path, const std::string& name) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? name : path.substr(0, slash + 1) + name;
}

std::vector<std::unique_ptr<metadata::AssemblyTypeNames>> componentTypeNames(const std::vector<std::string>& names,
                                                                             const std::string& compositePath,
                                                                             Report& report, int& status) {
  std::vector<std::unique_ptr<metadata::AssemblyTypeNames>> result;
  result.reserve(names.size());
  for (const std::string& name : names) {
    const std::string path = besides(compositePath, name + ".dll");
    std::optional<InputBytes> component = openInput(path, report);
    status = kUsageOrIo;
    if (!component) return {};
    status = kInvalid;
    std::unique_ptr<metadata::AssemblyTypeNames> typeNames =
        assemblyNames(component->bytes(), path, "--names: its metadata cannot be read: ", report);
    if (!typeNames) return {};
    result.push_back(std::move(typeNames));
  }
  return result;
}

bool hasOwnMetadata(ByteSpan file) {
  const Expected<pe::PeImage> pe = pe::PeImage::open(file);
  return pe && pe->cliHeader();
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
