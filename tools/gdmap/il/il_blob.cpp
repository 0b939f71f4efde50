#include "il/il_blob.hpp"

#include <gdmap/reader/bounds_decoder.hpp>

namespace gdmap::cli {

std::optional<DecodedBlob> decodeBlob(ByteSpan blob, il::BoundsForm form, const std::string& file, Report& report) {
  DecodedBlob decoded;
  decoded.form = form;
  const auto fail = [&](const Error& problem) {
    Diagnostic d = binaryDiagnostic(problem);
    d.file = file;
    report.add(std::move(d));
    return std::nullopt;
  };
  if (form == il::BoundsForm::Api) {
    const Expected<il::ApiMapView> api = il::openApiMap(blob);
    if (!api) return fail(api.error());
    decoded.entries = api->toVector();
    return decoded;
  }
  const Expected<il::BoundsView> bounds = il::openBounds(blob, form);
  if (!bounds) return fail(bounds.error());
  decoded.bounds = bounds->toVector();
  return decoded;
}

std::string contentCount(il::BoundsForm form, std::size_t n) {
  if (form == il::BoundsForm::Api) return std::to_string(n) + (n == 1 ? " entry" : " entries");
  return std::to_string(n) + (n == 1 ? " bound" : " bounds");
}

std::string_view asText(ByteSpan bytes) { return {reinterpret_cast<const char*>(bytes.data()), bytes.size()}; }

}  // namespace gdmap::cli
