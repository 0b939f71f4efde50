#include "il/il_description_output.hpp"

#include "app/exit_status.hpp"

#include <gdmap/description/il_description_json.hpp>
#include <gdmap/schema/bounds_to_api.hpp>

#include <optional>
#include <string>

namespace gdmap::cli {
namespace {

// Written in chunks of about this many bytes.
constexpr std::size_t kChunk = std::size_t{1} << 16;

}  // namespace

void useApiArray(il::Method& method) {
  if (method.verbatimMap) return;
  method.map = il::boundsToApi(method.bounds, method.codeSize.value_or(0));
  method.verbatimMap = true;
  method.bounds.clear();
  method.bounds.shrink_to_fit();
  method.lines.clear();
  method.document.clear();
  method.layout.reset();
}

int writeIlDescription(const Output& output, std::vector<il::Method>& methods, bool api, Report& report,
                       const MethodFinish& finish) {
  std::optional<Error> failed;  // the finish's error, reported once the output is given up
  const bool written = output.write(
      [&](const OutputEmit& emit) -> Status {
        std::string chunk;
        chunk.reserve(kChunk + kChunk / 4);
        il::appendIlDescriptionHead(chunk);
        for (std::size_t i = 0; i < methods.size(); ++i) {
          if (finish) {
            if (Status s = finish(methods[i]); !s) {
              failed = s.error();
              return s;
            }
          }
          if (api) useApiArray(methods[i]);
          il::appendIlDescriptionMethod(methods[i], i, chunk);
          methods[i].lines = {};  // written: a method's lines are held only while it is
          if (chunk.size() < kChunk) continue;
          if (Status s = emit(chunk); !s) return s;
          chunk.clear();
        }
        il::appendIlDescriptionTail(methods.size(), chunk);
        return emit(chunk);
      },
      report);
  return written ? kSuccess : failed ? kInvalid : kUsageOrIo;
}

}  // namespace gdmap::cli
