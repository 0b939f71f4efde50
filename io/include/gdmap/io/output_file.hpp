#pragma once
// Writing a command's output to a path without destroying anything:
//   - a regular file (or a path that does not exist yet) is written to a
//     temporary file beside it, flushed, and renamed onto it, so the path
//     holds either its old content or the whole new content, never a part;
//     the temporary is removed on every failure; it has no name until the
//     output is whole where the file system allows (a SIGKILL leaves
//     nothing), and SIGINT, SIGTERM, SIGHUP and SIGQUIT end the command at
//     once, the target untouched and the temporary removed (an interrupted
//     command never changed its target);
//   - a symlink is followed to its final target, which is written as above
//     (the temporary sits beside the target, the link stays a link);
//   - a FIFO, a terminal or a device is opened and written in place: the
//     node is never replaced by a regular file;
//   - the input the output is made from is refused (same device and inode),
//     whatever path names it.
// Every message names the path as the user gave it, never the temporary.
// POSIX only, like MappedFile; not part of the portable core.
#include <gdmap/io/file_identity.hpp>
#include <gdmap/schema/expected.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap {

// Hands the output over piece by piece: a producer calls `emit` for each
// chunk, in order, and returns what it returns if that fails (or its own
// error). Large outputs then need no buffer of their whole size.
using OutputEmit = std::function<Status(std::string_view chunk)>;
using OutputProducer = std::function<Status(const OutputEmit& emit)>;

struct OutputOptions {
  // Refuse a terminal (rule binary-to-terminal): for binary data.
  bool refuseTerminal = false;
  // The output is the command's last work (a command line tool's -o): once
  // it is in place, SIGINT, SIGTERM, SIGHUP and SIGQUIT are held until the
  // process ends, so that a command whose target changed is never reported
  // as interrupted (exit 130) by one that came just after.
  bool lastStep = false;
};

class OutputFile {
 public:
  // Follows symlinks and looks at what the path names, before any work is
  // done: errors here (rules output-is-input, output-unwritable) mean
  // nothing was touched. `inputs` are the identities of the files the
  // output is computed from.
  static Expected<OutputFile> resolve(const std::string& path, const std::vector<FileIdentity>& inputs = {});

  // Writes the whole of `data` (rules output-unwritable, binary-to-terminal,
  // output-is-input when the target changed since resolve()).
  Status write(std::string_view data, const OutputOptions& options = {}) const;
  // The same for data made while it is written. A producer that fails
  // leaves a replaced file as it was (the temporary is removed); a FIFO or
  // device has received what was emitted before the failure.
  Status write(const OutputProducer& produce, const OutputOptions& options = {}) const;

  const std::string& path() const { return path_; }      // as the user gave it
  const std::string& target() const { return target_; }  // symlinks followed

 private:
  enum class Kind { Missing, Regular, Special };
  Status replace(const OutputProducer& produce, bool lastStep) const;
  Status writeInPlace(const OutputProducer& produce, const OutputOptions& options) const;
  std::string name() const;  // the user's path, and the target when they differ

  std::string path_;
  std::string target_;
  Kind kind_ = Kind::Missing;
  std::vector<FileIdentity> inputs_;
};

}  // namespace gdmap
