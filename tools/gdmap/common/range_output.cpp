#include "common/range_output.hpp"

#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/hex.hpp>

#include <algorithm>
#include <iostream>

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

void appendLineStart(RangeStatus status, std::size_t offset, std::string& out) {
  out += rangeMark(status);
  out += ' ';
  for (int shift = 28; shift >= 0; shift -= 4) out += hexDigit(static_cast<unsigned>(offset >> shift));
  out += "  ";
}

void appendHexBytes(ByteSpan bytes, std::string& out) {
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i != 0) out += ' ';
    out += hexDigit(bytes[i] >> 4);
    out += hexDigit(bytes[i]);
  }
}

void DumpColumns::fit(std::size_t bytes, std::size_t pathSize) {
  longest = std::max(longest, std::min(bytes, kBytesPerLine));
  path = std::max(path, std::min<std::size_t>(pathSize, 40));
}

std::string DumpColumns::header(std::string_view lead) const {
  std::string text(lead);
  text += "bytes";
  padColumn(text, lead.size(), bytesWidth() + 2);
  text += "field";
  padColumn(text, lead.size() + bytesWidth() + 2, path + 2);
  text += "meaning\n";
  return text;
}

void DumpColumns::appendLineEnd(ByteSpan bytes, bool first, std::size_t lineStart, std::string_view fieldPath,
                                std::string_view meaning, std::string_view rule, std::string& out) const {
  const std::size_t bytesStart = out.size();
  appendHexBytes(bytes, out);
  if (first) {
    padColumn(out, bytesStart, bytesWidth() + 2);
    const std::size_t pathStart = out.size();
    out += fieldPath;
    padColumn(out, pathStart, path + 2);
    out += meaning;
    if (!rule.empty()) {
      out += "  [";
      out += rule;
      out += ']';
    }
  }
  while (out.size() > lineStart && out.back() == ' ') out.pop_back();
  out += '\n';
}

void writeIfFull(std::string& text) {
  if (text.size() < (std::size_t{1} << 16)) return;
  std::cout.write(text.data(), static_cast<std::streamsize>(text.size()));
  text.clear();
}

bool writeRest(std::string& text) {
  std::cout.write(text.data(), static_cast<std::streamsize>(text.size()));
  text.clear();
  std::cout.flush();
  return static_cast<bool>(std::cout);
}

void padColumn(std::string& out, std::size_t from, std::size_t width) {
  if (out.size() - from < width) out.append(width - (out.size() - from), ' ');
}

void writeRangeTail(JsonWriter& w, std::string_view meaning, ByteSpan bytes, std::string_view status,
                    std::string_view rule, std::string_view message) {
  w.key("meaning");
  w.string(meaning);
  w.key("hex");
  w.hexBytes(bytes);
  w.key("status");
  w.plainString(status);
  if (!rule.empty()) {
    w.key("rule");
    w.string(rule);
  }
  if (!message.empty()) {
    w.key("message");
    w.string(message);
  }
}

}  // namespace gdmap::cli
