#include "il/il_entry_json.hpp"

#include <gdmap/schema/il_map.hpp>

namespace gdmap::cli {

void writeEntryJson(JsonWriter& w, std::uint32_t ilOffset, std::uint32_t nativeStart, std::uint32_t nativeEnd) {
  w.beginObject(JsonWriter::Layout::Inline);
  w.key("il");
  const std::string_view special = il::specialIlName(ilOffset);
  if (special.empty()) w.number(ilOffset);
  else w.string(special);
  w.member("nativeStart", nativeStart);
  w.member("nativeEnd", nativeEnd);
  w.endObject();
}

}  // namespace gdmap::cli
