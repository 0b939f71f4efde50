// gdmap il locate --maps FILE ADDRESS...: addresses of a process, as a
// profiler recorded them with the process's /proc/PID/maps, each answered
// in the file mapped there (symbolize's MapsSymbolizer: the file opened the
// first time an address falls in it, the offset made an RVA by its
// sections).
#include "locate/maps_locate.hpp"
#include "app/exit_status.hpp"
#include "image/r2r_components.hpp"
#include "locate/address_lines.hpp"
#include "locate/locate_image_setup.hpp"
#include "locate/r2r_locate.hpp"

#include <gdmap/schema/rules.hpp>
#include <gdmap/symbolize/maps_symbolizer.hpp>
#include <gdmap/symbolize/module_names.hpp>

#include <iostream>
#include <unordered_map>

namespace gdmap::cli {
namespace {

// A composite image's components by name, read once per image.
class ComponentNames {
 public:
  const std::string& of(const symbolize::ImageSymbolizer& image, std::uint32_t component) {
    auto found = byImage_.find(&image);
    if (found == byImage_.end())
      found = byImage_.emplace(&image, componentNames(image.image(), image.pe().file())).first;
    static const std::string none;
    return component < found->second.size() ? found->second[component] : none;
  }

 private:
  std::unordered_map<const symbolize::ImageSymbolizer*, std::vector<std::string>> byImage_;
};

// The answer in the form the image's answers have.
ImageAnswer imageAnswerOf(const symbolize::MapsAnswer& m, ComponentNames& components) {
  ImageAnswer a;
  a.address = m.address;
  a.located = m.located;
  a.source = m.source;
  if (m.mapping == nullptr) {
    a.problem = "in no mapped file";
    return a;
  }
  a.module = m.mapping->path;
  if (m.image == nullptr) {
    a.problem = "in " + m.mapping->path + ", not a ReadyToRun image (" + m.error + ")";
  } else if (!m.rva) {
    a.problem = "in " + m.mapping->path + ", in none of its sections";
  } else if (m.located.method != nullptr && !m.image->image().components.empty()) {
    a.component = components.of(*m.image, m.located.method->component);
  }
  return a;
}

}  // namespace

int locateMaps(const IlLocateOptions& options, const std::vector<std::string>& texts, Report& report) {
  if (options.strict) {
    return report.fail(kUsageOrIo, rules::kUsage,
                       "--strict is for IMAGE; with --maps alone each image is read with a warning");
  }
  if (!options.pdb.empty()) {
    return report.fail(kUsageOrIo, rules::kUsage, "--pdb is IMAGE's PDB; with --maps alone each image's is beside it");
  }
  std::vector<std::uint64_t> values;
  if (!parseAddressOperands(texts, AddressForm::Absolute, values, report)) return kUsageOrIo;
  int status = kInvalid;
  std::optional<std::vector<symbolize::Mapping>> mappings = readMapsFile(options.maps, report, status);
  if (!mappings) return status;
  symbolize::MapsSymbolizer symbolizer(std::move(*mappings), symbolize::MapsSymbolizerOptions{!options.noLines});
  symbolize::ModuleNames modules([&](Diagnostic d) {
    d.file = options.maps;
    report.add(std::move(d));
  });
  ComponentNames components;
  std::unordered_map<const symbolize::ImageSymbolizer*, MethodNames> namesByImage;
  const symbolize::AddressKind kind =
      options.returnAddresses ? symbolize::AddressKind::Return : symbolize::AddressKind::Exact;
  std::size_t unknown = 0;
  std::size_t read = 0;
  if (report.json()) report.object().beginArray("addresses");
  const auto answer = [&](std::uint64_t value) {
    const symbolize::MapsAnswer m = symbolizer.locate(value, kind);
    for (const symbolize::PdbNote& note : symbolizer.takePdbNotes()) addPdbNote(report, note);
    const ImageAnswer a = imageAnswerOf(m, components);
    // Each image's names (and method texts), made the first time.
    static const MethodNames none;
    const MethodNames* names = &none;
    if (m.image != nullptr) {
      auto found = namesByImage.find(m.image);
      if (found == namesByImage.end()) {
        const bool own = options.names && m.image->image().components.empty();
        found = namesByImage
                    .emplace(m.image, MethodNames{own ? modules.namesOf(a.module) : nullptr,
                                                  nullptr,
                                                  {},
                                                  own ? modules.signaturesOf(a.module) : nullptr})
                    .first;
      }
      names = &found->second;
    }
    if (!a.found()) ++unknown;
    writeAnswer(report, report.json() ? imageAnswerJson(a, *names) : imageAnswerText(a, *names));
  };
  if (!answerAddresses(values, AddressForm::Absolute, options.input, options.maps, report, answer, unknown, read))
    return kUsageOrIo;
  return endAnswers(report, unknown);
}

}  // namespace gdmap::cli
