#include "map/diff_input.hpp"

#include "app/exit_status.hpp"
#include "common/input_kind.hpp"
#include "map/description_input.hpp"

namespace gdmap::cli {

std::optional<DiffOperand> loadDiffOperand(const std::string& path, Report& report, int& status,
                                           const TypeNames* names) {
  DiffOperand operand;
  operand.input = openInput(path, report, FileAccess::Whole, InputContent::Either);
  if (!operand.input) {
    status = kUsageOrIo;
    return std::nullopt;
  }
  if (sniffInputKind(operand.input->bytes()) != InputKind::Json) return operand;
  operand.description = true;
  LoadedDescription loaded = loadDescription(*operand.input, report, names);
  if (!loaded.ok()) {
    status = loaded.status;
    return std::nullopt;
  }
  operand.built = std::move(loaded.map);
  return operand;
}

}  // namespace gdmap::cli
