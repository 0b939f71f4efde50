// gdmap_symbolize_bench: addresses streamed through one symbolizer after
// it is opened, as a profiler's symbolizer process sees them (issue 29's
// target: a million addresses a second or more). Opens IMAGE once (an
// ImageSymbolizer: the image mapped and read, its PDB found), then locates
// N addresses drawn with a fixed seed from the image's code (a random
// runtime function, a random byte of it), each phase the fastest of R runs:
//   exact      leaf samples, no lines
//   return     the same addresses as return addresses, no lines
//   lines      exact, with the source line (when IMAGE has a PDB)
//   maps       absolute addresses through a /proc/PID/maps of IMAGE (MapsSymbolizer)
// Every phase checks that every address found its method (a wrong answer is
// a failure, not a number).
//   gdmap_symbolize_bench IMAGE [--addresses N] [--repeat R] [--seed S]
#include "bench_clock.hpp"

#include <gdmap/symbolize/image_symbolizer.hpp>
#include <gdmap/symbolize/maps_symbolizer.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using gdmap::bench::Clock;
using gdmap::bench::secondsSince;
namespace sym = gdmap::symbolize;

struct Options {
  std::string image;
  std::size_t addresses = 1000000;
  unsigned repeat = 3;
  std::uint32_t seed = 29;
};

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool hasValue = i + 1 < argc;
    if (arg == "--addresses" && hasValue) o.addresses = std::strtoull(argv[++i], nullptr, 10);
    else if (arg == "--repeat" && hasValue) o.repeat = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
    else if (arg == "--seed" && hasValue) o.seed = static_cast<std::uint32_t>(std::strtoul(argv[++i], nullptr, 10));
    else if (o.image.empty() && arg[0] != '-') o.image = arg;
    else return false;
  }
  return !o.image.empty() && o.addresses > 0 && o.repeat > 0;
}

// RVAs inside the runtime functions the image's methods own.
std::vector<std::uint32_t> addressesOf(const gdmap::r2r::R2RImage& image, const Options& o) {
  std::vector<std::uint32_t> owned;
  for (const std::optional<sym::Owner>& owner : sym::ownersOf(image)) owned.push_back(owner ? 1 : 0);
  std::vector<std::size_t> functions;
  for (std::size_t f = 0; f < owned.size(); ++f)
    if (owned[f] && image.runtimeFunctions[f].size() > 0) functions.push_back(f);
  std::vector<std::uint32_t> rvas;
  if (functions.empty()) return rvas;
  std::mt19937 random(o.seed);
  rvas.reserve(o.addresses);
  for (std::size_t i = 0; i < o.addresses; ++i) {
    const gdmap::r2r::RuntimeFunction& f = image.runtimeFunctions[functions[random() % functions.size()]];
    rvas.push_back(f.begin + static_cast<std::uint32_t>(random() % f.size()));
  }
  return rvas;
}

// The fastest of `repeat` runs of `phase` over every address; false when an
// address found no method.
template <typename Phase>
bool timed(const char* name, const Options& o, std::size_t count, Phase&& phase) {
  double best = 0;
  for (unsigned r = 0; r < o.repeat; ++r) {
    const Clock::time_point start = Clock::now();
    const std::size_t found = phase();
    const double seconds = secondsSince(start);
    if (found != count) {
      std::fprintf(stderr, "%s: %zu of %zu addresses found no method\n", name, count - found, count);
      return false;
    }
    if (r == 0 || seconds < best) best = seconds;
  }
  gdmap::bench::report(name, best, count, "addr", count * sizeof(std::uint64_t));
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, o)) {
    std::fprintf(stderr, "usage: gdmap_symbolize_bench IMAGE [--addresses N] [--repeat R] [--seed S]\n");
    return 2;
  }
  const Clock::time_point opening = Clock::now();
  gdmap::Expected<sym::ImageSymbolizer> opened = sym::ImageSymbolizer::open(o.image);
  if (!opened) {
    std::fprintf(stderr, "%s: %s [%s]\n", o.image.c_str(), opened.error().message.c_str(), opened.error().rule.c_str());
    return 1;
  }
  sym::ImageSymbolizer& image = *opened;
  std::printf("%-18s %9.3f s  %zu methods, %zu runtime functions%s\n", "open", secondsSince(opening),
              image.image().methods.size(), image.image().runtimeFunctions.size(),
              image.pdb() ? ", a PDB" : ", no PDB");
  const std::vector<std::uint32_t> rvas = addressesOf(image.image(), o);
  if (rvas.empty()) {
    std::fprintf(stderr, "%s: no method's code to sample\n", o.image.c_str());
    return 1;
  }
  const auto run = [&](sym::AddressKind kind, bool lines) {
    std::size_t found = 0, withLines = 0;
    for (const std::uint32_t rva : rvas) {
      const sym::Located l = image.locate(rva, kind);
      found += l.method != nullptr;
      if (lines && image.sourceLine(l)) ++withLines;
    }
    if (lines && image.pdb() && withLines == 0) return std::size_t{0};
    return found;
  };
  bool ok = timed("exact", o, rvas.size(), [&] { return run(sym::AddressKind::Exact, false); });
  ok &= timed("return", o, rvas.size(), [&] { return run(sym::AddressKind::Return, false); });
  if (image.pdb()) ok &= timed("lines", o, rvas.size(), [&] { return run(sym::AddressKind::Exact, true); });
  // Absolute addresses through a map of the image's sections, as the
  // runtime maps them (each section's pages at base + its RVA).
  const std::uint64_t base = 0x7f0000000000;
  std::vector<sym::Mapping> mappings;
  for (const gdmap::pe::SectionHeader& s : image.pe().sections()) {
    const std::uint64_t begin = base + (s.virtualAddress & ~0xFFFu);
    const std::uint64_t offset = s.rawOffset & ~0xFFFu;
    if (!mappings.empty() && begin < mappings.back().end) continue;
    mappings.push_back(
        sym::Mapping{begin, begin + ((s.rawOffset - offset + s.rawSize + 0xFFF) & ~0xFFFull), offset, o.image});
  }
  sym::MapsSymbolizer maps(std::move(mappings), sym::MapsSymbolizerOptions{false});
  ok &= timed("maps", o, rvas.size(), [&] {
    std::size_t found = 0;
    for (const std::uint32_t rva : rvas) found += maps.locate(base + rva).found();
    return found;
  });
  return ok ? 0 : 1;
}
