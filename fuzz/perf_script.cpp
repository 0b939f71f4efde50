// Fuzz target: `perf script` text (symbolize::PerfScriptAnnotator and the
// line parsers of symbolize/perf_script.hpp), the input read as lines. Every
// file a frame names is the ReadyToRun image of tests/data/perf/ (so that
// frames get symbolized, whatever path the fuzzer writes); nothing else is
// opened. Invariants: no crash, hang or read outside a line; each parser's
// views lie inside its line, a mapping never wraps and is not empty; an
// annotation is empty or " => ..." on one line; the counts add up.
#include "fuzz_check.hpp"

#include <gdmap/symbolize/perf_script.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

bool inside(std::string_view part, std::string_view line) {
  return part.empty() || (part.data() >= line.data() && part.data() + part.size() <= line.data() + line.size());
}

void checkParsers(std::string_view line) {
  using namespace gdmap::symbolize;
  if (const auto m = parsePerfMmap(line)) {
    FUZZ_CHECK(m->length > 0 && m->begin + m->length > m->begin, "an empty or wrapping mapping");
    FUZZ_CHECK(inside(m->path, line) && !m->path.empty(), "a mapping's path outside its line");
  }
  if (const auto f = parsePerfFrame(line))
    FUZZ_CHECK(inside(f->symbol, line) && inside(f->dso, line), "a frame outside its line");
  if (const auto s = parsePerfSample(line); s && s->frame)
    FUZZ_CHECK(inside(s->frame->symbol, line) && inside(s->frame->dso, line), "a sample's frame outside its line");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gdmap::symbolize;
  PerfScriptOptions options;
  options.imagePath = [](std::string_view) { return std::string(GDMAP_PERF_IMAGE); };
  options.maxImages = 8;
  options.maxMappings = 64;
  PerfScriptAnnotator annotator(std::move(options));
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::size_t lines = 0;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    checkParsers(line);
    const std::string note = annotator.annotate(line);
    FUZZ_CHECK(note.empty() || (note.starts_with(" => ") && note.find('\n') == std::string::npos),
               "an annotation that is not \" => ...\" on one line: " + note);
    ++lines;
    start = end + 1;
  }
  const PerfScriptCounts& c = annotator.counts();
  FUZZ_CHECK(c.lines == lines, "lines miscounted");
  FUZZ_CHECK(c.samples <= c.lines && c.mappings <= c.lines && c.frames <= c.lines, "more records than lines");
  FUZZ_CHECK(c.annotated + c.inNoMethod <= c.frames, "more frames symbolized than read");
  FUZZ_CHECK(c.droppedMappings <= c.mappings, "more mappings dropped than read");
  return 0;
}
