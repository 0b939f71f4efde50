#include "range_json.hpp"

#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>

namespace gdmap::cli {

void appendRangeTail(std::string_view meaning, ByteSpan bytes, std::string_view status, std::string_view rule,
                     std::string_view message, std::string& out) {
  out += ", \"meaning\": ";
  appendJsonString(meaning, out);
  out += ", \"hex\": \"";
  appendHex(bytes, out);
  out += "\", \"status\": \"";
  out += status;
  out += '"';
  if (!rule.empty()) {
    out += ", \"rule\": ";
    appendJsonString(rule, out);
  }
  if (!message.empty()) {
    out += ", \"message\": ";
    appendJsonString(message, out);
  }
  out += '}';
}

}  // namespace gdmap::cli
