#pragma once
// The file an output is written to before it takes its target's place
// (OutputFile::replace). Nothing is ever left behind:
//   - where the file system allows, it has no name until the output is
//     whole (O_TMPFILE): a SIGKILL, the OOM killer or a power cut leaves
//     no file at all; elsewhere it is `.gdmap-XXXXXX` beside the target;
//   - while it exists, SIGINT, SIGTERM, SIGHUP and SIGQUIT (where they
//     would end the process) remove it and then end the process as they
//     would have (a shell sees 130, 143, ...), at once, leaving the target
//     as it was;
//   - commit() puts it in place by an atomic rename, with those signals
//     held: one already pending is obeyed before (the target is left as it
//     was); one that comes during the rename finds the output in place and
//     is dropped, and so is any later one when the write is the command's
//     last step (OutputOptions::lastStep). So an interrupted command never
//     changed its target, and a command whose target changed was not
//     interrupted.
// One at a time in a process (the handler knows one name).
#include <gdmap/schema/expected.hpp>

#include <string>

namespace gdmap {

class OutputTemporary {
 public:
  // A new temporary in `directory`; `name` (the user's path) names the
  // output in errors (output-unwritable).
  static Expected<OutputTemporary> create(const std::string& directory, const std::string& name);

  OutputTemporary(OutputTemporary&& other) noexcept;
  OutputTemporary& operator=(OutputTemporary&&) = delete;
  OutputTemporary(const OutputTemporary&) = delete;
  ~OutputTemporary();  // removed (or never named) unless committed

  int fd() const { return fd_; }
  // Closes it and renames it onto `target`. `lastStep`: the output is the
  // command's last work, so the interrupts stay held until the process ends
  // (one after this finds the command done: it neither stops what is left,
  // a summary, nor says "interrupted" of a target that changed).
  Status commit(const std::string& target, bool lastStep);

 private:
  OutputTemporary(int fd, std::string directory, std::string path, std::string name);
  void discard();

  int fd_ = -1;
  std::string directory_;
  std::string path_;  // the named temporary's path; empty while it has no name
  std::string name_;
};

}  // namespace gdmap
