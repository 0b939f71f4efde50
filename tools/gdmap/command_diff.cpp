// gdmap diff A B [--json] [--all] [--context]: every difference between two maps or
// descriptions, in any mix, by dictionary (reader/map_diff.hpp).
#include "commands.hpp"
#include "diff_input.hpp"
#include "diff_output.hpp"
#include "exit_status.hpp"
#include "report.hpp"
#include "type_names_input.hpp"

#include <gdmap/reader/map_diff.hpp>
#include <gdmap/schema/rules.hpp>

#include <iostream>
#include <memory>

namespace gdmap::cli {
namespace {

struct DiffOptions {
  std::string a;
  std::string b;
  bool json = false;
  bool all = false;
  bool context = false;
  std::string names;
};

int diff(const DiffOptions& options, Report& report, bool& compared) {
  if (options.a == "-" && options.b == "-")
    return report.fail(kUsageOrIo, rules::kUsage, "only one of A and B can be '-'");
  // An operand that cannot be compared (unreadable, or an invalid
  // description) is an error, status 2: status 1 says "they differ".
  std::unique_ptr<TypeNames> names;
  if (!options.names.empty() && !(names = loadTypeNames(options.names, report))) return kUsageOrIo;
  int status = kSuccess;
  const std::optional<DiffOperand> a = loadDiffOperand(options.a, report, status, names.get());
  if (!a) return kUsageOrIo;
  const std::optional<DiffOperand> b = loadDiffOperand(options.b, report, status, names.get());
  if (!b) return kUsageOrIo;
  MapDiffOptions diffOptions;
  if (options.all) diffOptions.maxListed = MapDiffOptions::kUnlimited;
  diffOptions.context = options.context;
  diffOptions.names = names.get();
  const MapDiff d = diffMaps(a->bytes(), b->bytes(), diffOptions);
  compared = true;
  if (d.unreadableA) report.add(byteLevelNote(*d.unreadableA, a->bytes(), a->name()));
  if (d.unreadableB) report.add(byteLevelNote(*d.unreadableB, b->bytes(), b->name()));
  if (report.json()) {
    JsonObject& out = report.object();
    out.string("kindA", a->kind());
    out.string("kindB", b->kind());
    out.boolean("identical", d.identical);
    writeDiffJson(d, out);
  } else {
    std::string text = a->name() + " vs " + b->name() + ": ";
    if (d.identical) text += "identical (" + std::to_string(d.bytes.sizeA) + " bytes)\n";
    else text += diffSummary(d) + "\n";
    appendDiffLines(d, "  ", text);
    std::cout << text;
    std::cout.flush();
    if (!std::cout) return report.stdoutFailed();
  }
  return d.identical ? kSuccess : kInvalid;
}

}  // namespace

void addDiffCommand(CLI::App& app, int& status) {
  auto options = std::make_shared<DiffOptions>();
  auto* command = app.add_subcommand(
      "diff", "Every difference between two maps or descriptions (any mix), by dictionary; exit 0 when identical");
  command->add_option("A", options->a, "A map or a JSON description ('-' for stdin)")->required();
  command->add_option("B", options->b, "A map or a JSON description ('-' for stdin)")->required();
  command->add_flag("--json", options->json, "Write the differences as JSON on stdout");
  addNamesOption(*command, options->names);
  command->add_flag("--all", options->all, "List every difference (default: the first 100, the rest counted)");
  command->add_flag("--context", options->context,
                    "With a changed dictionary, show its whole list of types on each side");
  command->callback([options, &status] {
    Report report(options->json, Report::kDefaultMaxListed);
    if (report.json()) {
      report.object().string("a", options->a == "-" ? "stdin" : options->a);
      report.object().string("b", options->b == "-" ? "stdin" : options->b);
    }
    bool compared = false;
    const int result = diff(*options, report, compared);
    if (report.json() && !compared) report.object().null("identical");
    status = report.finish(result);
  });
}

}  // namespace gdmap::cli
