#include <gdmap/schema/type_names.hpp>

namespace gdmap {
namespace {

bool isBareChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '`' || c == '$' || c == '@' || c == '?';
}

bool startsBare(char c) { return isBareChar(c) && !(c >= '0' && c <= '9') && c != '.'; }

// One part from `pos`: bare characters and 'quoted' runs; returns its end.
std::size_t partEnd(std::string_view text, std::size_t pos) {
  std::size_t p = pos;
  while (p < text.size()) {
    if (text[p] == '\'') {
      const std::size_t close = text.find('\'', p + 1);
      if (close == std::string_view::npos || close == p + 1) return p;
      p = close + 1;
    } else if (isBareChar(text[p])) {
      ++p;
    } else {
      break;
    }
  }
  return p;
}

}  // namespace

std::size_t typeNameEnd(std::string_view text, std::size_t pos) {
  std::size_t p = pos;
  if (p < text.size() && text[p] == '[') {
    const std::size_t close = text.find(']', p + 1);
    if (close == std::string_view::npos || close == p + 1) return pos;
    p = close + 1;
  }
  if (p >= text.size() || !(startsBare(text[p]) || text[p] == '\'')) return pos;
  for (;;) {
    const std::size_t end = partEnd(text, p);
    if (end == p) return pos;
    p = end;
    if (p + 1 < text.size() && text[p] == '/' && (startsBare(text[p + 1]) || text[p + 1] == '\'')) {
      ++p;
      continue;
    }
    return p;
  }
}

void appendNamePart(std::string_view part, std::string& out) {
  bool bare = !part.empty() && startsBare(part.front()) && part.find('\'') == std::string_view::npos;
  for (const char c : part) bare = bare && isBareChar(c);
  if (bare) {
    out += part;
    return;
  }
  out += '\'';
  out += part;
  out += '\'';
}

std::string unquotedTypeName(std::string_view name) {
  std::string key;
  key.reserve(name.size());
  bool inAssembly = !name.empty() && name.front() == '[';
  for (const char c : name) {
    if (inAssembly) {
      key += c;
      if (c == ']') inAssembly = false;
      continue;
    }
    if (c != '\'') key += c;
  }
  return key;
}

}  // namespace gdmap
