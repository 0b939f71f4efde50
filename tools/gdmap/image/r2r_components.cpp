#include "image/r2r_components.hpp"

#include "app/exit_status.hpp"
#include "common/file_io.hpp"
#include "common/json_object.hpp"
#include "common/type_names_input.hpp"

#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/rules.hpp>

namespace gdmap::cli {

Expected<symbolize::AssemblyFile> InputResolver::open(const std::string& path) const {
  Expected<InputBytes> input = InputBytes::open(path);
  if (!input) return input.error();
  auto holder = std::make_shared<InputBytes>(std::move(input).value());
  const ByteSpan bytes = holder->bytes();  // a mapping moves with its bytes
  return symbolize::AssemblyFile{holder->displayName(), bytes, std::move(holder)};
}

AssemblyMetadata assemblyMetadata(ByteSpan bytes, const std::string& file, Report& report) {
  Expected<AssemblyMetadata> read = symbolize::readAssemblyMetadata(bytes);
  if (!read) {
    reportNotAssembly(read.error(), file, "--names: its metadata cannot be read: ", report);
    AssemblyMetadata none;
    none.bytes = bytes;
    return none;
  }
  return std::move(read).value();
}

std::vector<AssemblyMetadata> componentMetadata(const std::vector<std::string>& names, const std::string& compositePath,
                                                Report& report, int& status) {
  symbolize::ComponentMetadata read = symbolize::readComponentMetadata(names, compositePath, InputResolver());
  if (!read.error) return std::move(read.components);
  if (read.unreadable) {
    status = kUsageOrIo;
    reportInputError(read.failedPath, *read.error, report);
  } else {
    status = kInvalid;
    reportNotAssembly(*read.error, read.failedPath, "--names: its metadata cannot be read: ", report);
  }
  return {};
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
  const std::vector<Error> errors = symbolize::ilOffsetsPastBodies(image, file, assembly, bodies, component);
  for (const Error& e : errors) {
    Diagnostic d;
    d.rule = e.rule;
    d.file = fileName;
    d.offset = e.offset;
    d.message = e.message;
    report.add(std::move(d));
  }
  return errors.empty();
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
