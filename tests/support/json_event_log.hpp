#pragma once
// The plain JSON parser (schema/internal/gdmap/internal/plain_json_sax.hpp) against
// nlohmann's: both SAX event streams recorded as text and compared. Shared
// by the unit tests and the fuzz target fuzz_plain_json.
#include <gdmap/internal/plain_json_sax.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace gdmap::testing {

// Every SAX event as text: "{", "k:name", "s:value", "u:17", "i:-3",
// "f:<bits>:1.5e3", "b:1", "n", "}"...; a double by its bits, so that two
// parsers agree only on the very same value.
struct JsonEventLog {
  using json = nlohmann::json;
  std::string log;
  bool event(std::string_view e) {
    log += e;
    log += '\n';
    return true;
  }
  bool null() { return event("n"); }
  bool boolean(bool v) { return event(v ? "b:1" : "b:0"); }
  bool number_integer(json::number_integer_t v) { return event("i:" + std::to_string(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return event("u:" + std::to_string(v)); }
  bool number_float(json::number_float_t v, const json::string_t& text) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return event("f:" + std::to_string(bits) + ":" + text);
  }
  bool string(json::string_t& v) { return event("s:" + v); }
  bool binary(json::binary_t&) { return event("binary"); }
  bool start_object(std::size_t n) { return event("{" + std::to_string(n)); }
  bool key(json::string_t& k) { return event("k:" + k); }
  bool end_object() { return event("}"); }
  bool start_array(std::size_t n) { return event("[" + std::to_string(n)); }
  bool end_array() { return event("]"); }
  bool parse_error(std::size_t, const std::string&, const json::exception&) { return false; }
};

// Empty when the two parsers agree on `text`: a plain text both accept
// with the same events, or both reject. Otherwise what differs. A text
// that is not plain is nlohmann's alone, and agrees by definition.
inline std::string plainParserDisagreement(std::string_view text) {
  if (!internal::isPlainJson(text)) return {};
  JsonEventLog reference;
  const bool referenceAccepts =
      nlohmann::json::sax_parse(text, &reference, nlohmann::json::input_format_t::json, true, true);
  JsonEventLog plain;
  const char* readTo = text.data();
  const bool plainAccepts = internal::PlainJsonParser<JsonEventLog>(text, plain, readTo).parse();
  if (readTo < text.data() || readTo > text.data() + text.size()) return "readTo left the text";
  if (plainAccepts != referenceAccepts)
    return std::string("nlohmann ") + (referenceAccepts ? "accepts" : "rejects") + ", the plain parser " +
           (plainAccepts ? "accepts" : "rejects");
  if (plainAccepts && plain.log != reference.log)
    return "events differ:\n--- nlohmann\n" + reference.log + "--- plain\n" + plain.log;
  return {};
}

}  // namespace gdmap::testing
