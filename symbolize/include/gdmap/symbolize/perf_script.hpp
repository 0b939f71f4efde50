#pragma once
// Linux perf's samples of .NET code, symbolized: the text `perf script
// --show-mmap-events` writes, line by line, each frame of a callchain that
// lies in a ReadyToRun image given the method, the IL offset the runtime
// reports for it and the source line (the `gdmap il locate --perf-script`
// filter, docs/cli.md).
//
// What the text holds (perf 5.x and 6.x, default fields):
//   a mapping   COMM PID TIME: PERF_RECORD_MMAP2 PID/TID: [0xBEGIN(0xLEN) @ OFFSET ...]: r-xp PATH
//   a sample    COMM [PID/]TID [CPU] TIME: [PERIOD] EVENT: [ADDR SYM (DSO)]
//   its frames  \t ADDR SYM+0xOFF (DSO)      (the leaf first, then the callers)
// A frame's ADDR is absolute, or (perf 5.x on, for a user-space file) the
// file offset perf computed from the mapping (address - begin + offset):
// an address inside a mapping of DSO in the sample's process is absolute,
// any other is taken as such a file offset. Either way the file offset is
// turned into an RVA by the image's section table, as the loader mapped it.
#include <gdmap/symbolize/il_offset.hpp>
#include <gdmap/symbolize/source_lines.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::symbolize {

// A PERF_RECORD_MMAP or PERF_RECORD_MMAP2 line: a file mapped into a process.
struct PerfMmap {
  std::uint32_t pid = 0;
  std::uint32_t tid = 0;
  std::uint64_t begin = 0;
  std::uint64_t length = 0;
  std::uint64_t offset = 0;  // the file offset mapped at `begin`
  std::string_view path;     // the rest of the line after the permissions
};

// A PERF_RECORD_COMM or PERF_RECORD_FORK line: the process a thread is in.
struct PerfTask {
  std::uint32_t pid = 0;
  std::uint32_t tid = 0;
};

// A frame: ADDR [SYM] (DSO), on a line of its own or at the end of a
// sample's first line (a sample recorded without callchains).
struct PerfFrame {
  std::uint64_t address = 0;
  std::string_view symbol;  // may be empty
  std::string_view dso;     // inside the final parentheses
};

// The first line of a sample.
struct PerfSample {
  std::optional<std::uint32_t> pid;  // when written as PID/TID (perf script -F +pid)
  std::uint32_t tid = 0;
  std::optional<PerfFrame> frame;  // the sample's own address, when it is on this line
};

// Each parser reads one line (without its line end) and gives nothing for
// a line that is not of its kind; none reads past the line or trusts a
// number it has not checked.
std::optional<PerfMmap> parsePerfMmap(std::string_view line);
std::optional<PerfTask> parsePerfTask(std::string_view line);
std::optional<PerfSample> parsePerfSample(std::string_view line);
std::optional<PerfFrame> parsePerfFrame(std::string_view line);

struct PerfScriptOptions {
  bool lines = true;  // source lines from each image's PDB (found beside it)
  // The file to read for an image perf names (e.g. the same files under
  // another root); empty: the name itself.
  std::function<std::string(std::string_view)> imagePath;
  std::size_t maxImages = 4096;  // distinct files tried; later ones are not symbolized
  // Mappings kept, with the files and processes they name, all processes
  // together; later ones are dropped (counted in droppedMappings).
  std::size_t maxMappings = std::size_t{1} << 20;
};

struct PerfScriptCounts {
  std::uint64_t lines = 0;
  std::uint64_t mappings = 0;         // MMAP lines read
  std::uint64_t droppedMappings = 0;  // beyond maxMappings
  std::uint64_t samples = 0;
  std::uint64_t frames = 0;      // frame lines (and sample lines holding their frame)
  std::uint64_t annotated = 0;   // frames in a ReadyToRun image's method
  std::uint64_t inNoMethod = 0;  // frames in a ReadyToRun image but in no method's code
};

// Reads `perf script` text line by line and says, for each, what to append
// to it. Keeps each process's mappings (from the MMAP lines seen so far)
// and each image it opened; every line is answered as it comes.
class PerfScriptAnnotator {
 public:
  explicit PerfScriptAnnotator(PerfScriptOptions options = {});
  PerfScriptAnnotator(PerfScriptAnnotator&&) noexcept;
  PerfScriptAnnotator& operator=(PerfScriptAnnotator&&) noexcept;
  ~PerfScriptAnnotator();

  // What to append to `line` (given without its line end): for a frame in a
  // ReadyToRun image, " => TOKEN NAME +0xOFFSET, IL 0xIL at DOC:LINE:COL"
  // (NAME as `il locate --names` gives it, SOS's text from the image's
  // metadata, e.g. `Ns.Type.Method(Int32)`; the IL offset the runtime
  // reports, the line the image's PDB gives; a sample's leaf looked up
  // exactly, a caller's as a return address), or " => in no method's
  // code"; empty for any other line.
  std::string annotate(std::string_view line);

  const PerfScriptCounts& counts() const;
  // Why images have no lines, each once, since the last call.
  std::vector<PdbNote> takePdbNotes();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace gdmap::symbolize
