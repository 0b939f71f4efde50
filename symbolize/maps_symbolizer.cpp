#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/symbolize/maps_symbolizer.hpp>

#include <algorithm>
#include <charconv>
#include <utility>

namespace gdmap::symbolize {
namespace {

// The next field of a maps line: its text up to a space (or the end).
std::string_view nextField(std::string_view& rest) {
  const std::size_t start = rest.find_first_not_of(' ');
  if (start == std::string_view::npos) {
    rest = {};
    return {};
  }
  rest.remove_prefix(start);
  const std::size_t end = std::min(rest.find(' '), rest.size());
  const std::string_view field = rest.substr(0, end);
  rest.remove_prefix(end);
  return field;
}

bool parseHex(std::string_view text, std::uint64_t& value) {
  if (text.empty() || text.size() > 16) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  return ec == std::errc() && end == text.data() + text.size();
}

// One line; nullopt with `ok` true for a mapping of no file.
std::optional<Mapping> parseLine(std::string_view line, bool& ok) {
  ok = false;
  std::string_view rest = line;
  const std::string_view range = nextField(rest);
  const std::string_view perms = nextField(rest);
  const std::string_view offset = nextField(rest);
  const std::string_view device = nextField(rest);
  const std::string_view inode = nextField(rest);
  const std::size_t dash = range.find('-');
  Mapping m;
  if (dash == std::string_view::npos || !parseHex(range.substr(0, dash), m.begin) ||
      !parseHex(range.substr(dash + 1), m.end) || m.end <= m.begin || perms.size() != 4 ||
      !parseHex(offset, m.offset) || device.find(':') == std::string_view::npos || inode.empty())
    return std::nullopt;
  ok = true;
  const std::size_t path = rest.find_first_not_of(' ');
  if (path == std::string_view::npos || rest[path] != '/') return std::nullopt;  // anonymous, [heap], [vdso]...
  m.path = std::string(rest.substr(path));
  return m;
}

}  // namespace

Expected<std::vector<Mapping>> parseProcMaps(std::string_view text) {
  std::vector<Mapping> mappings;
  std::size_t at = 0;
  std::size_t number = 0;
  std::uint64_t previousEnd = 0;
  while (at < text.size()) {
    const std::size_t newline = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, newline - at);
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) {
      bool ok = false;
      std::optional<Mapping> m = parseLine(line, ok);
      if (!ok)
        return Error(
            at,
            "line " + std::to_string(number) + " is not a /proc/PID/maps line (begin-end perms offset dev inode path)",
            rules::kMapsInvalid);
      const std::uint64_t begin = m ? m->begin : 0;
      if (m && begin < previousEnd)
        return Error(at,
                     "line " + std::to_string(number) + ": [" + shortHex(m->begin) + ", " + shortHex(m->end) +
                         ") overlaps the mapping before it or is out of order",
                     rules::kMapsInvalid);
      if (m) {
        previousEnd = m->end;
        mappings.push_back(std::move(*m));
      }
    }
    at = newline + 1;
  }
  return mappings;
}

std::optional<std::uint32_t> rvaOfFileOffset(const pe::PeImage& image, std::uint64_t offset) {
  for (const pe::SectionHeader& s : image.sections()) {
    if (offset >= s.rawOffset && offset - s.rawOffset < s.rawSize &&
        s.virtualAddress + (offset - s.rawOffset) <= UINT32_MAX)
      return static_cast<std::uint32_t>(s.virtualAddress + (offset - s.rawOffset));
  }
  return std::nullopt;
}

MapsSymbolizer::MapsSymbolizer(std::vector<Mapping> mappings, MapsSymbolizerOptions options)
    : mappings_(std::move(mappings)), options_(options) {}
MapsSymbolizer::MapsSymbolizer(MapsSymbolizer&&) noexcept = default;
MapsSymbolizer& MapsSymbolizer::operator=(MapsSymbolizer&&) noexcept = default;
MapsSymbolizer::~MapsSymbolizer() = default;

const Mapping* MapsSymbolizer::mappingAt(std::uint64_t address) const {
  const auto it = std::upper_bound(mappings_.begin(), mappings_.end(), address,
                                   [](std::uint64_t a, const Mapping& m) { return a < m.begin; });
  if (it == mappings_.begin() || address >= std::prev(it)->end) return nullptr;
  return &*std::prev(it);
}

MapsSymbolizer::Image& MapsSymbolizer::imageOf(const std::string& path) {
  auto found = images_.find(path);
  if (found != images_.end()) return found->second;
  Image image;
  Expected<ImageSymbolizer> opened = ImageSymbolizer::open(path, ImageSymbolizerOptions{"", options_.lines});
  if (opened) {
    if (opened->pdbNote()) notes_.push_back(PdbNote{path, *opened->pdbNote()});
    image.symbolizer = std::make_unique<ImageSymbolizer>(std::move(*opened));
  } else {
    // The answer names the file already.
    const std::string& message = opened.error().message;
    image.error = message.rfind(path + ": ", 0) == 0 ? message.substr(path.size() + 2) : message;
  }
  return images_.emplace(path, std::move(image)).first->second;
}

MapsAnswer MapsSymbolizer::locate(std::uint64_t address, AddressKind kind) {
  MapsAnswer a;
  a.address = address;
  a.located.kind = kind;
  a.mapping = mappingAt(address);
  if (a.mapping == nullptr) return a;
  Image& image = imageOf(a.mapping->path);
  if (!image.symbolizer) {
    a.error = image.error;
    return a;
  }
  a.image = image.symbolizer.get();
  a.rva = a.image->rvaOfFileOffset(a.mapping->offset + (address - a.mapping->begin));
  if (!a.rva) return a;
  a.located = a.image->locate(*a.rva, kind);
  a.source = a.image->sourceLine(a.located);
  return a;
}

}  // namespace gdmap::symbolize
