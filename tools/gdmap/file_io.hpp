#pragma once
// Reading inputs and writing outputs for the CLI: '-' means stdin/stdout;
// files are written to a temporary beside the target and renamed into place,
// so a failed or interrupted run never leaves a half-written output.
#include <gdmap/io/mapped_file.hpp>
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace gdmap::cli {

// A whole input's bytes: memory-mapped for a file, read into memory for '-'.
class InputBytes {
 public:
  static Expected<InputBytes> open(const std::string& path);
  ByteSpan bytes() const;
  std::string_view text() const;
  // "stdin" for '-', else the path: what diagnostics call the input.
  const std::string& displayName() const { return name_; }

 private:
  std::string name_;
  std::optional<MappedFile> mapped_;
  Bytes buffer_;
};

enum class OutputKind { Text, Binary };

// Writes `data` to `path` ('-' is stdout). Binary data is refused when stdout
// is a terminal.
Status writeOutput(const std::string& path, std::string_view data, OutputKind kind);

}  // namespace gdmap::cli
