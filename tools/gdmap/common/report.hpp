#pragma once
// What one run of a command says, in one of two forms:
//   text:   each diagnostic on stderr as it comes (formatDiagnostic), data
//           and verdicts as the command prints them;
//   --json: one object on stdout, the command's own fields first, then
//           "errors" and "warnings" (every one counted, listed or not;
//           unless the command wrote them) and "diagnostics":
//           [{severity, rule, message, ...location}] (docs/json.md).
// Either way at most `maxListed` diagnostics are shown; the rest are
// counted and a final too-many-diagnostics note says how many, so a batch
// run over a million bad lines costs a bounded report. (checkMap() and
// parseDescription() cap their own lists; `sig` over stdin needs this one.)
#include "app/exit_status.hpp"
#include "common/json_object.hpp"

#include <gdmap/schema/diagnostic.hpp>

#include <cstddef>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::cli {

// The note a capped list ends with, worded as parseDescription() words its
// own (docs/errors.md, too-many-diagnostics).
Diagnostic notListedNote(std::size_t notListed, std::size_t listed, std::size_t errors, std::size_t warnings);

class Report {
 public:
  static constexpr std::size_t kDefaultMaxListed = 100;
  static constexpr std::size_t kUnlimited = std::numeric_limits<std::size_t>::max();

  explicit Report(bool json, std::size_t maxListed = kUnlimited);

  bool json() const { return json_; }
  // The command's own fields (JSON mode; ignored text is never written).
  JsonObject& object() { return object_; }
  // JSON mode: the field `key` names the input at `path` ("stdin" for '-').
  void nameInput(const std::string& path, const char* key = "file");

  void add(Diagnostic d);
  // Each diagnostic without a file is given `file`.
  void add(std::vector<Diagnostic> diagnostics, const std::string& file);
  // The same for diagnostics about `text`: in text mode an invalid-json one
  // is followed by the line it points at, with a caret (source_line.hpp).
  void add(std::vector<Diagnostic> diagnostics, const std::string& file, std::string_view text);
  // An error about no place in an input (usage, I/O); returns `status` so a
  // command can `return report.fail(...)`.
  int fail(int status, const char* rule, std::string message, std::string file = {});

  // A list its producer capped (parseDescription, checkMap), about to be
  // added: `errors` and `warnings` are the producer's totals, and what the
  // list does not hold is counted here too.
  void countUnlisted(const std::vector<Diagnostic>& listed, std::size_t errors, std::size_t warnings);

  std::size_t errors() const { return errors_; }

  // stdout could not be written (output-unwritable): said once, on stderr
  // (the JSON object cannot be written either); returns kUsageOrIo.
  int stdoutFailed();

  // Prints what is pending (the JSON object, or the not-listed note) and
  // returns `status`, or kUsageOrIo when stdout could not be written.
  int finish(int status);

 private:
  bool json_;
  std::size_t maxListed_;
  JsonObject object_;
  std::vector<Diagnostic> kept_;  // JSON mode: the listed ones
  std::size_t listed_ = 0;
  std::size_t notListed_ = 0;
  std::string notListedFile_;  // the input the last of them was about
  std::size_t errors_ = 0;
  std::size_t warnings_ = 0;
  bool stdoutFailed_ = false;
};

// Runs `command` (a command's body); in JSON mode each of the verdict's
// fields `keys` it did not write (the verdict not reached, or a field not
// meaningful for the outcome: no firstOffset when identical) is null
// rather than left out (docs/json.md).
template <class Options>
int runToVerdict(int (*command)(const Options&, Report&), const Options& options, Report& report,
                 std::initializer_list<std::string_view> keys) {
  const int status = command(options, report);
  if (report.json()) report.object().nullUnwritten(keys);
  return status;
}

// Runs `command` (the body of a command that writes an output); in JSON
// mode the field "written" says whether it did: for a status up to
// `writtenUpTo` (kInvalid for a command that writes invalid input all the
// same). Its fields `keys` not written are null, as runToVerdict's.
template <class Options>
int runToOutput(int (*command)(const Options&, Report&), const Options& options, Report& report,
                std::initializer_list<std::string_view> keys, int writtenUpTo = kSuccess) {
  const int status = command(options, report);
  if (report.json()) {
    report.object().nullUnwritten(keys);
    report.object().boolean("written", status <= writtenUpTo);
  }
  return status;
}

}  // namespace gdmap::cli
