#include "file_io.hpp"

#include "exit_status.hpp"

#include <gdmap/schema/rules.hpp>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <iterator>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gdmap::cli {
namespace {

Error readError(const std::string& name, int error) {
  return Error{0, name + ": cannot read: " + std::strerror(error), rules::kInputUnreadable};
}

// A pipe, a FIFO or a device (/dev/stdin, `<(...)`): cannot be mapped, so
// read to its end.
Expected<Bytes> readStream(const std::string& path) {
  int fd = -1;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return Error{0, path + ": cannot open: " + std::strerror(errno), rules::kInputUnreadable};
  Bytes bytes;
  std::uint8_t chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      return readError(path, error);
    }
    if (n == 0) break;
    bytes.insert(bytes.end(), chunk, chunk + n);
  }
  ::close(fd);
  return bytes;
}

// An I/O error as a diagnostic about `file` (an input's or an output's
// name): io/ words its message "FILE: cannot open: ...", and the diagnostic
// already starts with the file.
int failOn(Report& report, const std::string& file, const Error& e, const char* rule) {
  std::string message = e.message;
  if (message.size() > file.size() + 2 && message.compare(0, file.size(), file) == 0 &&
      message.compare(file.size(), 2, ": ") == 0)
    message.erase(0, file.size() + 2);
  return report.fail(kUsageOrIo, e.rule.empty() ? rule : e.rule.c_str(), std::move(message), file);
}

}  // namespace

Expected<InputBytes> InputBytes::open(const std::string& path, FileAccess access) {
  InputBytes input;
  if (path == "-") {
    input.name_ = "stdin";
    input.identity_ = identityOf(STDIN_FILENO);
    std::cin.sync_with_stdio(false);
    input.buffer_.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    if (std::cin.bad()) return readError("stdin", EIO);
    return input;
  }
  input.name_ = path;
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode)) {
    auto read = readStream(path);
    if (!read) return read.error();
    input.buffer_ = std::move(read).value();
    return input;
  }
  auto mapped = MappedFile::open(path, access);
  if (!mapped) return mapped.error();
  input.identity_ = mapped->identity();
  input.mapped_.emplace(std::move(mapped).value());
  return input;
}

ByteSpan InputBytes::bytes() const { return mapped_ ? mapped_->bytes() : ByteSpan(buffer_); }

std::string_view InputBytes::text() const {
  const ByteSpan b = bytes();
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

std::optional<InputBytes> openInput(const std::string& path, Report& report, FileAccess access) {
  auto input = InputBytes::open(path, access);
  if (!input) {
    failOn(report, path == "-" ? "stdin" : path, input.error(), rules::kInputUnreadable);
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
                                             OutputKind kind, std::optional<Output>& output, Report& report) {
  std::optional<InputBytes> input = openInput(inputPath, report);
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
  if (auto written = file_->write(produce, options); !written) {
    failOn(report, file_->path(), written.error(), rules::kOutputUnwritable);
    return false;
  }
  return true;
}

}  // namespace gdmap::cli
