#include "il/il_entry_json.hpp"

#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/il_map.hpp>

namespace gdmap::cli {

void appendEntryJson(std::uint32_t ilOffset, std::uint32_t nativeStart, std::uint32_t nativeEnd, std::string& out) {
  out += "{\"il\": ";
  const std::string_view special = il::specialIlName(ilOffset);
  if (special.empty()) {
    out += std::to_string(ilOffset);
  } else {
    appendJsonString(special, out);
  }
  out += ", \"nativeStart\": ";
  out += std::to_string(nativeStart);
  out += ", \"nativeEnd\": ";
  out += std::to_string(nativeEnd);
  out += '}';
}

}  // namespace gdmap::cli
