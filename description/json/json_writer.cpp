#include <gdmap/description/json_writer.hpp>

namespace gdmap {

void JsonWriter::longKey(std::string_view name) {
  separate();
  out_ += '"';
  out_ += name;
  out_ += "\": ";
  afterKey_ = true;
}

void JsonWriter::longPlainString(std::string_view text) {
  separate();
  out_ += '"';
  out_ += text;
  out_ += '"';
}

void JsonWriter::appendControlsEscaped(std::string_view text) {
  out_ += '"';
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out_ += '\\';
      out_ += c;
    } else if (u < 0x20) {
      out_ += "\\u00";
      out_ += hexDigit(u >> 4);
      out_ += hexDigit(u & 0xF);
    } else {
      out_ += c;
    }
  }
  out_ += '"';
}

}  // namespace gdmap
