#include "map/description_input.hpp"

#include "app/exit_status.hpp"
#include "common/input_kind.hpp"
#include "common/progress.hpp"

#include <gdmap/description/description_json.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>

namespace gdmap::cli {

LoadedDescription loadDescription(const InputBytes& input, Report& report, const TypeNames* names) {
  DescriptionBuild built = [&] {
    Progress progress("building " + input.displayName(), input.text().size());
    DescriptionBuildOptions options;
    options.names = names;
    // What the parser has read is not read again until diagnostics are
    // located, if there are any: the description's pages go as it reads,
    // so memory holds the map being built, not the whole text.
    options.onProgress = [&](std::size_t read) {
      progress.advance(read);
      input.release(read);
    };
    return buildMapFromDescription(input.text(), options);
  }();
  // A map that does not read back as its description is gdmap's failure,
  // not the input's: exit status 2, as for any internal error.
  const bool internal =
      std::ranges::any_of(built.diagnostics, [](const Diagnostic& d) { return d.rule == rules::kDescriptionMismatch; });
  report.countUnlisted(built.diagnostics, built.errorCount, built.warningCount);
  // Type text in names that nothing resolves: a dump made with --names.
  const bool unresolvedNames = names == nullptr && std::ranges::any_of(built.diagnostics, [](const Diagnostic& d) {
                                 return d.rule == rules::kTypeTextSyntax;
                               });
  report.add(std::move(built.diagnostics), input.displayName(), input.text());
  if (unresolvedNames) noteNamesNeeded(input, report);
  LoadedDescription loaded;
  if (built.map) loaded.map = std::move(*built.map);
  else loaded.status = internal ? kUsageOrIo : kInvalid;
  return loaded;
}

}  // namespace gdmap::cli
