// Reads a generic dictionary map the way a debugger does: validates it in
// place, then prints every dictionary's RVA and types, or only the one at
// RVA. Exit status 0 when the map is valid (and RVA is in it), 1 when it is
// not, 2 when the file cannot be read.
//   gdmap_reader_consumer MAP.gdmap [RVA]
#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/map_view.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/type_text.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: gdmap_reader_consumer MAP.gdmap [RVA]\n");
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  const gdmap::Bytes map{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  if (!file.is_open() || file.bad()) {
    std::fprintf(stderr, "gdmap_reader_consumer: cannot read %s\n", argv[1]);
    return 2;
  }

  const gdmap::CheckReport report = gdmap::checkMap(map);
  for (const gdmap::Diagnostic& d : report.diagnostics)
    std::fprintf(stderr, "%s\n", gdmap::formatDiagnostic(d, argv[1]).c_str());
  if (!report.valid) return 1;

  // checkMap() accepted it: every entry's item and types decode.
  const gdmap::Expected<gdmap::MapView> view = gdmap::MapView::open(map);
  if (!view) return 1;
  std::uint32_t first = 0;
  std::uint32_t end = view->size();
  if (argc == 3) {
    const auto rva = static_cast<std::uint32_t>(std::strtoul(argv[2], nullptr, 0));
    const gdmap::Expected<std::optional<std::uint32_t>> found = view->find(rva);
    if (!found || !found->has_value()) return 1;
    first = **found;
    end = first + 1;
  }
  for (std::uint32_t i = first; i < end; ++i) {
    const gdmap::DirectoryEntry entry = view->entry(i);
    const gdmap::Expected<gdmap::ItemView> item = view->item(entry.offset);
    if (!item) return 1;
    const gdmap::Expected<std::vector<gdmap::Type>> types = gdmap::decodeItemTypes(*item);
    if (!types) return 1;
    std::printf("%s:", gdmap::hex32(entry.rva).c_str());
    for (const gdmap::Type& type : *types) std::printf(" %s", gdmap::formatType(type).c_str());
    std::printf("\n");
  }
  return 0;
}
