#include "il_bench.hpp"

#include "bench_clock.hpp"

#include <gdmap/description/il_description_json.hpp>
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/schema/bounds_to_api.hpp>
#include <gdmap/writer/bounds_encoder.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace gdmap::bench {
namespace {

constexpr il::BoundsForm kCompressed[] = {il::BoundsForm::Nibble, il::BoundsForm::Packed2, il::BoundsForm::Packed3};

bool fail(const std::string& what) {
  std::fprintf(stderr, "IL bench: %s\n", what.c_str());
  return false;
}

// Accepts every SAX event and keeps nothing: what tokenizing the text costs.
struct NullSax : nlohmann::json_sax<nlohmann::json> {
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

bool sameMethods(const std::vector<il::Method>& a, const std::vector<il::Method>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].token != b[i].token || a[i].codeSize != b[i].codeSize || a[i].verbatimMap != b[i].verbatimMap ||
        a[i].bounds != b[i].bounds || a[i].map != b[i].map)
      return false;
  }
  return true;
}

class Phases {
 public:
  explicit Phases(const std::vector<il::Method>& methods) : methods_(methods) {
    for (const il::Method& m : methods) bounds_ += m.bounds.size();
  }

  bool run() {
    for (const il::BoundsForm form : kCompressed)
      if (!encode(form) || !decode(form) || !canonical(form)) return false;
    return toApi() && apiBytes() && description();
  }

  std::vector<IlPhase> phases;

 private:
  std::string name(const char* verb, il::BoundsForm form) {
    return std::string(verb) + "-" + std::string(il::formName(form));
  }

  void add(std::string phase, Clock::time_point start, std::size_t bytes) {
    phases.push_back({std::move(phase), secondsSince(start), bytes});
  }

  bool encode(il::BoundsForm form) {
    blobs_.assign(methods_.size(), {});
    std::size_t bytes = 0;
    const auto start = Clock::now();
    for (std::size_t i = 0; i < methods_.size(); ++i) {
      Expected<Bytes> blob = il::encodeCompressedBounds(methods_[i].bounds, form);
      if (!blob) return fail(name("encode", form) + ": " + blob.error().message);
      bytes += blob->size();
      blobs_[i] = std::move(*blob);
    }
    add(name("encode", form), start, bytes);
    return true;
  }

  // openBounds validates the whole blob; the cursor then decodes it again.
  bool decode(il::BoundsForm form) {
    std::size_t bytes = 0, decoded = 0;
    std::uint64_t checksum = 0, expected = 0;
    const auto start = Clock::now();
    for (const Bytes& blob : blobs_) {
      const Expected<il::BoundsView> opened = il::openBounds(blob, form);
      if (!opened) return fail(name("decode", form) + ": " + opened.error().message);
      il::BoundsView::Cursor cursor = opened->cursor();
      for (il::Bound b; cursor.next(b); ++decoded) checksum += b.nativeOffset ^ b.ilOffset ^ b.source;
      bytes += blob.size();
    }
    add(name("decode", form), start, bytes);
    for (const il::Method& m : methods_)
      for (const il::Bound& b : m.bounds) expected += b.nativeOffset ^ b.ilOffset ^ b.source;
    if (decoded != bounds_ || checksum != expected) return fail(name("decode", form) + ": other bounds than encoded");
    return true;
  }

  bool canonical(il::BoundsForm form) {
    std::size_t bytes = 0;
    const auto start = Clock::now();
    for (const Bytes& blob : blobs_) {
      const il::BoundsCanonicalReport report = il::checkBoundsCanonical(blob, form);
      if (!report.valid || !report.canonical)
        return fail(name("canonical", form) + ": the writer's blob is not canonical");
      bytes += blob.size();
    }
    add(name("canonical", form), start, bytes);
    return true;
  }

  bool toApi() {
    apis_.assign(methods_.size(), {});
    std::size_t entries = 0;
    const auto start = Clock::now();
    for (std::size_t i = 0; i < methods_.size(); ++i) {
      apis_[i] = il::boundsToApi(methods_[i].bounds, *methods_[i].codeSize);
      entries += apis_[i].size();
    }
    add("bounds-to-api", start, entries * il::kApiEntrySize);
    if (entries == 0 || entries > bounds_) return fail("bounds-to-api: " + std::to_string(entries) + " entries");
    return true;
  }

  bool apiBytes() {
    std::size_t bytes = 0;
    const auto start = Clock::now();
    for (const std::vector<il::ApiEntry>& api : apis_) bytes += il::encodeApiEntries(api).size();
    add("encode-api", start, bytes);
    return true;
  }

  // The description of every method: written, parsed back, and two floors
  // for a reader built on nlohmann: its DOM parse of the same text (what a
  // naive reader pays before looking at a value) and its SAX parse into a
  // handler that keeps nothing (tokenizing alone).
  bool description() {
    auto start = Clock::now();
    const std::string text = il::writeIlDescription(methods_);
    add("desc-write", start, text.size());

    start = Clock::now();
    const il::IlDescriptionParse parse = il::parseIlDescription(text);
    add("desc-parse", start, text.size());
    if (!parse.methods || !sameMethods(*parse.methods, methods_))
      return fail("desc-parse: the description does not read back to the same methods" +
                  (parse.diagnostics.empty() ? std::string() : ": " + parse.diagnostics[0].message));

    start = Clock::now();
    const nlohmann::json dom = nlohmann::json::parse(text);
    add("desc-json-floor", start, text.size());
    if (dom.at("methods").size() != methods_.size()) return fail("desc-json-floor: another method count");

    start = Clock::now();
    NullSax sax;
    const bool tokenized = nlohmann::json::sax_parse(text, &sax);
    add("desc-sax-floor", start, text.size());
    if (!tokenized) return fail("desc-sax-floor: the text does not tokenize");
    return true;
  }

  const std::vector<il::Method>& methods_;
  std::size_t bounds_ = 0;
  std::vector<Bytes> blobs_;
  std::vector<std::vector<il::ApiEntry>> apis_;
};

}  // namespace

std::optional<std::vector<IlPhase>> runIlPhases(const std::vector<il::Method>& methods, unsigned repeat) {
  std::vector<IlPhase> best;
  for (unsigned r = 0; r < std::max(repeat, 1u); ++r) {
    Phases phases(methods);
    if (!phases.run()) return std::nullopt;
    if (best.empty()) best = std::move(phases.phases);
    else
      for (std::size_t i = 0; i < best.size(); ++i)
        best[i].seconds = std::min(best[i].seconds, phases.phases[i].seconds);
  }
  return best;
}

}  // namespace gdmap::bench
