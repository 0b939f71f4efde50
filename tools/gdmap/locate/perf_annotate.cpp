#include "locate/perf_annotate.hpp"

#include "app/exit_status.hpp"
#include "locate/locate_image_setup.hpp"

#include <gdmap/schema/rules.hpp>
#include <gdmap/symbolize/perf_script.hpp>

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace gdmap::cli {
namespace {

// The options of `il locate` that name addresses or where they are: none
// goes with --perf-script, whose text says both.
std::string addressOptionGiven(const IlLocateOptions& o) {
  if (!o.image.empty() || !o.rvas.empty()) return "an IMAGE or ADDRESS";
  if (!o.pid.empty()) return "--pid";
  if (!o.base.empty()) return "--base";
  if (!o.maps.empty()) return "--maps";
  if (!o.pdb.empty()) return "--pdb";
  if (!o.input.empty()) return "--input";
  if (o.returnAddresses) return "--return-addresses";
  if (o.strict) return "--strict";
  return {};
}

// Writes each line of `fd` with its annotation, the output flushed before
// each wait for more input; a line longer than the buffer goes through in
// pieces, unannotated. False on a read error (errno says which).
bool annotateLines(int fd, symbolize::PerfScriptAnnotator& annotator) {
  std::vector<char> buffer(kLongestPerfLine);
  std::size_t have = 0;
  bool passing = false;  // inside a line too long to annotate
  auto emit = [&](std::string_view line) {
    std::cout << line;
    if (!passing) std::cout << annotator.annotate(line);
    std::cout << '\n';
    passing = false;
  };
  for (;;) {
    std::cout.flush();
    const ssize_t got = ::read(fd, buffer.data() + have, buffer.size() - have);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return false;
    if (got == 0) break;
    have += static_cast<std::size_t>(got);
    std::size_t start = 0;
    for (std::size_t i = 0; i < have; ++i) {
      if (buffer[i] != '\n') continue;
      emit(std::string_view(buffer.data() + start, i - start));
      start = i + 1;
    }
    if (start == 0 && have == buffer.size()) {  // no line end in a full buffer
      std::cout.write(buffer.data(), static_cast<std::streamsize>(have));
      passing = true;
      have = 0;
      continue;
    }
    std::memmove(buffer.data(), buffer.data() + start, have - start);
    have -= start;
  }
  if (have > 0 || passing) emit(std::string_view(buffer.data(), have));
  return true;
}

void reportCounts(const symbolize::PerfScriptCounts& c) {
  std::cerr << "perf script: " << c.lines << " lines, " << c.samples << " samples, " << c.frames << " frames, "
            << c.annotated << " in ReadyToRun methods";
  if (c.inNoMethod) std::cerr << " (" << c.inNoMethod << " more in no method's code)";
  if (c.droppedMappings) std::cerr << "; " << c.droppedMappings << " mappings beyond the most kept were not kept";
  std::cerr << '\n';
}

}  // namespace

int annotatePerfScript(const IlLocateOptions& options, Report& report) {
  if (report.json()) {
    return report.fail(kUsageOrIo, rules::kUsage, "--perf-script writes perf's text annotated; it has no --json");
  }
  if (const std::string given = addressOptionGiven(options); !given.empty()) {
    return report.fail(
        kUsageOrIo, rules::kUsage,
        "--perf-script reads the addresses and their processes from perf's text; " + given + " does not go with it");
  }
  const std::string& path = options.perfScript;
  const bool fromStdin = path.empty() || path == "-";
  const int fd = fromStdin ? 0 : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return report.fail(kUsageOrIo, rules::kInputUnreadable, std::string("cannot open: ") + std::strerror(errno), path);
  symbolize::PerfScriptOptions annotatorOptions;
  annotatorOptions.lines = !options.noLines;
  symbolize::PerfScriptAnnotator annotator(std::move(annotatorOptions));
  const bool read = annotateLines(fd, annotator);
  const int readErrno = errno;
  if (!fromStdin) ::close(fd);
  std::cout.flush();
  for (const symbolize::PdbNote& note : annotator.takePdbNotes()) addPdbNote(report, note);
  reportCounts(annotator.counts());
  if (!read)
    return report.fail(kUsageOrIo, rules::kInputUnreadable, std::strerror(readErrno), fromStdin ? "stdin" : path);
  if (!std::cout) return report.stdoutFailed();
  return kSuccess;
}

}  // namespace gdmap::cli
