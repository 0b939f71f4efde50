#pragma once
// An operand of `gdmap diff`: a binary map as it is, or a JSON description
// (sniffInputKind) built in memory into the map it describes.
#include "common/file_io.hpp"
#include "common/report.hpp"

#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/type_names.hpp>

#include <optional>
#include <string>

namespace gdmap::cli {

struct DiffOperand {
  std::optional<InputBytes> input;
  Bytes built;               // the description's map
  bool description = false;  // else a map, read as it is

  ByteSpan bytes() const { return description ? ByteSpan(built) : input->bytes(); }
  const std::string& name() const { return input->displayName(); }
  const char* kind() const { return description ? "description" : "map"; }
};

// Opens and, for a description, builds it; its diagnostics go to `report`.
// nullopt with `status` set when the operand cannot be compared: an
// unreadable file (kUsageOrIo), an invalid description (kInvalid).
// With `names`, a description's type text may name types (--names).
std::optional<DiffOperand> loadDiffOperand(const std::string& path, Report& report, int& status,
                                           const TypeNames* names = nullptr);

}  // namespace gdmap::cli
