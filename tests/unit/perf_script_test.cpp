// `perf script` text symbolized (symbolize/perf_script.hpp): the line
// parsers on real perf 6.1 output and on what they must refuse, and the
// annotator on three captures of tests/runtime/stacktrace/perf_app (its
// ReadyToRun image and PDB beside them in tests/data/perf/, README.md there):
// with callchains (file offsets), without (absolute addresses), and with
// PID/TID and task events. The hot loops are on lines 18 (SumSquares), 26
// (Hash) and 34 (Harmonic); Round calls them on line 39, Main calls Round
// on line 52 (the PDB names the source /tmp/st/psrc/Program.cs).
#include <gdmap/symbolize/perf_script.hpp>

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace gdmap::symbolize;

const std::string kData = std::string(GDMAP_SOURCE_DIR) + "/tests/data/perf/";
const std::string kRecordedImage = "/tmp/st/perfpub/perf_app.dll";  // where perf saw it

std::vector<std::string> linesOf(const std::string& file) {
  std::ifstream in(kData + file);
  REQUIRE(in);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

PerfScriptOptions testOptions() {
  PerfScriptOptions options;
  options.imagePath = [](std::string_view dso) {
    return dso == kRecordedImage ? kData + "perf_app.dll" : std::string(dso);
  };
  return options;
}

// Each line with its annotation.
std::vector<std::string> annotateAll(const std::vector<std::string>& lines, PerfScriptAnnotator& annotator) {
  std::vector<std::string> out;
  for (const std::string& line : lines) out.push_back(annotator.annotate(line));
  return out;
}

std::string at(int line) { return " at /tmp/st/psrc/Program.cs:" + std::to_string(line) + ":"; }

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("perf script: an MMAP2 line gives its process, range, file offset and path") {
  const auto m = parsePerfMmap(
      "dotnet 11477 16214.256124: PERF_RECORD_MMAP2 11477/11477: [0x7f1106360000(0x2000) @ 0 fe:00 11739850 "
      "1698118353]: r-xp /tmp/st/perfpub/perf_app.dll");
  REQUIRE(m);
  CHECK(m->pid == 11477);
  CHECK(m->tid == 11477);
  CHECK(m->begin == 0x7f1106360000u);
  CHECK(m->length == 0x2000);
  CHECK(m->offset == 0);
  CHECK(m->path == "/tmp/st/perfpub/perf_app.dll");
  const auto shared = parsePerfMmap(
      "dotnet 11477 16214.211391: PERF_RECORD_MMAP2 11477/11477: [0x7f11843c9000(0x4b1000) @ 0x1c8000 fe:00 351014 "
      "0]: r-xp /usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.12/libcoreclr.so");
  REQUIRE(shared);
  CHECK(shared->offset == 0x1c8000);
  // A path with spaces, and the old MMAP record (no device fields).
  const auto deleted = parsePerfMmap(
      "dotnet 11477 16214.220020: PERF_RECORD_MMAP2 11477/11477: [0x7f1105240000(0x1000) @ 0 00:01 1629 "
      "2678999344]: r-xs /memfd:doublemapper (deleted)");
  REQUIRE(deleted);
  CHECK(deleted->path == "/memfd:doublemapper (deleted)");
  const auto old = parsePerfMmap("true 7 1.000000: PERF_RECORD_MMAP 7/7: [0x400000(0x1000) @ 0x2000]: x /bin/true");
  REQUIRE(old);
  CHECK(old->offset == 0x2000);
  CHECK(old->path == "/bin/true");
}

TEST_CASE("perf script: MMAP lines that are not a process's file mapping give nothing") {
  // The kernel's (-1/0), and lines cut or broken anywhere.
  CHECK_FALSE(
      parsePerfMmap("swapper 0 0.000000: PERF_RECORD_MMAP -1/0: [0xffffffff81000000(0x1209988) @ "
                    "0xffffffff81000000]: x [kernel.kallsyms]_text"));
  const std::string good = "d 1 1.0: PERF_RECORD_MMAP2 1/1: [0x1000(0x2000) @ 0 fe:00 1 0]: r-xp /a.dll";
  REQUIRE(parsePerfMmap(good));
  for (std::size_t n = 0; n + 1 < good.size(); ++n) {
    CAPTURE(n);
    const auto cut = parsePerfMmap(good.substr(0, n));
    if (cut) CHECK(good.substr(0, n).size() > good.find("r-xp ") + 5);  // only the path may be cut
  }
  CHECK_FALSE(parsePerfMmap("d 1 1.0: PERF_RECORD_MMAP2 1/1: [0xzz(0x2000) @ 0 fe:00 1 0]: r-xp /a.dll"));
  CHECK_FALSE(parsePerfMmap("d 1 1.0: PERF_RECORD_MMAP2 1/1: [0x1000(0x0) @ 0 fe:00 1 0]: r-xp /a.dll"));
  CHECK_FALSE(parsePerfMmap(
      "d 1 1.0: PERF_RECORD_MMAP2 1/1: [0xffffffffffffff00(0x200) @ 0 fe:00 1 0]: r-xp /a.dll"));  // wraps
  CHECK_FALSE(parsePerfMmap("d 1 1.0: PERF_RECORD_MMAP2 1/1: [0x1000(0x2000) @ 0x11112222333344445 fe:00 1 0]: r /a"));
  CHECK_FALSE(parsePerfMmap("d 1 1.0: PERF_RECORD_MMAP2 99999999999/1: [0x1000(0x2000) @ 0 x]: r /a"));
}

TEST_CASE("perf script: FORK and COMM lines say which process a thread is in") {
  const auto fork = parsePerfTask("dotnet 11477/11477 16214.216694: PERF_RECORD_FORK(11477:11479):(11477:11477)");
  REQUIRE(fork);
  CHECK(fork->pid == 11477);
  CHECK(fork->tid == 11479);
  const auto comm =
      parsePerfTask(".NET SynchManag 11477/11479 16214.219798: PERF_RECORD_COMM: .NET SynchManag:11477/11479");
  REQUIRE(comm);
  CHECK(comm->tid == 11479);
  const auto exec = parsePerfTask("dotnet 11477/11477 16214.208655: PERF_RECORD_COMM exec: dotnet:11477/11477");
  REQUIRE(exec);
  CHECK(exec->pid == 11477);
  CHECK_FALSE(parsePerfTask("dotnet 1 1.0: PERF_RECORD_FORK(1:x):(1:1)"));
  CHECK_FALSE(parsePerfTask("dotnet 1 1.0: PERF_RECORD_COMM: no ids"));
  CHECK_FALSE(parsePerfTask("dotnet 1 1.0: PERF_RECORD_EXIT(1:1):(1:1)"));
}

TEST_CASE("perf script: a sample's first line gives its thread, and its frame when it has no callchain") {
  const auto plain = parsePerfSample("dotnet 11477 16214.257870:    1001001 cpu-clock:ppp: ");
  REQUIRE(plain);
  CHECK_FALSE(plain->pid);
  CHECK(plain->tid == 11477);
  CHECK_FALSE(plain->frame);
  const auto both = parsePerfSample(".NET TP Worker 11477/11490 [003] 16214.257870: 250000 cycles:u: ");
  REQUIRE(both);
  CHECK(both->pid == 11477u);
  CHECK(both->tid == 11490);
  const auto flat = parsePerfSample(
      "          dotnet 32265 17159.184320:    2004008 cpu-clock:ppp:      7f33a7f609db [unknown] "
      "(/tmp/st/perfpub/perf_app.dll)");
  REQUIRE(flat);
  REQUIRE(flat->frame);
  CHECK(flat->frame->address == 0x7f33a7f609dbu);
  CHECK(flat->frame->symbol == "[unknown]");
  CHECK(flat->frame->dso == "/tmp/st/perfpub/perf_app.dll");
  CHECK_FALSE(parsePerfSample("\t 9db [unknown] (/a.dll)"));  // a frame
  CHECK_FALSE(parsePerfSample("dotnet 1 1.0: PERF_RECORD_MMAP2 1/1: [0x1(0x1) @ 0]: r /a"));
  CHECK_FALSE(parsePerfSample("no time here 123"));
  CHECK_FALSE(parsePerfSample("dotnet x 1.5: 1 cycles:"));  // no thread id before the time
}

TEST_CASE("perf script: a frame line gives its address, symbol and DSO") {
  const auto f = parsePerfFrame("\t          1c95c6 coreclr_execute_assembly+0xd6 (/usr/share/libcoreclr.so)");
  REQUIRE(f);
  CHECK(f->address == 0x1c95c6);
  CHECK(f->symbol == "coreclr_execute_assembly+0xd6");
  CHECK(f->dso == "/usr/share/libcoreclr.so");
  const auto jit = parsePerfFrame("\t           c4b28 [unknown] (/memfd:doublemapper (deleted))");
  REQUIRE(jit);
  CHECK(jit->dso == "/memfd:doublemapper (deleted)");
  const auto cpp =
      parsePerfFrame("\t 7f00 std::vector<int, std::allocator<int> >::at(unsigned long) const (/lib/x.so)");
  REQUIRE(cpp);
  CHECK(cpp->symbol == "std::vector<int, std::allocator<int> >::at(unsigned long) const");
  const auto bare = parsePerfFrame("\t 0 ([unknown])");
  REQUIRE(bare);
  CHECK(bare->symbol.empty());
  CHECK_FALSE(parsePerfFrame("\t no address (/a.dll)"));
  CHECK_FALSE(parsePerfFrame("\t 9db [unknown] /a.dll"));
  CHECK_FALSE(parsePerfFrame("\t 9db [unknown](/a.dll)"));
  CHECK_FALSE(parsePerfFrame("\t 9db [unknown] (/a.dll))"));
  CHECK_FALSE(parsePerfFrame("\t 11112222333344445 x (/a.dll)"));
  CHECK_FALSE(parsePerfFrame(""));
}

TEST_CASE("perf script: callchains in a ReadyToRun image get method, IL offset and line, nothing else does") {
  PerfScriptAnnotator annotator(testOptions());
  const std::vector<std::string> lines = linesOf("callchain.txt");
  const std::vector<std::string> notes = annotateAll(lines, annotator);
  std::size_t annotated = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    CAPTURE(lines[i]);
    CAPTURE(notes[i]);
    const bool ours = has(lines[i], "(/tmp/st/perfpub/perf_app.dll)");
    CHECK(ours == !notes[i].empty());
    if (!ours) continue;
    ++annotated;
    CHECK(notes[i].starts_with(" => 0x0600000"));
    if (has(lines[i], " 9db ")) CHECK(has(notes[i], "Hot.SumSquares(Int32) +0x3b, IL 0x7" + at(18)));
    if (has(lines[i], " a0c ")) CHECK((has(notes[i], "Hot.Hash(Int32) +") && has(notes[i], at(26))));
    if (has(lines[i], " a4a ")) CHECK((has(notes[i], "Hot.Harmonic(Int32) +") && has(notes[i], at(34))));
    if (has(lines[i], " a77 ") || has(lines[i], " a82 ") || has(lines[i], " a93 "))
      CHECK((has(notes[i], "Hot.Round(Int32) +") && has(notes[i], at(39))));
    if (has(lines[i], " b39 ")) CHECK(has(notes[i], "Program.Main(System.String[]) +0x69, IL 0x2a" + at(52)));
  }
  CHECK(annotated == 13);
  CHECK(annotator.counts().samples == 5);
  CHECK(annotator.counts().annotated == 13);
  CHECK(annotator.counts().mappings == 3);
  CHECK(annotator.takePdbNotes().empty());
}

TEST_CASE("perf script: a sample's leaf, and the frame the kernel was entered from, are exact, callers return") {
  // The same address, 0x...a77 in Round: just after its call of SumSquares.
  // Exact, it is the next instruction's; as a return address, the call's.
  const std::string mmap =
      "dotnet 7 1.000000: PERF_RECORD_MMAP2 7/7: [0x7f0000010000(0x2000) @ 0 fe:00 1 0]: r-xp " + kRecordedImage;
  auto run = [&](const std::vector<std::string>& frames) {
    PerfScriptAnnotator annotator(testOptions());
    annotator.annotate(mmap);
    annotator.annotate("dotnet 7 2.000000: 1 cpu-clock: ");
    std::vector<std::string> out;
    for (const std::string& f : frames) out.push_back(annotator.annotate(f));
    return out;
  };
  const std::string frame = "\t 7f0000010a77 [unknown] (" + kRecordedImage + ")";
  const std::string kernel = "\tffffffff81000e06 asm_sysvec_apic_timer_interrupt+0x16 ([kernel.kallsyms])";
  const std::vector<std::string> leaf = run({frame});
  const std::vector<std::string> caller = run({frame, frame});
  const std::vector<std::string> interrupted = run({kernel, frame, frame});
  CHECK(leaf[0] == interrupted[1]);
  CHECK(caller[1] == interrupted[2]);
  CHECK(leaf[0] == caller[0]);
  CHECK(has(leaf[0], "Hot.Round(Int32) +0x17"));
  CHECK(interrupted[0].empty());
}

TEST_CASE("perf script: absolute addresses without callchains, through the process's mapping") {
  PerfScriptAnnotator annotator(testOptions());
  const std::vector<std::string> lines = linesOf("no_callchain.txt");
  const std::vector<std::string> notes = annotateAll(lines, annotator);
  REQUIRE(lines.size() == 8);
  CHECK(notes[0].empty());  // the mapping
  CHECK(has(notes[1], "Hot.SumSquares(Int32) +0x3b, IL 0x7" + at(18)));
  CHECK((has(notes[2], "Hot.Hash(Int32)") && has(notes[2], at(26))));
  CHECK((has(notes[3], "Hot.Harmonic(Int32)") && has(notes[3], at(34))));
  CHECK((has(notes[4], "Hot.SumSquares(Int32)") && has(notes[4], at(18))));
  CHECK((has(notes[5], "Hot.Hash(Int32)") && has(notes[5], at(26))));
  CHECK(notes[7].empty());  // libcoreclr.so
  CHECK(annotator.counts().samples == 7);
}

TEST_CASE("perf script: PID/TID headers and task events") {
  PerfScriptAnnotator annotator(testOptions());
  const std::vector<std::string> notes = annotateAll(linesOf("pid_tid.txt"), annotator);
  std::size_t sums = 0;
  for (const std::string& n : notes) sums += (has(n, "Hot.SumSquares(Int32)") && has(n, at(18))) ? 1 : 0;
  CHECK(sums == 2);
  CHECK(annotator.counts().samples == 2);
}

TEST_CASE("perf script: two processes mapping one image at different addresses") {
  PerfScriptAnnotator annotator(testOptions());
  for (const char* line : {"a 10 1.0: PERF_RECORD_MMAP2 10/10: [0x7f0000010000(0x2000) @ 0 fe:00 1 0]: r-xp ",
                           "b 20 1.0: PERF_RECORD_MMAP2 20/20: [0x7f0000050000(0x2000) @ 0 fe:00 1 0]: r-xp "})
    annotator.annotate(line + kRecordedImage);
  annotator.annotate("b 20 2.0: 1 cpu-clock: ");
  const std::string inB = annotator.annotate("\t 7f00000509db [unknown] (" + kRecordedImage + ")");
  const std::string inA = annotator.annotate("\t 7f00000109db [unknown] (" + kRecordedImage + ")");
  CHECK(has(inB, "Hot.SumSquares(Int32) +0x3b"));
  // Process 20's mapping does not hold A's address: taken as a file offset,
  // it is in no section.
  CHECK(inA.empty());
  // A thread of process 10 known from a FORK line.
  annotator.annotate("a 10/10 1.5: PERF_RECORD_FORK(10:11):(10:10)");
  annotator.annotate("a 11 3.0: 1 cpu-clock: ");
  CHECK(has(annotator.annotate("\t 7f00000109db [unknown] (" + kRecordedImage + ")"), "Hot.SumSquares(Int32) +0x3b"));
}

TEST_CASE("perf script: what is kept is bounded, and garbage passes through") {
  PerfScriptOptions options = testOptions();
  options.maxImages = 0;
  options.maxMappings = 1;
  PerfScriptAnnotator annotator(std::move(options));
  const std::vector<std::string> lines = linesOf("callchain.txt");
  for (const std::string& n : annotateAll(lines, annotator)) CHECK(n.empty());
  CHECK(annotator.counts().droppedMappings == 2);
  for (const char* junk : {"", "\t", "(((", "\t ) (", "\t 9db ()", "x 1 1.0: PERF_RECORD_MMAP2", "\xff\xfe 1 2.0:"})
    CHECK(annotator.annotate(junk).empty());
}

TEST_CASE("perf script: a frame in an image that is not ReadyToRun, or no file, is left alone") {
  PerfScriptAnnotator annotator(testOptions());
  annotator.annotate("dotnet 7 2.000000: 1 cpu-clock: ");
  CHECK(annotator.annotate("\t 10 [unknown] (" + kData + "callchain.txt)").empty());
  CHECK(annotator.annotate("\t 10 [unknown] (/nonexistent/gdmap/x.dll)").empty());
  CHECK(annotator.annotate("\t 10 [unknown] ([vdso])").empty());
  // In the image's headers (no section), and in its code section but in
  // no method's code (the section starts with the ReadyToRun header).
  CHECK(annotator.annotate("\t 10 [unknown] (" + kRecordedImage + ")").empty());
  CHECK(annotator.annotate("\t 200 [unknown] (" + kRecordedImage + ")") == " => in no method's code");
  CHECK(annotator.counts().frames == 5);
  CHECK(annotator.counts().inNoMethod == 1);
}
