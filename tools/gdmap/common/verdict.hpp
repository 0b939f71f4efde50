#pragma once
// What `gdmap verify` and `gdmap il verify` share: a description and the
// bytes it should build, of which only one can come from stdin, and the
// map-differs error where the bytes first differ.
#include "common/report.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace gdmap::cli {

// The usage error (exit 2) when DESCRIPTION and `inputName` (MAP, BLOB)
// are both '-'; nothing otherwise.
std::optional<int> bothFromStdin(const std::string& description, const std::string& input, const std::string& inputName,
                                 Report& report);

// The verdict's fields of --json, alike for both (docs/json.md): identical,
// the two sizes and, for bytes that differ, the first differing offset and
// its field.
struct Verdict {
  bool identical = true;
  std::size_t expectedSize = 0;
  std::size_t actualSize = 0;
  std::size_t firstOffset = 0;
  std::string field;
};
void writeVerdictJson(const Verdict& verdict, Report& report);

// map-differs at `offset` of `file`, in the field `field`.
Diagnostic differsAt(const std::string& field, std::size_t offset, const std::string& file, std::string message);

}  // namespace gdmap::cli
