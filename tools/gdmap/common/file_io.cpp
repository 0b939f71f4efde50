#include "common/file_io.hpp"

#include "app/exit_status.hpp"
#include "common/input_kind.hpp"

#include <gdmap/description/json_syntax.hpp>
#include <gdmap/io/stream_input.hpp>
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <iostream>
#include <span>

#include <sys/stat.h>
#include <unistd.h>

namespace gdmap::cli {
namespace {

// Whether the first bytes of an input (at least kSniffBytes, or all of it)
// can start a PE image ("MZ") or an ELF file (a core dump).
bool couldBeImage(ByteSpan head) {
  static constexpr std::array<std::uint8_t, 2> kMz = {'M', 'Z'};
  static constexpr std::array<std::uint8_t, 4> kElf = {0x7f, 'E', 'L', 'F'};
  const auto startsWith = [&](std::span<const std::uint8_t> magic) {
    return head.size() < magic.size() || std::equal(magic.begin(), magic.end(), head.begin());
  };
  return startsWith(kMz) || startsWith(kElf);
}

// Reads `stream` to its end, or, for a JSON input, until its syntax first
// fails: `yes | gdmap build -` stops after one chunk, and the description
// parser then reports that first error from the bytes read. Either: JSON
// when its first bytes look like JSON (diff's operands).
void readStream(StreamInput& stream, InputContent content) {
  if (content == InputContent::Either || content == InputContent::Image) {
    while (stream.bytes().size() < kSniffBytes && !stream.next().empty()) {}
    // Neither a PE image nor a core dump: the readers refuse these bytes
    // as they would refuse all of them (no MZ signature, at byte 0), and the
    // notes about what the input looks like read no further.
    if (content == InputContent::Image && !couldBeImage(stream.bytes())) return;
    if (content == InputContent::Either && sniffInputKind(stream.bytes()) != InputKind::Json)
      content = InputContent::Binary;
  }
  if (content == InputContent::Image) content = InputContent::Binary;
  if (content == InputContent::Binary) {
    stream.readAll();
    return;
  }
  // What was read while sniffing is checked first, then what comes.
  bool sniffedGiven = stream.bytes().empty();
  checkJsonSyntax([&]() -> std::string_view {
    ByteSpan piece;
    if (!sniffedGiven) {
      sniffedGiven = true;
      piece = stream.bytes();
    } else {
      piece = stream.next();
    }
    return {reinterpret_cast<const char*>(piece.data()), piece.size()};
  });
}

// An I/O error as a diagnostic about `file` (an input's or an output's
// name): io/ words its message "FILE: cannot open: ...", and the diagnostic
// already starts with the file.
std::string withoutFile(std::string message, const std::string& file) {
  if (message.size() > file.size() + 2 && message.compare(0, file.size(), file) == 0 &&
      message.compare(file.size(), 2, ": ") == 0)
    message.erase(0, file.size() + 2);
  return message;
}

int failOn(Report& report, const std::string& file, const Error& e, const char* rule) {
  return report.fail(kUsageOrIo, e.rule.empty() ? rule : e.rule.c_str(), withoutFile(e.message, file), file);
}

}  // namespace

Expected<std::size_t> maxStreamInput() {
  const char* text = std::getenv("GDMAP_MAX_INPUT_SIZE");
  if (text == nullptr || *text == '\0') return kDefaultMaxStreamInput;
  if (auto size = parseByteSize(text)) return *size;
  return Error{0,
               "GDMAP_MAX_INPUT_SIZE=" + quoteInput(text) +
                   " is not a size: give bytes, or a number with K, M, G or T (64M, 2G)",
               rules::kUsage};
}

Expected<InputBytes> InputBytes::open(const std::string& path, FileAccess access, InputContent content) {
  InputBytes input;
  const bool fromStdin = path == "-";
  input.name_ = fromStdin ? "stdin" : path;
  struct stat info {};
  const bool known = fromStdin ? ::fstat(STDIN_FILENO, &info) == 0 : ::stat(path.c_str(), &info) == 0;
  const bool stream = known && !S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode);
  // stdin redirected from a file is mapped like the file, unless something
  // has already read into it (a mapping starts at the file's start).
  const bool mappedStdin = fromStdin && !stream && ::lseek(STDIN_FILENO, 0, SEEK_CUR) == 0;
  if (!stream && (!fromStdin || mappedStdin)) {
    auto mapped = fromStdin ? MappedFile::open(STDIN_FILENO, input.name_, access) : MappedFile::open(path, access);
    if (!mapped) return mapped.error();
    input.identity_ = mapped->identity();
    input.mapped_.emplace(std::move(mapped).value());
    return input;
  }
  const auto cap = maxStreamInput();
  if (!cap) return cap.error();
  auto opened = fromStdin ? Expected<StreamInput>(StreamInput(STDIN_FILENO, input.name_, *cap, false))
                          : StreamInput::open(path, *cap);
  if (!opened) return opened.error();
  StreamInput& streamInput = *opened;
  readStream(streamInput, content);
  if (streamInput.error()) return *streamInput.error();
  if (fromStdin) input.identity_ = identityOf(STDIN_FILENO);
  input.buffer_ = std::move(streamInput).take();
  return input;
}

ByteSpan InputBytes::bytes() const { return mapped_ ? mapped_->bytes() : ByteSpan(buffer_); }

std::string_view InputBytes::text() const {
  const ByteSpan b = bytes();
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

void reportInputError(const std::string& path, const Error& e, Report& report) {
  const std::string file = path == "-" ? "stdin" : path;
  if (e.rule == rules::kInputTooLarge) {
    // Where reading stopped: the cap, a byte offset in the input.
    Diagnostic d = binaryDiagnostic(e);
    d.message = withoutFile(std::move(d.message), file);
    d.file = file;
    report.add(std::move(d));
  } else if (e.rule == rules::kUsage) {
    report.fail(kUsageOrIo, rules::kUsage, e.message);
  } else {
    failOn(report, file, e, rules::kInputUnreadable);
  }
}

std::optional<InputBytes> openInput(const std::string& path, Report& report, FileAccess access, InputContent content) {
  auto input = InputBytes::open(path, access, content);
  if (!input) {
    reportInputError(path, input.error(), report);
    return std::nullopt;
  }
  return std::move(input).value();
}

std::optional<Output> Output::resolve(const std::string& path, OutputKind kind,
                                      const std::vector<std::optional<FileIdentity>>& inputs, Report& report) {
  Output out;
  out.kind_ = kind;
  if (path == "-") {
    if (report.json()) {
      report.fail(kUsageOrIo, rules::kUsage, "--json prints its report on stdout: give the output a file with -o FILE");
      return std::nullopt;
    }
    return out;
  }
  std::vector<FileIdentity> known;
  for (const auto& identity : inputs)
    if (identity) known.push_back(*identity);
  auto file = OutputFile::resolve(path, known);
  if (!file) {
    failOn(report, path, file.error(), rules::kOutputUnwritable);
    return std::nullopt;
  }
  out.file_.emplace(std::move(file).value());
  return out;
}

std::optional<InputBytes> openInputAndOutput(const std::string& inputPath, const std::string& outputPath,
                                             OutputKind kind, std::optional<Output>& output, Report& report,
                                             InputContent content) {
  std::optional<InputBytes> input = openInput(inputPath, report, FileAccess::Whole, content);
  if (!input) return std::nullopt;
  output = Output::resolve(outputPath, kind, {input->identity()}, report);
  if (!output) return std::nullopt;
  return input;
}

bool Output::write(std::string_view data, Report& report) const {
  return write([data](const OutputEmit& emit) { return emit(data); }, report);
}

bool Output::write(const OutputProducer& produce, Report& report) const {
  const bool binary = kind_ == OutputKind::Binary;
  if (!file_) {
    if (binary && ::isatty(STDOUT_FILENO)) {
      report.fail(kUsageOrIo, rules::kBinaryToTerminal,
                  "refusing to write a binary map to a terminal: use -o FILE or redirect stdout", "stdout");
      return false;
    }
    bool stdoutFailed = false;
    const Status produced = produce([&](std::string_view chunk) -> Status {
      std::cout.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
      if (std::cout) return Success{};
      stdoutFailed = true;
      return Error{0, "stdout", rules::kOutputUnwritable};
    });
    std::cout.flush();
    if (stdoutFailed || !std::cout) {
      report.stdoutFailed();
      return false;
    }
    if (!produced) {
      failOn(report, "stdout", produced.error(), rules::kOutputUnwritable);
      return false;
    }
    return true;
  }
  OutputOptions options;
  options.refuseTerminal = binary;
  options.lastStep = true;  // what is left (a summary) is no work an interrupt should report
  if (auto written = file_->write(produce, options); !written) {
    failOn(report, file_->path(), written.error(), rules::kOutputUnwritable);
    return false;
  }
  return true;
}

}  // namespace gdmap::cli
