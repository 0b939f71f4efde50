#pragma once
// The exit statuses every gdmap command uses (docs/cli.md).
namespace gdmap::cli {

enum ExitStatus : int {
  kSuccess = 0,    // converted, valid, identical, found
  kInvalid = 1,    // invalid input, a difference, an RVA not found
  kUsageOrIo = 2,  // bad arguments, unreadable or unwritable files, internal errors
};

}  // namespace gdmap::cli
