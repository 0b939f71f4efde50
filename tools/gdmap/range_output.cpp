#include "range_output.hpp"

#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>

namespace gdmap::cli {

char rangeMark(RangeStatus status) {
  switch (status) {
    case RangeStatus::Ok: return ' ';
    case RangeStatus::Unreachable: return '?';
    case RangeStatus::Warning: return '~';
    case RangeStatus::Error: return '!';
  }
  return ' ';
}

void padColumn(std::string& out, std::size_t from, std::size_t width) {
  if (out.size() - from < width) out.append(width - (out.size() - from), ' ');
}

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
