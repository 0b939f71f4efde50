#include "common/verdict.hpp"

#include "app/exit_status.hpp"
#include "common/json_object.hpp"

#include <gdmap/schema/rules.hpp>

namespace gdmap::cli {

std::optional<int> bothFromStdin(const std::string& description, const std::string& input, const std::string& inputName,
                                 Report& report) {
  if (description != "-" || input != "-") return std::nullopt;
  return report.fail(kUsageOrIo, rules::kUsage, "only one of DESCRIPTION and " + inputName + " can be '-'");
}

Diagnostic differsAt(const std::string& field, std::size_t offset, const std::string& file, std::string message) {
  Diagnostic differs;
  differs.rule = rules::kMapDiffers;
  differs.path = field;
  differs.offset = offset;
  differs.file = file;
  differs.message = std::move(message);
  return differs;
}

void writeVerdictJson(const Verdict& verdict, Report& report) {
  JsonObject& out = report.object();
  out.boolean("identical", verdict.identical);
  out.number("expectedSize", verdict.expectedSize);
  out.number("actualSize", verdict.actualSize);
  if (verdict.identical) return;
  out.number("firstOffset", verdict.firstOffset);
  out.string("field", verdict.field);
}

}  // namespace gdmap::cli
