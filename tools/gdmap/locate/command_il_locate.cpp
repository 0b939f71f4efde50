// gdmap il locate: a symbolizer for ReadyToRun images (docs/r2r.md), over
// symbolize/. For each address (an RVA, or absolute with --base or --maps):
// the runtime function holding it, the method body that owns that function
// (token, instantiation, name with --names), the offset in the method's
// code, the IL offset(s) whose API entries cover it, and the source line of
// the IL offset the runtime reports — what a sampling profiler needs to
// turn an instruction pointer into a line. A process (--pid, a core dump)
// is process_locate.cpp; --maps without an image maps_locate.cpp.
#include "app/exit_status.hpp"
#include "app/il_commands.hpp"
#include "common/file_io.hpp"
#include "common/report.hpp"
#include "il/il_arguments.hpp"
#include "image/r2r_components.hpp"
#include "image/runtime_target.hpp"
#include "locate/address_lines.hpp"
#include "locate/locate_image_setup.hpp"
#include "locate/maps_locate.hpp"
#include "locate/perf_annotate.hpp"
#include "locate/process_locate.hpp"
#include "locate/r2r_locate.hpp"

#include <gdmap/schema/rules.hpp>
#include <gdmap/symbolize/r2r_locator.hpp>

#include <sys/stat.h>
#include <iostream>
#include <string>
#include <vector>

namespace gdmap::cli {
namespace {

// What the options of an image or a process have in common, checked once.
int checkUsage(const IlLocateOptions& options, Report& report) {
  if (!options.base.empty() && !options.maps.empty()) {
    return report.fail(kUsageOrIo, rules::kUsage,
                       "--base and --maps both say where the image is mapped: give one of them");
  }
  if (!options.pdb.empty() && options.noLines) {
    return report.fail(kUsageOrIo, rules::kUsage, "--pdb names the PDB of the lines --no-lines asks not to read");
  }
  if (!options.input.empty() && (!options.rvas.empty() || (!options.pid.empty() && !options.image.empty()))) {
    return report.fail(kUsageOrIo, rules::kUsage,
                       "--input is read when no address is given; the command line gives some");
  }
  return kSuccess;
}

// A process (--pid or a core dump) takes none of an image's options.
int checkProcessUsage(const IlLocateOptions& options, Report& report) {
  const char* option = options.strict          ? "--strict"
                       : !options.base.empty() ? "--base"
                       : !options.maps.empty() ? "--maps"
                       : !options.pdb.empty()  ? "--pdb"
                                               : nullptr;
  if (option == nullptr) return kSuccess;
  return report.fail(
      kUsageOrIo, rules::kUsage,
      std::string(option) + " is for a ReadyToRun image; a process (--pid or a core dump) does not take it");
}

// --maps without an IMAGE: the first operand is then an address (and no
// file of that name).
bool isMapsAlone(const IlLocateOptions& options) {
  if (options.maps.empty()) return false;
  if (options.image.empty()) return true;
  struct stat info {};
  return parseAddress(options.image) && ::stat(options.image.c_str(), &info) != 0;
}

int locateCommand(const IlLocateOptions& options, Report& report) {
  if (!options.perfScript.empty()) return annotatePerfScript(options, report);
  const bool process = !options.pid.empty();
  if (!process && options.image.empty() && options.maps.empty()) {
    return report.fail(kUsageOrIo, rules::kUsage,
                       "an IMAGE (a ReadyToRun image or a core dump) or --pid is needed (or --maps FILE)");
  }
  if (const int status = checkUsage(options, report); status != kSuccess) return status;
  if (!process && isMapsAlone(options)) {
    std::vector<std::string> texts = options.rvas;
    if (!options.image.empty()) texts.insert(texts.begin(), options.image);
    return locateMaps(options, texts, report);
  }
  auto input =
      process ? std::optional<InputBytes>() : openInput(options.image, report, FileAccess::Whole, InputContent::Image);
  if (!process && !input) return kUsageOrIo;
  if (process || isCoreDump(input->bytes())) {
    if (const int status = checkProcessUsage(options, report); status != kSuccess) return status;
    return locateProcess(options, std::move(input), report);
  }
  const AddressForm form = options.base.empty() && options.maps.empty() ? AddressForm::Rva : AddressForm::Absolute;
  std::vector<std::uint64_t> values;
  if (!parseAddressOperands(options.rvas, form, values, report)) return kUsageOrIo;
  int status = kInvalid;
  std::unique_ptr<LocatedImage> image = openLocatedImage(options, *input, values, report, status);
  if (!image) return status;
  std::size_t unknown = 0;
  std::size_t read = 0;
  if (report.json()) report.object().beginArray("addresses");
  const auto answer = [&](std::uint64_t value) {
    const ImageAnswer a = image->answer(value);
    if (!a.found()) ++unknown;
    writeAnswer(report, report.json() ? imageAnswerJson(a, image->names) : imageAnswerText(a, image->names));
  };
  if (!answerAddresses(values, form, options.input, input->displayName(), report, answer, unknown, read))
    return kUsageOrIo;
  if (values.empty() && read == 0) {
    return report.fail(kUsageOrIo, rules::kUsage,
                       std::string("no RVA to locate: none given, and none on ") +
                           (options.input.empty() || options.input == "-" ? "stdin" : options.input));
  }
  return endAnswers(report, unknown);
}

}  // namespace

int runIlLocate(const IlLocateOptions& options, Report& report) {
  report.nameInput(!options.pid.empty()   ? "process " + options.pid
                   : isMapsAlone(options) ? options.maps
                                          : options.image);
  return runToVerdict(locateCommand, options, report, {"addresses", "unknown"});
}

}  // namespace gdmap::cli
