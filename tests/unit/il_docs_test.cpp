// Keeps the IL-to-native docs honest. docs/il-map.md shows the worked
// example (and the funclet example) as hex dumps of every form; each dump is
// marked with the example file, method and form it shows, and must be what
// the writer produces for that method today. The varint table, the embedded
// example JSON and the JSON Schema are held to the code the same way.
#include <gdmap/description/il_description_json.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/il_map.hpp>
#include <gdmap/writer/bounds_encoder.hpp>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

using gdmap::Bytes;
using gdmap::il::BoundsForm;

namespace {

std::string readSource(const std::string& relative) {
  std::ifstream in(std::string(GDMAP_SOURCE_DIR) + "/" + relative, std::ios::binary);
  REQUIRE_MESSAGE(in, "cannot read " << relative);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool isHexDigit(char c) { return gdmap::hexDigitValue(c) >= 0; }

std::optional<std::uint32_t> parseNumber(std::string_view text) {
  if (auto hex = gdmap::parsePrefixedHex32(text)) return hex;
  if (text.empty() || text.size() > 10) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  if (value > 0xFFFFFFFFu) return std::nullopt;
  return static_cast<std::uint32_t>(value);
}

// A fenced block's lines, the block starting on the line after `marker`.
std::vector<std::string> fencedBlockAfter(const std::vector<std::string>& doc, std::size_t marker) {
  REQUIRE_MESSAGE(marker + 1 < doc.size(), "docs/il-map.md:" << marker + 1 << ": a marker at the end of the file");
  REQUIRE_MESSAGE(startsWith(doc[marker + 1], "```"),
                  "docs/il-map.md:" << marker + 2 << ": a marker must be followed by a fenced block");
  std::vector<std::string> block;
  for (std::size_t i = marker + 2; i < doc.size(); ++i) {
    if (startsWith(doc[i], "```")) return block;
    block.push_back(doc[i]);
  }
  FAIL("docs/il-map.md:" << marker + 2 << ": the fenced block is not closed");
  return block;
}

// The bytes of a dump: every line that starts with "0x" is an offset (which
// must be the count of bytes before it), then the bytes as two-digit hex
// pairs separated by single spaces, up to two spaces or the end of the line.
// Other lines (the column header, a field's continuation) hold no bytes.
Bytes dumpBytes(const std::vector<std::string>& block, std::size_t firstLine) {
  Bytes bytes;
  for (std::size_t k = 0; k < block.size(); ++k) {
    const std::string& line = block[k];
    if (!startsWith(line, "0x")) continue;
    CAPTURE(firstLine + k);
    CAPTURE(line);
    std::size_t p = line.find(' ');
    REQUIRE(p != std::string::npos);
    const auto offset = gdmap::parsePrefixedHex32(line.substr(0, p));
    REQUIRE(offset);
    CHECK(*offset == bytes.size());
    while (p < line.size() && line[p] == ' ') ++p;
    for (;;) {
      REQUIRE(p + 2 <= line.size());
      REQUIRE((isHexDigit(line[p]) && isHexDigit(line[p + 1])));
      bytes.push_back(
          static_cast<std::uint8_t>(gdmap::hexDigitValue(line[p]) << 4 | gdmap::hexDigitValue(line[p + 1])));
      p += 2;
      if (p == line.size() || line[p] != ' ' || p + 1 == line.size() || line[p + 1] == ' ') break;
      ++p;
    }
  }
  return bytes;
}

struct Dump {
  std::size_t line = 0;  // 1-based, the marker's
  std::string file;
  std::uint32_t token = 0;
  BoundsForm form = BoundsForm::Api;
  Bytes bytes;
};

// Every "<!-- il-dump: FILE TOKEN FORM -->" and the bytes of the block after it.
std::vector<Dump> dumpsIn(const std::vector<std::string>& doc) {
  constexpr std::string_view kMarker = "<!-- il-dump: ";
  std::vector<Dump> dumps;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    if (!startsWith(doc[i], kMarker)) continue;
    CAPTURE(i + 1);
    std::istringstream fields(doc[i].substr(kMarker.size()));
    std::string file, token, form, close;
    fields >> file >> token >> form >> close;
    REQUIRE(close == "-->");
    Dump d;
    d.line = i + 1;
    d.file = file;
    const auto t = gdmap::parsePrefixedHex32(token);
    REQUIRE(t);
    d.token = *t;
    const auto f = gdmap::il::parseFormName(form);
    REQUIRE(f);
    d.form = *f;
    d.bytes = dumpBytes(fencedBlockAfter(doc, i), i + 3);
    dumps.push_back(std::move(d));
  }
  return dumps;
}

const gdmap::il::Method* findMethod(const std::vector<gdmap::il::Method>& methods, std::uint32_t token) {
  for (const auto& m : methods)
    if (m.token == token) return &m;
  return nullptr;
}

std::vector<gdmap::il::Method> loadExample(const std::string& relative) {
  const gdmap::il::IlDescriptionParse parsed = gdmap::il::parseIlDescription(readSource(relative));
  for (const gdmap::Diagnostic& d : parsed.diagnostics) CAPTURE(gdmap::formatDiagnostic(d, relative));
  REQUIRE_MESSAGE(parsed.methods, relative << " does not parse");
  CHECK(parsed.diagnostics.empty());
  return *parsed.methods;
}

// What `gdmap il build --format F` writes for the method.
Bytes written(const gdmap::il::Method& m, BoundsForm form) {
  if (m.verbatimMap) {
    REQUIRE(form == BoundsForm::Api);
    return gdmap::il::encodeApiEntries(m.map);
  }
  const auto bytes = gdmap::il::encodeBounds(m.bounds, form, m.codeSize);
  REQUIRE_MESSAGE(bytes.ok(), bytes.error().message);
  return *bytes;
}

const std::vector<std::string>& ilMapDoc() {
  static const std::vector<std::string> doc = lines(readSource("docs/il-map.md"));
  return doc;
}

}  // namespace

TEST_CASE("il docs: every hex dump in docs/il-map.md is what the writer produces") {
  const std::vector<Dump> dumps = dumpsIn(ilMapDoc());
  std::set<std::string> worked;
  for (const Dump& d : dumps) {
    CAPTURE(d.line);
    CAPTURE(d.file);
    const auto methods = loadExample(d.file);
    const gdmap::il::Method* m = findMethod(methods, d.token);
    REQUIRE_MESSAGE(m, d.file << " has no method " << gdmap::hex32(d.token));
    CHECK(gdmap::toHex(d.bytes) == gdmap::toHex(written(*m, d.form)));
    if (d.file == "examples/il/worked_example.json" && d.token == 0x06000001)
      worked.insert(std::string(gdmap::il::formName(d.form)));
  }
  // The worked example is shown in every form.
  CHECK(worked == std::set<std::string>{"api", "nibble", "packed2", "packed3"});
}

TEST_CASE("il docs: the worked example's dumps are FORMAT.md's test vectors") {
  // FORMAT.md §3.3 is authoritative; the docs show those very bytes.
  const std::vector<std::pair<BoundsForm, const char*>> vectors = {
      {BoundsForm::Nibble, "06 21 34 62 09 20 09 0a 95 24 59 00"},
      {BoundsForm::Packed2, "36 03 42 48 83 61 82 16 d3 00"},
      {BoundsForm::Packed3, "36 03 82 10 0d 0c 23 a8 62 34 00"},
  };
  const std::vector<Dump> dumps = dumpsIn(ilMapDoc());
  for (const auto& [form, hex] : vectors) {
    CAPTURE(gdmap::il::formName(form));
    bool found = false;
    for (const Dump& d : dumps) {
      if (d.file != "examples/il/worked_example.json" || d.token != 0x06000001 || d.form != form) continue;
      found = true;
      CHECK(gdmap::toHex(d.bytes) == gdmap::toHex(*gdmap::parseHex(hex)));
    }
    CHECK(found);
  }
}

TEST_CASE("il docs: the varint table gives the writer's bytes") {
  const auto& doc = ilMapDoc();
  std::size_t rows = 0;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    if (!startsWith(doc[i], "<!-- il-varints")) continue;
    // The header and separator rows, then one row a value, up to a blank line.
    for (std::size_t k = i + 3; k < doc.size() && startsWith(doc[k], "|"); ++k) {
      CAPTURE(k + 1);
      CAPTURE(doc[k]);
      std::vector<std::string> cells;
      std::istringstream row(doc[k].substr(1));
      for (std::string cell; std::getline(row, cell, '|');) {
        const auto first = cell.find_first_not_of(" `");
        const auto last = cell.find_last_not_of(" `");
        cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
      }
      REQUIRE(cells.size() >= 2);
      const auto value = parseNumber(cells.front());
      REQUIRE(value);
      CHECK(gdmap::toHex(gdmap::il::encodeNibbleU32(*value)) == gdmap::toHex(*gdmap::parseHex(cells.back())));
      ++rows;
    }
  }
  CHECK(rows >= 8);
}

TEST_CASE("il docs: the description shown in docs/il-map.md is examples/il/worked_example.json") {
  const auto& doc = ilMapDoc();
  std::size_t shown = 0;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    constexpr std::string_view kMarker = "<!-- il-example: ";
    if (!startsWith(doc[i], kMarker)) continue;
    std::istringstream fields(doc[i].substr(kMarker.size()));
    std::string file;
    fields >> file;
    CAPTURE(i + 1);
    std::string block;
    for (const std::string& line : fencedBlockAfter(doc, i)) block += line + "\n";
    CHECK(block == readSource(file));
    ++shown;
  }
  CHECK(shown >= 1);
}

TEST_CASE("il docs: the examples under examples/il parse and hold FORMAT.md's worked example") {
  const auto methods = loadExample("examples/il/worked_example.json");
  REQUIRE(methods.size() == 2);
  using gdmap::il::Bound;
  namespace source = gdmap::il::source;
  const std::vector<Bound> expected = {
      {0, gdmap::il::kProlog, source::kStackEmpty}, {4, 0x0, source::kStackEmpty},  {10, 0x5, 0},
      {12, 0x5, source::kCallInstruction},          {17, 0x9, source::kStackEmpty}, {30, gdmap::il::kEpilog, 0}};
  CHECK(methods[0].token == 0x06000001);
  CHECK(methods[0].codeSize == std::optional<std::uint32_t>(40));
  CHECK_FALSE(methods[0].verbatimMap);
  CHECK(methods[0].bounds == expected);
  CHECK(methods[1].token == 0x06000002);
  CHECK(methods[1].verbatimMap);
  CHECK(methods[1].map == std::vector<gdmap::il::ApiEntry>{{0, 0, 8}});

  const auto funclets = loadExample("examples/il/funclets.json");
  REQUIRE(funclets.size() == 1);
  // Two funclets: two PROLOG rows lead the array, and the IL bound at the
  // epilog's offset gives the zero-length row the docs point out.
  const auto api = gdmap::il::encodeBounds(funclets[0].bounds, BoundsForm::Api, funclets[0].codeSize);
  REQUIRE(api.ok());
  REQUIRE(api->size() == 11 * gdmap::il::kApiEntrySize);
  CHECK(gdmap::toHex(Bytes(api->begin(), api->begin() + 24)) == "feffffff0000000008000000feffffff3000000034000000");
  CHECK(gdmap::toHex(Bytes(api->begin() + 96, api->begin() + 108)) == "1f0000002800000028000000");
}

TEST_CASE("il docs: the IL description schema is valid JSON listing what the reader knows") {
  const nlohmann::json schema = nlohmann::json::parse(readSource("schema/gdmap-il-description.schema.json"));
  CHECK(schema.at("$schema") == "https://json-schema.org/draft/2020-12/schema");
  CHECK(schema.contains("$id"));
  CHECK(schema.contains("title"));
  CHECK(schema.at("type") == "object");
  CHECK(schema.at("additionalProperties") == false);
  CHECK(schema.at("required") == nlohmann::json::array({"methods"}));
  CHECK(schema.at("properties").size() == 2);

  // Every key any object of the format may have, and no other: the reader's
  // keys (description/il/il_description_keys.hpp, the table of il_description_json.cpp).
  std::set<std::string> keys;
  bool closed = true;  // every object with properties forbids others
  auto walk = [&](const auto& self, const nlohmann::json& node) -> void {
    if (node.is_object()) {
      if (node.contains("properties") && node.at("properties").is_object()) {
        for (const auto& [key, value] : node.at("properties").items()) keys.insert(key);
        if (node.value("additionalProperties", true) != false) closed = false;
      }
      for (const auto& [key, value] : node.items()) self(self, value);
    } else if (node.is_array()) {
      for (const auto& value : node) self(self, value);
    }
  };
  walk(walk, schema);
  CHECK(keys ==
        std::set<std::string>{
            "$schema",      "methods", "token",         "codeSize",       "bounds",        "map",        "native",
            "il",           "source",  "nativeStart",   "nativeEnd",      "instantiation", "type",       "method",
            "unboxingStub", "name",    "raw",           "layout",         "count",         "nativeBits", "ilBits",
            "nibbles",      "padding", "headerPadding", "verbatimSource", "trailing",      "truncate",   "code",
            "rva",          "size",    "asyncVariant",  "resumptionStub", "component",     "address",    "module",
            "methodDesc",   "dynamic", "codeVersion",   "kind",           "tier",          "ilVersion",  "active",
            "signature",    "line",    "document",      "column"});
  CHECK(closed);

  const auto& defs = schema.at("$defs");
  // A method: exactly one of bounds, map and raw, each with a token.
  const auto& forms = defs.at("method").at("oneOf");
  REQUIRE(forms.size() == 3);
  CHECK(forms.at(0).at("required") == nlohmann::json::array({"token", "bounds"}));
  CHECK(forms.at(1).at("required") == nlohmann::json::array({"token", "map"}));
  CHECK(forms.at(2).at("required") == nlohmann::json::array({"token", "raw"}));
  CHECK(defs.at("bound").at("required") == nlohmann::json::array({"native", "il"}));
  CHECK(defs.at("entry").at("required") == nlohmann::json::array({"il", "nativeStart", "nativeEnd"}));
  CHECK(defs.at("u32").at("oneOf").at(1).at("pattern") == "^0[xX][0-9a-fA-F]{1,8}$");
  CHECK(defs.at("u32").at("oneOf").at(0).at("maximum") == 4294967295u);

  // The names are the model's (il_map.hpp).
  nlohmann::json flags = nlohmann::json::array();
  for (std::uint32_t bit = 1; bit & gdmap::il::source::kKnown; bit <<= 1)
    flags.push_back(gdmap::il::sourceFlagName(bit));
  CHECK(flags.size() == 6);
  CHECK(defs.at("sourceFlag").at("oneOf").at(0).at("enum") == flags);
  nlohmann::json specials = nlohmann::json::array();
  for (std::uint32_t il : {gdmap::il::kProlog, gdmap::il::kEpilog, gdmap::il::kNoMapping})
    specials.push_back(std::string(gdmap::il::specialIlName(il)));
  CHECK(defs.at("ilOffset").at("oneOf").at(1).at("enum") == specials);
  for (const auto& name : flags) CHECK(gdmap::il::parseSourceFlag(name.get<std::string>()));

  // A description that names the schema by its $id passes our reader.
  const gdmap::il::IlDescriptionParse p =
      gdmap::il::parseIlDescription("{\"$schema\": \"" + schema.at("$id").get<std::string>() + "\", \"methods\": []}");
  CHECK(p.diagnostics.empty());
  CHECK(p.methods);
}

TEST_CASE("il docs: docs/il-map.md links every IL rule to its entry in docs/errors.md") {
  // The rules a reader of the IL docs can meet: every "il-..." constant of
  // rules.hpp, whoever adds it, and the description's invalid-number.
  std::string doc;
  for (const std::string& line : ilMapDoc()) doc += line + "\n";
  std::size_t rules = 0;
  for (const std::string& line : lines(readSource("schema/include/gdmap/schema/rules.hpp"))) {
    const auto open = line.find("[] = \"");
    if (open == std::string::npos) continue;
    const auto start = open + 6;
    const std::string id = line.substr(start, line.find('"', start) - start);
    if (!startsWith(id, "il-") && id != "invalid-number") continue;
    CAPTURE(id);
    CHECK(doc.find("[`" + id + "`](errors.md#" + id + ")") != std::string::npos);
    ++rules;
  }
  CHECK(rules >= 20);
}
