// gdmap_json_floor: the floors the CLI's description paths are measured
// against (docs/performance.md). It reads a JSON file the way `gdmap build`
// does (mapped) and does nothing with its values but count them:
//   gdmap_json_floor sax FILE   nlohmann's SAX parser, every event a no-op
//   gdmap_json_floor dom FILE   nlohmann::json::parse into a DOM
//   gdmap_json_floor plain FILE gdmap's plain JSON parser (what `build` reads
//                               a plain description with), every event a no-op
// Exit 0 and the value count on stdout, 1 when the JSON is invalid.
#include <gdmap/internal/plain_json_sax.hpp>
#include <gdmap/io/mapped_file.hpp>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

using json = nlohmann::json;

// Counts values; everything else is as cheap as the interface allows.
struct CountingSax {
  std::size_t values = 0;
  bool null() { return ++values, true; }
  bool boolean(bool) { return ++values, true; }
  bool number_integer(json::number_integer_t) { return ++values, true; }
  bool number_unsigned(json::number_unsigned_t) { return ++values, true; }
  bool number_float(json::number_float_t, const json::string_t&) { return ++values, true; }
  bool string(json::string_t&) { return ++values, true; }
  bool binary(json::binary_t&) { return ++values, true; }
  bool start_object(std::size_t) { return ++values, true; }
  bool key(json::string_t&) { return true; }
  bool end_object() { return true; }
  bool start_array(std::size_t) { return ++values, true; }
  bool end_array() { return true; }
  bool parse_error(std::size_t, const std::string&, const json::exception&) { return false; }
};

std::size_t countDom(const json& j) {
  std::size_t n = 1;
  if (j.is_structured())
    for (const json& child : j) n += countDom(child);
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 ||
      (std::strcmp(argv[1], "sax") != 0 && std::strcmp(argv[1], "dom") != 0 && std::strcmp(argv[1], "plain") != 0)) {
    std::fprintf(stderr, "usage: gdmap_json_floor sax|dom|plain FILE\n");
    return 2;
  }
  auto file = gdmap::MappedFile::open(argv[2]);
  if (!file) {
    std::fprintf(stderr, "%s: %s\n", argv[2], file.error().message.c_str());
    return 2;
  }
  const auto bytes = file->bytes();
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  std::size_t values = 0;
  if (argv[1][0] == 'p') {
    // As `build` does: the plain-text check, then the parse.
    if (!gdmap::internal::isPlainJson(text)) return 1;
    CountingSax sax;
    const char* readTo = text.data();
    if (!gdmap::internal::PlainJsonParser<CountingSax>(text, sax, readTo).parse()) return 1;
    values = sax.values;
  } else if (argv[1][0] == 's') {
    CountingSax sax;
    if (!json::sax_parse(text, &sax)) return 1;
    values = sax.values;
  } else {
    const json dom = json::parse(text, nullptr, false);
    if (dom.is_discarded()) return 1;
    values = countDom(dom);
  }
  std::printf("%zu values\n", values);
  return 0;
}
