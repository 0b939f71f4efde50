#pragma once
// Inputs and outputs of the CLI. '-' means stdin/stdout. A file input is
// memory-mapped (a pipe or device is read, up to a cap); a file output goes through
// gdmap::OutputFile (io/): never half-written, never over its own
// input, symlinks written through, FIFOs and devices written in place.
#include "common/report.hpp"

#include <gdmap/io/file_identity.hpp>
#include <gdmap/io/mapped_file.hpp>
#include <gdmap/io/output_file.hpp>
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::cli {

// What an input is expected to hold, so that reading a pipe can stop at
// the first byte that rules it out.
enum class InputContent {
  Binary,  // read to the end
  Json,    // a description: reading stops at its first syntax error
  Either,  // Json when its first bytes look like JSON (diff), else Binary
  Image,   // a PE image or an ELF core dump: reading stops after the first bytes when they start neither
};

// The most bytes an input that is read rather than mapped (a pipe, a
// device) may hold: GDMAP_MAX_INPUT_SIZE (64M, 2G), 1 GiB when unset;
// a usage error when it is not a size.
Expected<std::size_t> maxStreamInput();

// A whole input's bytes: memory-mapped for a regular file (stdin too, when
// redirected from one), read into memory for a pipe or a device, at most
// maxStreamInput() bytes.
class InputBytes {
 public:
  // Errors (rules input-unreadable, input-too-large at the cap's offset,
  // usage for a bad GDMAP_MAX_INPUT_SIZE) name the path.
  static Expected<InputBytes> open(const std::string& path, FileAccess access = FileAccess::Whole,
                                   InputContent content = InputContent::Binary);
  ByteSpan bytes() const;
  std::string_view text() const;
  // The first `bytes` bytes have been read (MappedFile::release); a no-op
  // for stdin, which is held in memory.
  void release(std::size_t bytes) const {
    if (mapped_) mapped_->release(bytes);
  }
  // "stdin" for '-', else the path: what diagnostics call the input.
  const std::string& displayName() const { return name_; }
  // Which file it is, for refusing an output that would overwrite it.
  const std::optional<FileIdentity>& identity() const { return identity_; }

 private:
  std::string name_;
  std::optional<MappedFile> mapped_;
  Bytes buffer_;
  std::optional<FileIdentity> identity_;
};

// InputBytes::open's failure for `path` ('-': stdin) added to `report`.
void reportInputError(const std::string& path, const Error& e, Report& report);

// InputBytes::open, with the failure added to `report`.
std::optional<InputBytes> openInput(const std::string& path, Report& report, FileAccess access = FileAccess::Whole,
                                    InputContent content = InputContent::Binary);

enum class OutputKind { Text, Binary };

// Where a command writes its data, looked at before the work is done so
// that `-o INPUT` fails before anything is read twice or written.
class Output {
 public:
  // Errors go to `report` (usage: '-' with --json; output-is-input;
  // output-unwritable).
  static std::optional<Output> resolve(const std::string& path, OutputKind kind,
                                       const std::vector<std::optional<FileIdentity>>& inputs, Report& report);
  // Binary data is refused on a terminal (binary-to-terminal).
  bool write(std::string_view data, Report& report) const;
  // The same for data made while it is written (OutputFile's producer):
  // an output of any size without a buffer of that size.
  bool write(const OutputProducer& produce, Report& report) const;

 private:
  OutputKind kind_ = OutputKind::Text;
  std::optional<OutputFile> file_;  // empty: stdout
};

// The input of a command that writes -o `outputPath`, and that output,
// resolved before any work so that `-o INPUT` fails before anything is read
// twice or written: empty (the failure reported) when either cannot be had.
std::optional<InputBytes> openInputAndOutput(const std::string& inputPath, const std::string& outputPath,
                                             OutputKind kind, std::optional<Output>& output, Report& report,
                                             InputContent content = InputContent::Binary);

}  // namespace gdmap::cli
